"""Replay responsiveness: time to load a 900-episode run and to open a 30-step episode (issue 5 targets).

Targets: the 900-episode list ready ≤ 2 s; a 30-step episode open (steps parsed, list and first step shown) ≤ 300 ms.
Runs headless through Textual's pilot on synthetic runs written with the trajectory models; scoring is off (it runs
in a worker and does not block either figure).

    .venv/bin/python perf/bench_tui.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shopbench_tui.replay import ReplayApp  # noqa: E402
from shopbench_tui.replay.screens import EpisodeScreen  # noqa: E402
from shopbench_tui.runindex import load_run  # noqa: E402
from shopbench_tui.testing import write_synthetic_run  # noqa: E402
from shopbench_tui.widgets import EpisodeTable, StepDetail, StepList  # noqa: E402

EPISODES, STEPS, REPEATS = 900, 30, 9


async def _until(pilot, condition, limit: float = 30.0) -> None:
    deadline = time.perf_counter() + limit
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the app did not get there in time")
        await pilot.pause(0.001)


async def measure(run_dir: Path) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """(wall, CPU) seconds for the list to be ready, and for each episode opened."""
    started, cpu_started = time.perf_counter(), time.process_time()
    app = ReplayApp([run_dir], score=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await _until(pilot, lambda: app.screen.query(EpisodeTable) and app.screen.query_one(EpisodeTable).row_count
                     == EPISODES)
        load = (time.perf_counter() - started, time.process_time() - cpu_started)
        opens = []
        for number in range(REPEATS):
            episode = app.loaded.episodes[number * 97]
            begin, cpu_begin = time.perf_counter(), time.process_time()
            app.open_episode(episode)

            def shown() -> bool:
                screen = app.screen
                if not isinstance(screen, EpisodeScreen):
                    return False
                steps = screen.query(StepList)
                detail = screen.query(StepDetail)
                return bool(steps) and steps.first().row_count == STEPS and bool(detail) and \
                    "step 1 " in str(detail.first().query_one(".step-head").render())

            await _until(pilot, shown)
            opens.append((time.perf_counter() - begin, time.process_time() - cpu_begin))
            app.pop_screen()
            await pilot.pause()
    return load, opens


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = write_synthetic_run(Path(tmp) / "run900", EPISODES, STEPS)
        index_started = time.perf_counter()
        index = load_run(run_dir)
        index_time = time.perf_counter() - index_started
        assert len(index.episodes) == EPISODES
        load, opens = asyncio.run(measure(run_dir))
    wall, cpu = (statistics.median(column) * 1000 for column in zip(*opens, strict=True))
    print(f"machine load (1-min average): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(CPU time below is this process's own)")
    print(f"run index of {EPISODES} episodes (first/last lines only): {index_time * 1000:.0f} ms")
    print(f"replay: {EPISODES}-episode run loaded and listed: {load[0] * 1000:.0f} ms wall, "
          f"{load[1] * 1000:.0f} ms CPU (target <= 2000 ms)")
    print(f"replay: open a {STEPS}-step episode: median {wall:.0f} ms wall, {cpu:.0f} ms CPU, worst "
          f"{max(o[0] for o in opens) * 1000:.0f} ms wall over {REPEATS} episodes (target <= 300 ms)")

if __name__ == "__main__":
    main()
