"""Inspect AI eval overhead per sample: `inspect eval shopbench/shoppingbench` with mockllm scripted to play the
oracle's moves, against `shopbench run --model oracle` on the same tasks (same world, same four tool calls per task).

Prints wall time per sample for both, the time the sandbox tools took (from the trajectories), and the difference:
what Inspect (its sample loop, ReAct agent, logging, scoring through shopbench's scorer) adds per sample.

    .venv/bin/python perf/bench_inspect.py [--tasks 20] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SHOPBENCH_HOME", str(Path(__file__).resolve().parent.parent / ".shopbench-cache"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def tool_seconds(run: Path) -> float:
    from mcp_server.trajectory import iter_episode_files, read_trajectory

    total = 0.0
    for path in iter_episode_files(run):
        for step in read_trajectory(path).steps:
            if step.started_at and step.ended_at:
                total += (step.ended_at - step.started_at).total_seconds()
    return total


def main() -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, ModelUsage, get_model

    from evaluators.harness.run import RunConfig, run_benchmark
    from evaluators.integrations.gym.rewards import oracle_reference
    from mcp_server.shopping.world_build import default_world

    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=20, help="tasks per intent (4 intents)")
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    world = default_world()
    tasks = {task.instruction: task for task in world.tasks("generated")}
    out = Path(tempfile.mkdtemp(prefix="bench-inspect-"))

    def oracle(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        instruction = next(m.text for m in messages if isinstance(m, ChatMessageUser))
        turn = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        name, arguments = oracle_reference(tasks[instruction])[min(turn, 3)]
        output = ModelOutput.for_tool_call("mockllm/model", name, arguments)
        output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
        return output

    start = time.perf_counter()
    asyncio.run(run_benchmark(RunConfig(benchmark="shoppingbench", model="oracle", world=world.root, limit=args.tasks,
                                        concurrency=args.concurrency, out=out / "shopbench", cache=False)))
    shopbench_wall = time.perf_counter() - start
    samples = len(list((out / "shopbench" / "episodes").glob("*.jsonl")))

    ids = [task.task_id for intent in ("product", "shop", "voucher", "web")
           for task in [t for t in tasks.values() if t.intent == intent][: args.tasks]]
    model = get_model("mockllm/model", custom_outputs=oracle)
    start = time.perf_counter()
    [log] = inspect_eval("shopbench/shoppingbench", model=model, sample_id=ids, max_samples=args.concurrency,
                         task_args={"runs": str(out / "inspect")}, log_dir=str(out / "logs"), display="none")
    inspect_wall = time.perf_counter() - start
    assert log.status == "success", log.error
    asr = log.results.scores[0].metrics["ASR"].value if log.results else None

    per_shop = shopbench_wall / samples
    per_inspect = inspect_wall / len(ids)
    print(f"machine load (1 min): {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; concurrency {args.concurrency}")
    print(f"shopbench run --model oracle: {samples:4d} samples, {per_shop * 1000:7.1f} ms/sample "
          f"(tools {tool_seconds(out / 'shopbench') / samples * 1000:.1f} ms/sample)")
    print(f"inspect eval (mockllm oracle): {len(ids):4d} samples, {per_inspect * 1000:7.1f} ms/sample "
          f"(tools {tool_seconds(out / 'inspect') / len(ids) * 1000:.1f} ms/sample), ASR {asr}")
    print(f"Inspect overhead per sample vs shopbench run: {(per_inspect - per_shop) * 1000:+.1f} ms "
          "(Inspect startup and log writing included)")


if __name__ == "__main__":
    main()
