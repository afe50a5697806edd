"""An installed agent's episode overhead over the built-in agent loop's, on the same tasks.

Run: .venv/bin/python perf/bench_agents.py [--limit N] [--agents claude-code,codex,qwen-code] [--repeat R]
The same tasks (N per intent of the default world) are played with `--model heuristic` by the built-in agent loop
and through each installed agent (one episode at a time, offline against the model bridge), R times each. An
episode's time is its trajectory's start to end for the built-in loop, and for an agent the whole agent process
(its start, MCP connection, turns and exit; the harness's own work around it shows in the run's wall time); the
overhead is the agent's time minus the built-in loop's on the same task. Prints medians and p90 per agent, each
agent's version, the machine load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from evaluators.harness.orchestrate import transcript_dir  # noqa: E402 - after the path set-up above
from evaluators.harness.run import RunConfig, run_benchmark  # noqa: E402
from evaluators.players.installed import ADAPTERS  # noqa: E402
from mcp_server.shopping.world_build import default_world  # noqa: E402
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory  # noqa: E402


async def play(out: Path, world: Path, limit: int, agent: str | None) -> tuple[dict[str, float], float]:
    """Seconds per task of one run, and the run's wall time."""
    config = RunConfig(benchmark="shoppingbench", model="heuristic", limit=limit, world=world, out=out, cache=False,
                       agent=agent)
    began = time.perf_counter()
    result = await run_benchmark(config)
    wall = time.perf_counter() - began
    if result.summary.failed:
        raise SystemExit(f"{agent or 'built-in'}: {len(result.summary.failed)} episodes failed: "
                         f"{next(iter(result.summary.causes))}")
    seconds = {}
    for path in iter_episode_files(out):
        trajectory = read_trajectory(path)
        if agent is None:
            assert trajectory.end is not None
            seconds[trajectory.start.task_id] = (trajectory.end.ended_at - trajectory.start.started_at).total_seconds()
        else:
            summary = json.loads((transcript_dir(out, path.stem) / "agent.json").read_text())
            seconds[trajectory.start.task_id] = summary["exit"]["duration_s"]
    return seconds, wall


def p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(limit: int, agents: list[str], repeat: int) -> None:
    world = default_world().root
    scratch = Path(tempfile.mkdtemp(prefix="bench-agents-"))
    await play(scratch / "warm-up", world, 1, None)  # the JVM, the indexes and the world opened once
    built_in: dict[str, list[float]] = {}
    for attempt in range(repeat):
        seconds, _ = await play(scratch / f"built-in-{attempt}", world, limit, None)
        for task, value in seconds.items():
            built_in.setdefault(task, []).append(value)
    base = {task: statistics.median(values) for task, values in built_in.items()}
    print(f"{len(base)} tasks ({limit} per intent) of the default world, --model heuristic, one episode at a time, "
          f"{repeat} run(s) each")
    print(f"built-in agent loop: episode median {statistics.median(base.values()) * 1000:.0f} ms")
    print(f"{'agent':<14}{'version':<12}{'episode p50':>12}{'p90':>9}{'overhead p50':>14}{'p90':>9}{'run wall':>10}")
    for agent in agents:
        times: list[float] = []
        overheads: list[float] = []
        walls: list[float] = []
        version = "?"
        for attempt in range(repeat):
            out = scratch / f"{agent}-{attempt}"
            seconds, wall = await play(out, world, limit, agent)
            version = read_manifest(out).agent.details["version"]
            walls.append(wall)
            for task, value in seconds.items():
                times.append(value)
                overheads.append(value - base[task])
        print(f"{agent:<14}{version:<12}{statistics.median(times):>11.2f}s{p(times, 0.9):>8.2f}s"
              f"{statistics.median(overheads):>13.2f}s{p(overheads, 0.9):>8.2f}s{statistics.median(walls):>9.1f}s")
    print(f"machine load (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}, cpus: {os.cpu_count()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=2, help="tasks per intent")
    parser.add_argument("--agents", default=",".join(ADAPTERS))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.limit, args.agents.split(","), args.repeat))
