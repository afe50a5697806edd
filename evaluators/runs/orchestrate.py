"""Run a list of episodes with bounded concurrency, resumable after a crash, for any benchmark.

The unit of work is one episode (a task × epoch for ShoppingBench, an item × sample for the question benchmarks).
An *episode function* plays one unit and leaves a finished file at `episode_path(run_dir, unit.episode_id)`
(start … end events, mcp_server.trajectory). This module decides which units still need playing:

- finished (has an `end` event)  → skipped on resume;
- unfinished (no `end`, i.e. killed mid-episode), or ended "error"/"abandoned" (the harness or the model backend
  failed, or the session broke) → the partial file is moved aside to `episodes.partial/` and the unit is played
  again, so nothing is lost and nothing is counted twice;
- missing → played.

Usage (a question benchmark, one model call per item)::

    units = [WorkUnit(episode_id=f"{item.id}-e0", item_id=item.id, payload=item) for item in items]

    async def play(unit: WorkUnit) -> None:
        writer = TrajectoryWriter(episode_path(run_dir, unit.episode_id))
        writer.write(StartEvent(...)); output = await model.generate(...); writer.write(EndEvent(...))

    summary = await run_episodes(run_dir, units, play, concurrency=8, resume=True, progress=RichProgress("mmlu"))
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from mcp_server.trajectory import episode_path, read_trajectory

log = logging.getLogger("shopbench.runs")

PARTIAL_DIR = "episodes.partial"
"""Where unfinished episode files are moved before their unit is replayed (kept for inspection, never scored)."""


RETRY_STATUSES = ("error", "abandoned")
"""End statuses that mean the run, not the agent, failed; resume plays those episodes again."""


@dataclass(frozen=True)
class WorkUnit:
    episode_id: str
    """Deterministic (e.g. "<task_id>-e<epoch>") so a resumed run finds the file of an earlier attempt."""
    item_id: str
    epoch: int = 0
    payload: Any = None
    """Whatever the episode function needs (a ShoppingTask, a QA item); not written anywhere by this module."""


EpisodeFn = Callable[[WorkUnit], Awaitable[None]]
EpisodeState = Literal["missing", "unfinished", "finished"]


class ProgressSink(Protocol):
    def begin(self, total: int, already_done: int) -> None: ...
    def advance(self, unit: WorkUnit, ok: bool) -> None: ...
    def finish(self) -> None: ...


@dataclass
class RunSummary:
    total: int
    skipped: int = 0
    """Finished in an earlier attempt (resume)."""
    completed: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    """episode_id → error message, for episodes whose function raised (they stay resumable)."""


class RunDirError(RuntimeError):
    """The run directory already holds episodes and resume was not asked for (or the run differs)."""


def episode_state(run_dir: Path, episode_id: str) -> EpisodeState:
    path = episode_path(run_dir, episode_id)
    if not path.exists():
        return "missing"
    try:
        trajectory = read_trajectory(path)
    except ValueError:
        return "unfinished"
    if trajectory.end is None or trajectory.end.status in RETRY_STATUSES:
        return "unfinished"
    return "finished"


def set_aside(run_dir: Path, episode_id: str) -> Path:
    """Move a partial episode file out of `episodes/` so the replay starts clean; returns where it went."""
    source = episode_path(run_dir, episode_id)
    target_dir = Path(run_dir) / PARTIAL_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    attempt = 1
    while (target := target_dir / f"{episode_id}.attempt{attempt}.jsonl").exists():
        attempt += 1
    shutil.move(source, target)
    return target


def pending_units(run_dir: Path, units: Sequence[WorkUnit], resume: bool) -> tuple[list[WorkUnit], int]:
    """The units still to play, and how many are already finished. Without resume, any existing file is an error."""
    ids = [unit.episode_id for unit in units]
    if len(set(ids)) != len(ids):
        raise ValueError("episode ids must be unique within a run")
    pending: list[WorkUnit] = []
    done = 0
    for unit in units:
        state = episode_state(run_dir, unit.episode_id)
        if state != "missing" and not resume:
            raise RunDirError(f"{run_dir} already holds episode {unit.episode_id}; pass --resume or a new --out")
        if state == "finished":
            done += 1
            continue
        if state == "unfinished":
            moved = set_aside(run_dir, unit.episode_id)
            log.info("replaying unfinished episode %s (partial file moved to %s)", unit.episode_id, moved)
        pending.append(unit)
    return pending, done


async def run_episodes(
    run_dir: Path,
    units: Sequence[WorkUnit],
    episode_fn: EpisodeFn,
    *,
    concurrency: int = 1,
    resume: bool = False,
    progress: ProgressSink | None = None,
) -> RunSummary:
    """Play every unit not yet finished, `concurrency` at a time. An episode function that raises marks its unit
    failed (logged, left resumable) without stopping the others; cancellation (Ctrl-C) stops everything."""
    run_dir = Path(run_dir)
    pending, done = pending_units(run_dir, units, resume)
    summary = RunSummary(total=len(units), skipped=done)
    if progress:
        progress.begin(len(units), done)
    queue: asyncio.Queue[WorkUnit] = asyncio.Queue()
    for unit in pending:
        queue.put_nowait(unit)

    async def worker() -> None:
        while True:
            try:
                unit = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            ok = True
            try:
                await episode_fn(unit)
                summary.completed += 1
            except Exception as error:  # one bad episode must not sink the run; it stays resumable
                ok = False
                summary.failed[unit.episode_id] = f"{type(error).__name__}: {error}"
                log.exception("episode %s failed", unit.episode_id)
            if progress:
                progress.advance(unit, ok)

    try:
        await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(pending) or 1)))))
    finally:
        if progress:
            progress.finish()
    return summary
