"""Run throughput of `shopbench run --executor ray` (episodes/s) on 1 and 2 Ray nodes on this machine, beside the
local executor with as many episodes in flight.

Two workloads over the default world's ShoppingBench tasks:
- `heuristic`: the scripted shopper, no model wait — the sandbox's own work (Lucene search, MCP, trajectory writes),
  CPU-bound;
- `api`: a loopback OpenAI-compatible model (tests/_fake_llm.py) answering each call after --latency seconds
  (search, recommend, terminate: three calls an episode), the shape of a run against an API model.

Each Ray run is timed from the call to its end: joining the cluster, starting and opening the workers (a process, the
model, the world), the episodes and the teardown; "steady" is episodes/s between the first and the last episode
finished (what a long run approaches). Nodes are Ray's test cluster (ray.cluster_utils.Cluster): separate raylets
and worker pools on one machine, so 2 nodes here share the machine's cores; the figures say what Ray costs over the
local executor and that work spreads over nodes, not how a real second machine scales.

Run: .venv/bin/python perf/bench_ray.py [--per-intent 12] [--workers 2] [--latency 0.2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from evaluators.harness.orchestrate import WorkUnit  # noqa: E402
from evaluators.harness.run import RunConfig, run_benchmark  # noqa: E402
from mcp_server.shopping.world_build import default_world  # noqa: E402
from tests._fake_llm import FakeLLMServer, shopping_policy  # noqa: E402


class Finishes:
    """A progress sink that notes when each episode finished."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def begin(self, total: int, already_done: int) -> None: ...

    def advance(self, unit: WorkUnit[Any], ok: bool) -> None:
        self.times.append(time.perf_counter())

    def finish(self) -> None: ...


async def timed_run(model: str, per_intent: int, workers: int, address: str | None, out: Path) -> tuple[float, float]:
    """(episodes/s over the whole run, steady episodes/s between the first and the last finished episode)."""
    finishes = Finishes()
    began = time.perf_counter()
    ray = {"executor": "ray", "address": address} if address else {}
    result = await run_benchmark(RunConfig(benchmark="shoppingbench", model=model, limit=per_intent, out=out,
                                           concurrency=workers, cache=False, **ray), finishes)
    wall = time.perf_counter() - began
    done = result.summary.completed
    assert done == per_intent * 4 and not result.summary.failed, result.summary
    steady = (len(finishes.times) - 1) / (finishes.times[-1] - finishes.times[0])
    return done / wall, steady


def on_cluster(nodes: int, workers: int) -> tuple[Callable[[], None], str]:
    """A Ray test cluster of `nodes` nodes sharing `workers` CPUs; returns (shutdown, address)."""
    from ray.cluster_utils import Cluster

    per_node = [workers // nodes + (i < workers % nodes) for i in range(nodes)]
    began = time.perf_counter()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": per_node[0], "include_dashboard": False})
    for cpus in per_node[1:]:
        cluster.add_node(num_cpus=cpus)
    print(f"  ({nodes} node{'s' * (nodes > 1)} started in {time.perf_counter() - began:.1f} s)", flush=True)
    return cluster.shutdown, cluster.address


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-intent", type=int, default=12, help="tasks per intent (4 intents)")
    parser.add_argument("--workers", type=int, default=2, help="episodes in flight (Ray workers, local concurrency)")
    parser.add_argument("--latency", type=float, default=0.2, help="the api workload's seconds per model call")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    default_world()  # built once, outside the timings
    print(f"{args.per_intent * 4} episodes, {args.workers} in flight, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}; medians of {args.repeat}")
    rows: list[tuple[str, str, float, float]] = []
    with FakeLLMServer("openai", shopping_policy, delay=args.latency) as fake, \
            tempfile.TemporaryDirectory() as tmp:
        workloads = {"heuristic": "heuristic", "api": f"openai-compatible:{fake.base_url}#fake-api"}
        for executor, nodes in (("local", 0), ("ray", 1), ("ray", 2)):
            print(f"{executor}{f' on {nodes} node(s)' if nodes else ''}", flush=True)
            shutdown, address = on_cluster(nodes, args.workers) if nodes else (lambda: None, None)
            try:
                for name, model in workloads.items():
                    runs = [asyncio.run(timed_run(model, args.per_intent, args.workers, address,
                                                  Path(tmp) / f"{executor}{nodes}-{name}-{i}"))
                            for i in range(args.repeat)]
                    whole = statistics.median(r[0] for r in runs)
                    steady = statistics.median(r[1] for r in runs)
                    rows.append((f"{executor} ({nodes} node{'s' * (nodes > 1)})" if nodes else executor, name, whole,
                                 steady))
                    print(f"  {name:9s} {whole:6.2f} episodes/s whole run · {steady:6.2f} steady", flush=True)
            finally:
                shutdown()
    print(f"\n{'executor':16s} {'workload':10s} {'whole run':>10s} {'steady':>8s}   (episodes/s, median)")
    for executor, name, whole, steady in rows:
        print(f"{executor:16s} {name:10s} {whole:10.2f} {steady:8.2f}")


if __name__ == "__main__":
    main()
