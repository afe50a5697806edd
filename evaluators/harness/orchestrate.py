"""Run a list of episodes with bounded concurrency, resumable after a crash, for any benchmark.

The unit of work is one episode (a task × epoch for ShoppingBench, an item × sample for the question benchmarks).
An *episode function* plays one unit and leaves a finished file at `episode_path(run_dir, unit.episode_id)`
(start … end events, mcp_server.trajectory). This module decides which units still need playing:

- finished (has an `end` event)  → skipped on resume;
- unfinished (no `end`, i.e. killed mid-episode), or ended "error"/"abandoned" (the harness or the model backend
  failed, or the session broke) → the partial file is moved aside to `episodes.partial/` and the unit is played
  again, so nothing is lost and nothing is counted twice;
- missing → played.

An episode that fails is logged in one line (episode id, cause) at WARNING and with its traceback at DEBUG (the run's
log file); identical causes are counted in `RunSummary.causes`. When the first episodes all fail for the same cause
before any succeeds, the run stops early with that cause (`RunSummary.stopped_early`): it would only repeat it.

A run folder that cannot be written (a full disk, a quota, a read-only mount) stops the run: after any failed
episode the folder is tried with a small write, and when that fails no worker starts another episode and
`RunFolderUnwritable` is raised once the episodes in flight are over. Nothing is lost: the episode files hold whole
events only (mcp_server.trajectory.TrajectoryWriter), and `--resume` plays the unfinished ones again.

With `session=`, each worker opens one session (e.g. an MCP client connection) and plays its episodes on it one
after another; after a failure it closes that session (the server abandons the episode) and opens a fresh one.
evaluators.harness.run uses it; there the server's Episode writes every trajectory. The session is where episodes
are played (the executor): an MCP session to a server in this process, or a Ray worker on a cluster node
(evaluators.harness.ray_executor). An episode whose worker died under it (`WorkerLost`: nothing of it reached the run
folder) goes back to the queue and is played again on a fresh session, at most `LOST_LIMIT` times.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar

from benchmarks.errors import Refusal
from mcp_server.trajectory import EPISODES_DIR, episode_path, read_trajectory, write_failure_reason

log = logging.getLogger("shopbench.runs")

PARTIAL_DIR = "episodes.partial"
"""Where unfinished episode files are moved before their unit is replayed (kept for inspection, never scored)."""


TRANSCRIPT_SUFFIX = ".agent"
"""An installed agent's transcript folder sits beside its episode's file: `episodes/<episode_id>.agent/`."""

RETRY_STATUSES = ("error", "abandoned")
"""End statuses that mean the run, not the agent, failed; resume plays those episodes again."""

STOP_AFTER = 3
"""Stop a run when this many episodes failed with one cause before any succeeded."""

WRITE_CHECK_BYTES = 4096
"""What the write check after a failed episode writes: one block, which a full disk or a quota refuses."""

LOST_LIMIT = 3
"""A unit whose worker died under it this many times counts as failed: its episode may be what kills workers."""


P = TypeVar("P")
"""What a unit carries for its episode function (evaluators.harness.run: the task's TaskListing)."""


@dataclass(frozen=True)
class WorkUnit(Generic[P]):
    episode_id: str
    """Deterministic (e.g. "<task_id>-e<epoch>") so a resumed run finds the file of an earlier attempt."""
    item_id: str
    epoch: int = 0
    payload: P | None = None
    """Whatever the episode function needs (a TaskListing, a QA item), None when it needs nothing but the ids; not
    written anywhere by this module."""


EpisodeFn = Callable[..., Awaitable[None]]
"""episode_fn(unit), or episode_fn(unit, session) when run_episodes opens sessions."""
SessionFactory = Callable[[], AbstractAsyncContextManager[Any]]
EpisodeState = Literal["missing", "unfinished", "finished"]


class ProgressSink(Protocol):
    def begin(self, total: int, already_done: int) -> None: ...
    def advance(self, unit: WorkUnit[Any], ok: bool) -> None: ...
    def finish(self) -> None: ...


@dataclass
class RunSummary:
    total: int
    skipped: int = 0
    """Finished in an earlier attempt (resume)."""
    completed: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    """episode_id → cause (one line), for episodes whose function raised (they stay resumable)."""
    causes: Counter[str] = field(default_factory=Counter)
    """Cause → how many episodes failed with it (task and episode ids taken out, so identical causes group)."""
    stopped_early: str | None = None
    """The cause that stopped the run before its end (every episode so far failed with it)."""
    replayed: int = 0
    """Episodes played again in this run because their worker died under them (WorkerLost)."""


def failure_cause(error: BaseException) -> str:
    """One line for a failed episode: the innermost exception's type and first line (task groups unwrapped)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}".strip().rstrip(":")[:500]


class EpisodeNotRecorded(RuntimeError):
    """The server ended an episode as an error (it could not write its trajectory): the episode failed."""


class WorkerLost(RuntimeError):
    """The process or machine playing an episode died under it (a Ray worker or node): nothing of the episode reached
    the run folder, so its unit is played again rather than counted as failed."""


class RunDirError(Refusal, RuntimeError):
    """The run directory already holds episodes and resume was not asked for (or the run differs)."""


class RunFolderUnwritable(RuntimeError):
    """The run folder cannot be written (a full disk, a quota, a read-only mount): the run stops, and `--resume`
    continues it once the folder takes writes again."""

    def __init__(self, run_dir: Path, reason: str) -> None:
        self.run_dir, self.reason = Path(run_dir), reason
        super().__init__(f"cannot write to {run_dir} ({reason})")

    @classmethod
    def from_os_error(cls, run_dir: Path, error: OSError) -> RunFolderUnwritable:
        return cls(run_dir, write_failure_reason(error))


def check_writable(run_dir: Path) -> None:
    """Raise RunFolderUnwritable when a small new file cannot be written and synced in the run's episodes folder,
    as the next episode's file would need (the check's file is removed either way)."""
    folder = Path(run_dir) / EPISODES_DIR
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".write-check.", dir=folder)
        try:
            data = memoryview(bytes(WRITE_CHECK_BYTES))
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(name)
    except OSError as error:
        raise RunFolderUnwritable.from_os_error(run_dir, error) from None


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


def transcript_dir(run_dir: Path, episode_id: str) -> Path:
    """Where an installed agent's transcript of the episode is kept (TRANSCRIPT_SUFFIX)."""
    return episode_path(run_dir, episode_id).with_suffix(TRANSCRIPT_SUFFIX)


