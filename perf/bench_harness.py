"""The harness's share of wall time in a ShoppingBench run against a model with a fixed latency.

A stub model answers every call after exactly LATENCY_S (it plays the oracle's four steps, so every tool is
exercised: search, view, recommend, terminate). Everything else — the MCP round trips, the sandbox's Lucene search,
trajectory writes (flushed per event), the retry and cache wrappers, the run bookkeeping — is harness time:

    harness share = (wall − model time) / wall        target ≤ 2% at concurrency 1, ≤ 4% at 4

With concurrency C the model time on the critical path is (model time summed over calls) / C.

It also prints where the harness time goes, per step (timers around the harness's own functions; they add
microseconds): setup and teardown of the run, start_task round trips, tool round trips (and within them the episode's
work in the server's worker thread and the client's output-schema validation), the model wrappers (retry and cache,
around the model's own time), and the rest (the agent loop, the run's bookkeeping, waking up between them).

What a step costs here is mostly code run cold after the model's 200 ms wait, not CPU work (measured on the 2-core
VM, back to back vs after 200 ms idle): a JNI call 1 µs vs 60 µs, an in-memory MCP round trip 0.27 vs 1.0-1.3 ms, a
thread hop 0.12 vs 0.34 ms, opening a file 0.02 vs 0.18 ms. Removing a whole phase (a crossing into Java, a file
open) shows here; shaving microseconds inside one only moves the cold start to the next piece of code.

Run: .venv/bin/python perf/bench_harness.py [--tasks-per-intent N] [--latency 0.2] [--concurrency C]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(Path(__file__).resolve().parent.parent / ".shopbench-cache"))

from mcp.client.session import ClientSession  # noqa: E402

from evaluators.harness.cache import CachedModel  # noqa: E402
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.models import ModelAPI, ModelOutput, register_backend  # noqa: E402
from evaluators.players.baselines.agentic import OracleBaseline  # noqa: E402
from mcp_server.episode_client import EpisodeClient  # noqa: E402
from mcp_server.episodes import Episode  # noqa: E402

SPENT: dict[str, float] = defaultdict(float)
"""Seconds spent in each timed part of the harness (summed over calls and threads)."""
FIRST_BEGIN: dict[str, float] = {}
LAST_END: dict[str, float] = {}
"""perf_counter when each timed part was first entered and last left (the run's setup ends where its first start_task
begins, its teardown begins where its last tool call ends: neither overlaps the round trips counted on their own)."""


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


def _timed(owner: type, name: str, part: str) -> None:
    """Wrap owner.name (a method, sync or async) so the seconds spent in it add up in SPENT[part]."""
    original: Callable[..., Any] = getattr(owner, name)
    if asyncio.iscoroutinefunction(original):

        async def timed_async(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            FIRST_BEGIN.setdefault(part, began)
            try:
                return await original(*args, **kwargs)
            finally:
                LAST_END[part] = time.perf_counter()
                SPENT[part] += LAST_END[part] - began

        setattr(owner, name, timed_async)
    else:

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                SPENT[part] += time.perf_counter() - began

        setattr(owner, name, timed)


_timed(EpisodeClient, "start", "start_task round trip")
_timed(EpisodeClient, "call", "tool round trip")
_timed(Episode, "__init__", "  server: Episode() (worker thread)")
_timed(Episode, "call", "  server: Episode.call (worker thread)")
_timed(ClientSession, "validate_tool_result", "  client: output-schema validation")
_timed(CachedModel, "generate", "model wrappers (incl. the model)")


@register_backend("fixed-latency-oracle", needs_argument=False, help="perf stub")
def _stub(rest: str, options) -> ModelAPI:
    return FixedLatencyOracle("fixed-latency-oracle", options.seed)


async def measure(tasks_per_intent: int, concurrency: int, work: Path) -> tuple[float, float, int, float]:
    """(wall s, model s summed over calls, episodes completed, perf_counter at the run's start)."""
    FixedLatencyOracle.model_time = 0.0
    SPENT.clear()
    FIRST_BEGIN.clear()
    LAST_END.clear()
    config = RunConfig(benchmark="shoppingbench", model="fixed-latency-oracle", limit=tasks_per_intent,
                       concurrency=concurrency, out=work / f"run-{tasks_per_intent}-{concurrency}",
                       cache_path=work / f"cache-{tasks_per_intent}-{concurrency}.sqlite")
    began = time.perf_counter()
    result = await run_benchmark(config)
    wall = time.perf_counter() - began
    return wall, FixedLatencyOracle.model_time, result.summary.completed, began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks-per-intent", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=4, help="also measured, besides concurrency 1")
    args = parser.parse_args()
    FixedLatencyOracle.latency_s = args.latency
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        asyncio.run(measure(1, 1, work / "warm-up"))  # warm-up: JVM, indexes, embedder-free imports
        for concurrency in dict.fromkeys((1, args.concurrency)):
            wall, model, episodes, began = asyncio.run(measure(args.tasks_per_intent, concurrency, work))
            model_path = model / concurrency  # model time on each worker's critical path
            share = (wall - model_path) / wall
            print(f"concurrency {concurrency}: {episodes} episodes (4 steps each), model latency "
                  f"{args.latency * 1000:.0f} ms per call")
            print(f"  wall {wall:.2f} s, model {model_path:.2f} s per worker, harness {wall - model_path:.2f} s "
                  f"({(wall - model_path) * concurrency / (episodes * 4) * 1000:.1f} ms per step)")
            target = 0.02 if concurrency == 1 else 0.04
            verdict = "OK" if share <= target else "OVER"
            print(f"  harness share of wall time: {share * 100:.2f}%  (target <= {target:.0%})  {verdict}")
            print_breakdown(wall, model, began_run=began, steps=episodes * 4, episodes=episodes,
                            concurrency=concurrency)


def print_breakdown(wall: float, model: float, *, began_run: float, steps: int, episodes: int,
                    concurrency: int) -> None:
    """Where the harness time goes, in ms per step (summed over workers: divide by the concurrency for wall)."""
    per_step = 1000 / steps
    spent = dict(SPENT)
    wrappers = spent.pop("model wrappers (incl. the model)", 0.0) - model
    setup = FIRST_BEGIN.get("start_task round trip", began_run) - began_run
    teardown = began_run + wall - LAST_END.get("tool round trip", began_run + wall)
    print(f"  per step (ms, summed over the {concurrency} worker(s); {episodes} start_task calls spread over steps):")
    print(f"    run setup before the first start_task   {setup * per_step * concurrency:6.2f}  ({setup * 1000:.0f} ms)")
    print(f"    run teardown after the last tool call   {teardown * per_step * concurrency:6.2f}  "
          f"({teardown * 1000:.0f} ms)")
    order = ["start_task round trip", "  server: Episode() (worker thread)", "tool round trip",
             "  server: Episode.call (worker thread)", "  client: output-schema validation"]
    for part in sorted(spent, key=lambda name: order.index(name) if name in order else len(order)):
        print(f"    {part:<40} {spent[part] * per_step:6.2f}")
    print(f"    {'model wrappers (retry, cache)':<40} {wrappers * per_step:6.2f}")
    harness = wall * concurrency - model
    timed = setup * concurrency + teardown * concurrency + wrappers + spent.get("tool round trip", 0.0) + spent.get(
        "start_task round trip", 0.0)
    print(f"    {'the rest (loop, bookkeeping, wake-ups)':<40} {(harness - timed) * per_step:6.2f}")


if __name__ == "__main__":
    main()
