"""The harness's share of wall time in a ShoppingBench run against a model with a fixed latency.

A stub model answers every call after exactly LATENCY_S (it plays the oracle's four steps, so every tool is
exercised: search, view, recommend, terminate). Everything else — the MCP round trips, the sandbox's Lucene search,
trajectory writes with fsync, the retry and cache wrappers, the run bookkeeping — is harness time:

    harness share = (wall − model time) / wall        target ≤ 2% at concurrency 1, ≤ 4% at 4

With concurrency C the model time on the critical path is (model time summed over calls) / C.

Run: .venv/bin/python perf/bench_harness.py [--tasks-per-intent N] [--latency 0.2] [--concurrency C]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(Path(__file__).resolve().parent.parent / ".shopbench-cache"))

from evaluators.agent.shoppingbench_run import ShoppingRunConfig, run_shoppingbench  # noqa: E402
from evaluators.models import ModelAPI, ModelOutput, register_backend  # noqa: E402
from evaluators.models._baselines import OracleBaseline  # noqa: E402


class FixedLatencyOracle(OracleBaseline):
    """The oracle's moves after a fixed delay; not a baseline, so the run wraps it in retries and the cache."""

    is_baseline = False
    latency_s = 0.2
    model_time = 0.0

    async def generate(self, messages, tools=None, config=None) -> ModelOutput:
        began = time.perf_counter()
        await asyncio.sleep(self.latency_s)
        output = await super().generate(messages, tools, config)
        FixedLatencyOracle.model_time += time.perf_counter() - began
        return output.model_copy(update={"latency_s": self.latency_s})


@register_backend("fixed-latency-oracle", needs_argument=False, help="perf stub")
def _stub(rest: str, options) -> ModelAPI:
    return FixedLatencyOracle("fixed-latency-oracle", options.seed)


async def measure(tasks_per_intent: int, concurrency: int, work: Path) -> tuple[float, float, int]:
    FixedLatencyOracle.model_time = 0.0
    config = ShoppingRunConfig(model="fixed-latency-oracle", limit=tasks_per_intent, concurrency=concurrency,
                               out=work / f"run-{tasks_per_intent}-{concurrency}",
                               cache_path=work / f"cache-{tasks_per_intent}-{concurrency}.sqlite")
    began = time.perf_counter()
    result = await run_shoppingbench(config)
    wall = time.perf_counter() - began
    return wall, FixedLatencyOracle.model_time, result.summary.completed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-per-intent", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=4, help="also measured, besides concurrency 1")
    args = parser.parse_args()
    FixedLatencyOracle.latency_s = args.latency
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        asyncio.run(measure(1, 1, work))  # warm-up: JVM, indexes, embedder-free imports
        for concurrency in dict.fromkeys((1, args.concurrency)):
            wall, model, episodes = asyncio.run(measure(args.tasks_per_intent, concurrency, work))
            model_path = model / concurrency  # model time on each worker's critical path
            share = (wall - model_path) / wall
            print(f"concurrency {concurrency}: {episodes} episodes (4 steps each), model latency "
                  f"{args.latency * 1000:.0f} ms per call")
            print(f"  wall {wall:.2f} s, model {model_path:.2f} s per worker, harness {wall - model_path:.2f} s "
                  f"({(wall - model_path) * concurrency / (episodes * 4) * 1000:.1f} ms per step)")
            target = 0.02 if concurrency == 1 else 0.04
            verdict = "OK" if share <= target else "OVER"
            print(f"  harness share of wall time: {share * 100:.2f}%  (target <= {target:.0%})  {verdict}")


if __name__ == "__main__":
    main()