def set_aside(run_dir: Path, episode_id: str) -> Path:
    """Move a partial episode file, and its agent's transcript if any, out of `episodes/` so the replay starts clean;
    returns where the file went."""
    source = episode_path(run_dir, episode_id)
    target_dir = Path(run_dir) / PARTIAL_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    attempt = 1
    while (target := target_dir / f"{episode_id}.attempt{attempt}.jsonl").exists():
        attempt += 1
    shutil.move(source, target)
    if (transcript := transcript_dir(run_dir, episode_id)).exists():
        shutil.move(transcript, target.with_suffix(TRANSCRIPT_SUFFIX))
    return target


def pending_units(run_dir: Path, units: Sequence[WorkUnit[P]], resume: bool) -> tuple[list[WorkUnit[P]], int]:
    """The units still to play, and how many are already finished. Without resume, any existing file is an error."""
    ids = [unit.episode_id for unit in units]
    if len(set(ids)) != len(ids):
        raise ValueError("episode ids must be unique within a run")
    pending: list[WorkUnit[P]] = []
    done = 0
    for unit in units:
        state = episode_state(run_dir, unit.episode_id)
        if state != "missing" and not resume:
            raise RunDirError(f"{run_dir} already holds episode {unit.episode_id}; pass --resume or a new --out")
        if state == "finished":
            done += 1
            continue
        if state == "unfinished":
            try:
                moved = set_aside(run_dir, unit.episode_id)
            except OSError as error:
                raise RunFolderUnwritable.from_os_error(run_dir, error) from None
            log.info("replaying unfinished episode %s (partial file moved to %s)", unit.episode_id, moved)
        pending.append(unit)
    return pending, done


