"""A lazy index of a run directory: one summary per episode from its first and last lines only.

Replay must open a 900-episode run in well under two seconds, so the episode list never parses steps: the start
event is the first line of an episode file and the end event its last, read by seeking from the end. Steps are
parsed (`read_trajectory`) only when one episode is opened.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pydantic import ValidationError

from benchmarks.jsonl import DataFileError
from evaluators.results.run_names import player_text, run_name
from mcp_server.trajectory import (
    EndEvent,
    RunManifest,
    StartEvent,
    Trajectory,
    event_problem,
    iter_episode_files,
    read_manifest,
    read_trajectory,
)

_TAIL_CHUNK = 8192


def episode_key(run_dir: Path, episode_id: str) -> str:
    """Identifies an episode across loaded runs (two runs may reuse an episode id)."""
    return f"{run_dir}::{episode_id}"


@dataclass(frozen=True)
class EpisodeSummary:
    """What the episode list shows: who played which task, and how it ended."""

    run_dir: Path
    path: Path
    start: StartEvent
    end: EndEvent | None

    @property
    def episode_id(self) -> str:
        return self.start.episode_id

    @property
    def key(self) -> str:
        return episode_key(self.run_dir, self.start.episode_id)

    @property
    def task_id(self) -> str:
        return self.start.task_id

    @property
    def status(self) -> str:
        return self.end.status if self.end else "unfinished"

    @property
    def steps(self) -> int | None:
        return self.end.steps if self.end else None

    @property
    def player(self) -> str:
        return player_text(self.start.agent, ":")

    def load(self) -> Trajectory:
        """Parse the whole episode (steps included): done only when the episode is opened."""
        return read_trajectory(self.path)


@dataclass
class RunIndex:
    """One run directory: its manifest (when present) and the summaries of its episodes, in file order."""

    run_dir: Path
    manifest: RunManifest | None
    episodes: list[EpisodeSummary]
    problems: list[str]
    """Episode files that could not be summarised, each with the reason (shown, never fatal)."""

    @property
    def label(self) -> str:
        """A short name for tables and headers: the agent of the run, or the folder name."""
        if self.manifest is not None:
            return f"{run_name(self.manifest.agent)} ({self.run_dir.name})"
        return self.run_dir.name

    def by_task(self, task_id: str) -> list[EpisodeSummary]:
        return [episode for episode in self.episodes if episode.task_id == task_id]


def _last_line(handle: BinaryIO, size: int) -> bytes:
    """The last non-blank line of a file, reading backwards in chunks."""
    position, tail = size, b""
    while position > 0:
        step = min(_TAIL_CHUNK, position)
        position -= step
        handle.seek(position)
        tail = handle.read(step) + tail
        stripped = tail.rstrip(b"\r\n")
        cut = stripped.rfind(b"\n")
        if cut >= 0:
            return stripped[cut + 1 :]
    return tail.rstrip(b"\r\n")


def summarise_episode(run_dir: Path, path: Path) -> EpisodeSummary:
    """Read only the start and end events of one episode file (raises DataFileError naming the file and line)."""
    if path.is_dir():
        raise DataFileError(path, 1, "is a directory, not an episode file")
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            first = handle.readline()
            last = _last_line(handle, size)
    except OSError as error:
        raise DataFileError(path, 1, f"cannot be read ({error.strerror or error})") from None
    try:
        start = StartEvent.model_validate_json(first.decode("utf-8"))
    except (UnicodeDecodeError, ValidationError) as error:
        raise DataFileError(path, 1, f"not a start event: {event_problem(error)}") from None
    end = None
    if last and last != first.rstrip(b"\r\n") and b'"event":"end"' in last.replace(b" ", b""):
        try:
            end = EndEvent.model_validate_json(last)
        except ValidationError:
            end = None  # a torn last line: the episode did not finish cleanly
    return EpisodeSummary(run_dir=Path(run_dir), path=path, start=start, end=end)


def load_run(run_dir: Path | str) -> RunIndex:
    """Index a run directory lazily. A missing manifest is allowed (a run still being written); a bad one is
    DataFileError. Episode files that cannot be summarised are listed in `problems`, one line each."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FileNotFoundError(f"{run_dir}: no such run directory")
    try:
        manifest = read_manifest(run_dir)
    except FileNotFoundError:
        manifest = None
    episodes, problems = [], []
    for path in iter_episode_files(run_dir):
        try:
            episodes.append(summarise_episode(run_dir, path))
        except DataFileError as error:
            problems.append(str(error))
    return RunIndex(run_dir=run_dir, manifest=manifest, episodes=episodes, problems=problems)
