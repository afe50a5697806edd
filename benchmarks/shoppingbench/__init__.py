"""ShoppingBench: the agentic shopping benchmark (data, formats, generators, prompts)."""