async def run_episodes(
    run_dir: Path,
    units: Sequence[WorkUnit[P]],
    episode_fn: EpisodeFn,
    *,
    concurrency: int = 1,
    resume: bool = False,
    progress: ProgressSink | None = None,
    session: SessionFactory | None = None,
    stop_after: int | None = STOP_AFTER,
) -> RunSummary:
    """Play every unit not yet finished, `concurrency` at a time. An episode function that raises marks its unit
    failed (logged, left resumable) without stopping the others — unless the first `stop_after` failures share one
    cause before anything succeeded, or the run folder cannot be written (RunFolderUnwritable, raised once the
    episodes in flight are over); cancellation (Ctrl-C) stops everything: the episodes in flight are not counted
    as failed, their sessions are closed, and no worker starts another."""
    run_dir = Path(run_dir)
    pending, done = pending_units(run_dir, units, resume)
    summary = RunSummary(total=len(units), skipped=done)
    if progress:
        progress.begin(len(units), done)
    queue: asyncio.Queue[WorkUnit[P]] = asyncio.Queue()
    for unit in pending:
        queue.put_nowait(unit)
    unwritable: list[RunFolderUnwritable] = []
    lost: Counter[str] = Counter()

    def failed(unit: WorkUnit[P], error: Exception) -> None:
        try:
            check_writable(run_dir)
        except RunFolderUnwritable as stop:  # the folder, not the episode: one line for the whole run, not per episode
            log.debug("episode %s failed with the run folder unwritable", unit.episode_id, exc_info=error)
            unwritable.append(stop)
            return
        cause = failure_cause(error)
        summary.failed[unit.episode_id] = cause
        summary.causes[_grouped(cause, unit)] += 1
        log.warning("episode %s failed: %s", unit.episode_id, cause)
        log.debug("episode %s failed", unit.episode_id, exc_info=error)
        if (stop_after and not summary.completed and sum(summary.causes.values()) >= stop_after
                and len(summary.causes) == 1):
            summary.stopped_early = next(iter(summary.causes))

    async def worker() -> None:
        async with AsyncExitStack() as outer:
            stack: AsyncExitStack | None = None
            handle: Any = None
            while summary.stopped_early is None and not unwritable:
                if _cancelling():
                    raise asyncio.CancelledError
                try:
                    unit = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                ok = True
                try:
                    if session is None:
                        await episode_fn(unit)
                    else:
                        if stack is None:
                            stack = await outer.enter_async_context(AsyncExitStack())
                            handle = await stack.enter_async_context(session())
                        await episode_fn(unit, handle)
                    summary.completed += 1
                except Exception as error:  # one bad episode must not sink the run; it stays resumable
                    if _cancelling():  # the run is being stopped (Ctrl-C): a session torn down under it is no fault
                        raise asyncio.CancelledError from error
                    replay = isinstance(error, WorkerLost) and lost[unit.episode_id] + 1 < LOST_LIMIT
                    if replay:
                        lost[unit.episode_id] += 1
                        summary.replayed += 1
                        log.warning("episode %s is played again: %s", unit.episode_id, failure_cause(error))
                        queue.put_nowait(unit)  # this worker loops on, so the unit is never left in the queue
                    else:
                        ok = False
                        failed(unit, error)
                    if stack is not None:  # a fresh session for the next episode (this one may be broken)
                        await _close_quietly(stack)
                        stack = None
                    if replay:
                        continue
                if progress:
                    progress.advance(unit, ok)

    try:
        await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(pending) or 1)))))
    finally:
        if progress:
            progress.finish()
    if unwritable:
        raise unwritable[0]
    return summary


def _cancelling() -> bool:
    """Whether the current task has been asked to stop (its episode's error may be the cancellation's echo)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _grouped(cause: str, unit: WorkUnit[Any]) -> str:
    """The cause with this unit's ids taken out, so the same fault on different tasks counts as one cause."""
    for name in sorted({unit.episode_id, unit.item_id}, key=len, reverse=True):
        cause = cause.replace(name, "…")
    return cause


async def _close_quietly(stack: AsyncExitStack) -> None:
    try:
        await stack.aclose()
    except Exception:  # the session was already broken; its episode is abandoned either way
        log.debug("closing a failed session raised", exc_info=True)
