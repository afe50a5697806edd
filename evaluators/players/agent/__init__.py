"""The agent player: a model plays agentic tasks as an MCP client of the sandbox.

- loop.run_episode: one episode over any MCP session (in-process or `shopbench serve` over HTTP).
- protocols: `native` (backend tool calling) and `paper` (the reference's `<think>`/`<tool_call>` text format).
- paper_format: the text-format parser (malformed turns become observations, never exceptions).
- observations: how the protocols' observations may be shown and shortened by a backend with a small context.
The whole `shopbench run shoppingbench` (tasks, shards, manifest, resume) is evaluators.harness.run.run_benchmark.
"""
