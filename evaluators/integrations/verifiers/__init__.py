"""shopbench's benchmarks as Prime Intellect `verifiers` environments, for RL trainers (prime-rl, the paper's GRPO
stage) and verifiers' own evaluator:

    import verifiers as vf
    env = vf.load_environment("shopbench", benchmark="shoppingbench", intent="voucher", limit=50)
    results = await env.evaluate(client, "my-model", num_examples=4)     # or: vf-eval shopbench -a '{...}'

verifiers imports the module named after the environment id and calls its `load_environment`; the `shopbench`
package's own delegates here. Modules: `registry` (which environment a benchmark gets, by name or kind; the options
each takes), `tool_env` (agentic benchmarks: a multi-turn tool environment, one episode on the benchmark's MCP server
per rollout), `questions` (question benchmarks: single-turn), `rubrics` (shopbench's scorers as rubrics), `episodes`
(the environment opened once per process, one MCP connection per rollout). Importing this package imports neither
verifiers nor the environments: `load_environment` does, for the benchmark asked.
"""

from evaluators.integrations.verifiers.registry import load_environment, register_environment

__all__ = ["load_environment", "register_environment"]
