"""The agent runner: a model plays ShoppingBench tasks as an MCP client of the sandbox.

- loop.run_episode: one episode over any MCP session (in-process or `shopbench serve` over HTTP).
- protocols: `native` (backend tool calling) and `paper` (the reference's `<think>`/`<tool_call>` text format).
- paper_format: the text-format parser (malformed turns become observations, never exceptions).
The whole `shopbench run shoppingbench` (tasks, shards, manifest, resume) is evaluators.runs.run.run_benchmark.
"""
