"""Fuzz the MCP server with at least 10,000 malformed and adversarial tool calls (the strategies and checks of
tests/test_fuzz_mcp.py, run longer) through the official in-memory client, on the default world.

Run: .venv/bin/python perf/fuzz_mcp.py [--calls 10000] [--seed 0]
Prints calls, replies by kind (valid results, tool errors, protocol errors), crashes (calls without a clear error or a
valid result, traceback or pydantic text reaching the client, trajectories that do not parse: must be 0), wall and CPU
time, and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from hypothesis import HealthCheck, Phase, given, seed, settings

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from test_fuzz_mcp import Outcome, call_sequences, check_trajectories, fuzz_server, run_sequences  # noqa: E402

from mcp_server.shopping.world_build import default_world  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000, help="stop once this many calls were made")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (the run is reproducible)")
    options = parser.parse_args()

    world = default_world()
    outcome = Outcome()
    with tempfile.TemporaryDirectory(prefix="shopbench-fuzz-") as tmp:
        runs = Path(tmp) / "runs"
        server, task_ids = fuzz_server(world, runs)
        load_before = os.getloadavg()
        wall, cpu = time.perf_counter(), time.process_time()

        # Generation only (no shrinking, no database): violations are collected and printed, not raised. Batches of
        # 100 sequences (seed, seed + 1, ...) until the call count is reached.
        def batch(batch_seed: int) -> None:
            @seed(batch_seed)
            @settings(max_examples=100, deadline=None, database=None, phases=[Phase.generate],
                      suppress_health_check=list(HealthCheck))
            @given(sequence=call_sequences(task_ids))
            def fuzz(sequence: list[tuple[str, dict[str, Any]]]) -> None:
                if outcome.calls < options.calls:
                    anyio.run(run_sequences, server, [sequence], outcome)

            fuzz()

        batch_seed = options.seed
        while outcome.calls < options.calls:
            batch(batch_seed)
            batch_seed += 1
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        trajectories = check_trajectories(runs, outcome)
    load_after = os.getloadavg()

    print(f"fuzz_mcp: {outcome.calls} calls in {wall:.1f} s wall ({cpu:.1f} s CPU, "
          f"{outcome.calls / wall:.0f} calls/s); {trajectories} trajectories parsed")
    for kind, count in sorted(outcome.kinds.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:6d}  {kind}")
    print(f"crashes: {outcome.crashes}")
    for violation in outcome.violations[:20]:
        print(f"  ! {violation}")
    print(f"machine: {os.cpu_count()} cores, load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    return 1 if outcome.crashes or outcome.calls < options.calls else 0


if __name__ == "__main__":
    raise SystemExit(main())
