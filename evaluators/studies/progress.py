"""A participant's progress: one append-only log per participant (`STUDY/participants/<id>.jsonl`), one line per
thing that happened, written under a file lock once the answer is recorded. Where a participant stands is read back
from it, so quitting, a closed tab or a crash resumes at the first task without a `task` line, and a task with one
is never asked or counted again (an attempt cut off before its line is replayed, its episode left as abandoned)."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from benchmarks.jsonl import DataFileError
from evaluators.studies.manifest import Study
from mcp_server.trajectory import now

EventName = Literal["consented", "declined", "qualification", "qualified", "practice", "task", "completed"]


class StudyEvent(BaseModel):
    event: EventName
    task_id: str | None = None
    episode_id: str | None = None
    benchmark: str | None = None
    answer: str | None = None
    """The submitted answer (a question) or label (annotation); None for an episode ended another way."""
    correct: bool | None = None
    """Qualification items and attention checks only: the answer matched the gold."""
    attention: bool = False
    active_s: float | None = None
    """Seconds from the task's screen to its recorded answer (the attempt that counted)."""
    over_time: bool = False
    score: float | None = None
    passed: bool | None = None
    code: str | None = None
    at: datetime = Field(default_factory=now)


@dataclass
class Progress:
    """Where a participant stands, read from the log."""

    events: list[StudyEvent] = field(default_factory=list)

    def _named(self, name: EventName) -> list[StudyEvent]:
        return [e for e in self.events if e.event == name]

    @property
    def consented(self) -> bool:
        return bool(self._named("consented"))

    @property
    def declined(self) -> bool:
        return bool(self._named("declined"))

    @property
    def qualification_answers(self) -> dict[str, StudyEvent]:
        return {e.task_id or "": e for e in self._named("qualification")}

    @property
    def qualified(self) -> StudyEvent | None:
        found = self._named("qualified")
        return found[0] if found else None

    @property
    def practised(self) -> bool:
        return bool(self._named("practice"))

    @property
    def done(self) -> dict[str, StudyEvent]:
        """task id → its one counted line."""
        return {e.task_id or "": e for e in self._named("task")}

    @property
    def completed(self) -> StudyEvent | None:
        found = self._named("completed")
        return found[0] if found else None


def read_progress(study: Study, participant_id: str) -> Progress:
    """The log read back; a torn last line (a crash mid-write) is left out, as trajectory files' are (the next
    record cuts it off); any other bad line is a DataFileError."""
    path = study.log_path(participant_id)
    if not path.exists():
        return Progress()
    lines = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    events = []
    for number, line in enumerate(lines, start=1):
        try:
            events.append(StudyEvent.model_validate_json(line))
        except ValidationError as error:
            if number < len(lines):
                raise DataFileError(path, number, f"not a study event ({error.errors()[0]['msg']})") from None
    return Progress(events)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


PER_TASK: tuple[EventName, ...] = ("task", "qualification")
"""Events a log holds once per task; every other event it holds once."""


def record(study: Study, participant_id: str, event: StudyEvent) -> bool:
    """Append `event` unless the log already holds its like (the same task's line, a second qualification result
    or completion): False then, and nothing is written. The check and the write happen under the log's lock, and the
    line goes out in one small append, so two windows of one participant cannot count a task twice."""
    path = study.log_path(participant_id)
    with _locked(path):
        for seen in read_progress(study, participant_id).events:
            if seen.event == event.event and (event.event not in PER_TASK or seen.task_id == event.task_id):
                return False
        _cut_torn_tail(path)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(event.model_dump_json(exclude_defaults=True) + "\n")
    return True


def _cut_torn_tail(path: Path) -> None:
    """Shorten the log to its last whole line (what a crash mid-write left after it is no event)."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)
