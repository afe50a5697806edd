"""The one trajectory format: what every episode leaves behind, whoever played it.

A run directory holds `manifest.json` (RunManifest) and `episodes/<episode_id>.jsonl`. Each episode file is a
stream of events appended as they happen: one `start`, then one `step` per tool call, then one `end` when the
episode finishes. A file without `end` is an unfinished episode (a crash or a kill), which resume reruns.

Model runs, outside MCP clients served by `shopbench serve`, and humans in the TUI all write this format, so the
scorers, reports and replay treat them alike. `shopbench schema` exports it as JSON Schema.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, WithJsonSchema

from benchmarks.jsonl import DataFileError, read_json_model, write_text_atomic
from mcp_server.protocol_constants import AgentKind

SCHEMA_VERSION = 1
MANIFEST_FILE = "manifest.json"
MANIFEST_LOCK_FILE = "manifest.lock"
EPISODES_DIR = "episodes"
_THREAD_LOCK = threading.Lock()


def now() -> datetime:
    return datetime.now(UTC)


AgentKindValue = Annotated[AgentKind, WithJsonSchema({"enum": [kind.value for kind in AgentKind], "type": "string"})]
"""AgentKind as a pydantic field: its JSON Schema is the plain string enum, inline, as clients have always seen it in
start_task's arguments and the trajectory schema (not a reference to a definition; such a field gets no title of its
own, so the fields using it name theirs)."""


class AgentInfo(BaseModel):
    """Who played the episode."""

    kind: Annotated[AgentKindValue, Field(title="Kind")]
    name: str
    """Model spec (e.g. "llama-cpp:smollm2"), player name, or MCP client name."""
    details: dict[str, Any] = Field(default_factory=dict)
    """Free-form identity: model file hash, client version, ..."""


class StartEvent(BaseModel):
    event: Literal["start"] = "start"
    version: int = SCHEMA_VERSION
    episode_id: str
    benchmark: str
    """"shoppingbench", "shopping-mmlu", "intentionqa", "session-intent"."""
    task_set: str
    task_id: str
    intent: str | None = None
    """ShoppingBench intent, or the QA task name."""
    epoch: int = 0
    world: str | None = None
    """World name and content hash (ShoppingBench only)."""
    instruction: str
    """Exactly what the agent was told."""
    agent: AgentInfo
    max_steps: int
    started_at: datetime = Field(default_factory=now)


class Usage(BaseModel):
    """What one model call cost, when the agent reports it."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_s: float | None = None
    cost_usd: float | None = None


class MalformedTurn(BaseModel):
    """A model turn the harness could not turn into a tool call, recorded as it was."""

    raw: str
    """The model's raw reply (cut to a few thousand characters)."""
    error: str
    """What was wrong with it (no call, bad JSON, unknown tool, ...)."""


class UserTurn(BaseModel):
    """The user's side of an `ask_user` step in a conversational episode: who answered and what the answer did
    (recorded with the step, never shown to the agent; the agent reads only the answer text, the observation)."""

    user: str
    """Who answered: "rules" (the deterministic simulator), "model:<spec>" (a model playing the user), "person"."""
    disclosed: list[str] = Field(default_factory=list)
    """The keys of the profile's constraints the answer disclosed."""
    asked_about: list[str] = Field(default_factory=list)
    """The keys of the constraints the question was mapped to."""
    understood: bool = True
    """False when the user could not map the question to anything it decides (counted as unanswered)."""
    simulator_error: str | None = None
    """Set when a simulated user's answer broke the profile (contradicted it, or revealed what was not asked): such
    episodes are reported apart, not scored with the others."""


class StepEvent(BaseModel):
    event: Literal["step"] = "step"
    index: int
    """0-based step number."""
    tool: str
    """The tool called; for a malformed turn, the tool name the model attempted ("" when it named none)."""
    arguments: dict[str, Any] = Field(default_factory=dict)
    observation: Any = None
    """What the tool returned (JSON), or the error text when `is_error`."""
    is_error: bool = False
    thought: str | None = None
    """The agent's reasoning before this call, when it supplies it."""
    usage: Usage | None = None
    malformed: MalformedTurn | None = None
    """Set when the step is a malformed model turn: `observation` is then the feedback the model was shown."""
    user: UserTurn | None = Field(default=None, exclude_if=lambda value: value is None)
    """Set on an `ask_user` step: the user's side of it. Left out of the file when None, so trajectories without a
    conversation read byte for byte as before."""
    started_at: datetime = Field(default_factory=now)
    ended_at: datetime = Field(default_factory=now)


EndStatus = Literal["terminated", "step_limit", "submitted", "abandoned", "error", "timeout", "agent_exited"]


class EndEvent(BaseModel):
    event: Literal["end"] = "end"
    status: EndStatus
    """terminated: the agent called terminate; submitted: a QA answer was given; step_limit: out of steps;
    abandoned: the client went away; error: the harness failed (the message says why); timeout: an installed
    agent ran out of its wall-clock time (`run --agent … --timeout`); agent_exited: an installed agent's process
    ended without ending the episode."""
    terminate_status: str | None = None
    """The status argument of `terminate` (success / failure)."""
    recommended: str | None = None
    """The product_ids string of the LAST recommend_product call, exactly as passed (ShoppingBench)."""
    answer: str | None = None
    """The raw submitted answer (question benchmarks)."""
    message: str | None = None
    steps: int = 0
    ended_at: datetime = Field(default_factory=now)


TrajectoryEvent = Annotated[StartEvent | StepEvent | EndEvent, Field(discriminator="event")]
_EVENT = TypeAdapter(TrajectoryEvent)


class Trajectory(BaseModel):
    """One episode read back from its file."""

    start: StartEvent
    steps: list[StepEvent] = Field(default_factory=list)
    end: EndEvent | None = None

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def episode_id(self) -> str:
        return self.start.episode_id


class RunManifest(BaseModel):
    """Everything needed to reproduce a run, written once when it starts and updated as it goes."""

    version: int = SCHEMA_VERSION
    run_id: str
    benchmark: str
    task_set: str | None = None
    created_at: datetime = Field(default_factory=now)
    agent: AgentInfo
    parameters: dict[str, Any] = Field(default_factory=dict)
    """Temperature, seed, max steps, prompting protocol, epochs, ..."""
    prompts: dict[str, str] = Field(default_factory=dict)
    """Prompt name → sha256 of its text."""
    world: dict[str, Any] | None = None
    packages: dict[str, str] = Field(default_factory=dict)
    git_revision: str | None = None
    notes: dict[str, Any] = Field(default_factory=dict)


def prompt_hashes(prompts: Mapping[str, str]) -> dict[str, str]:
    """Prompt name → sha256 of its text, as a manifest records them."""
    return {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in prompts.items()}


def write_failure_reason(error: OSError) -> str:
    """Why a write failed, in words (`No space left on device`), for the episode's end reason and the run's stop."""
    return error.strerror or str(error) or type(error).__name__


class TrajectoryWriter:
    """Appends events to one episode file, so that the file always holds whole events and only events that were
    written: each write is the encoded lines in os.write calls on an unbuffered descriptor, and a write that fails
    (a full disk, a quota, an I/O error) is cut back to the last whole event before the OSError is raised. (A
    buffered file kept the failed bytes and wrote them with the next event: a step the agent had been told failed,
    its index then twice in the file.) No fsync per event: it cost ~5 ms a step and guards only against the whole
    machine going down.

    The file stays open from the first write to `close` (an episode's end): opening and closing it for every event
    cost ~0.2 ms each on a machine that has been idle for the model's reply. `exclusive` creates the file and
    raises FileExistsError when it exists, so a writer can claim its file (mcp_server.episodes)."""

    def __init__(self, path: Path, *, exclusive: bool = False) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = None
        self._size = 0
        """Bytes of whole events in the file: where a failed write is cut back to."""
        self._torn: OSError | None = None
        """Set when a failed write could not be cut back: nothing more is appended after its torn bytes."""
        if exclusive:
            self._open(os.O_EXCL)

    def _open(self, flags: int) -> int:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | flags, 0o666)
        self._size = os.fstat(self._fd).st_size
        return self._fd

    def write(self, event: StartEvent | StepEvent | EndEvent) -> None:
        self.write_all([event])

    def write_all(self, events: list[StartEvent | StepEvent | EndEvent]) -> None:
        """Append several events in one write; on OSError none of them is in the file, now or later."""
        if self._torn is not None:
            raise OSError(self._torn.errno, f"{self._torn.strerror} (an earlier write was left torn)", str(self.path))
        fd = self._fd if self._fd is not None else self._open(0)
        data = memoryview("".join(event.model_dump_json() + "\n" for event in events).encode("utf-8"))
        written = 0
        try:
            while written < len(data):  # a short write (the disk filling up mid-line) is followed by the rest
                written += os.write(fd, data[written:])
        except OSError as error:
            self._cut_back(fd, error)
            raise
        self._size += written

    def _cut_back(self, fd: int, error: OSError) -> None:
        """Remove what a failed write left of its lines (shrinking a file needs no free space)."""
        try:
            os.ftruncate(fd, self._size)
        except OSError:
            self._torn = error

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> TrajectoryWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def episode_path(run_dir: Path, episode_id: str) -> Path:
    return Path(run_dir) / EPISODES_DIR / f"{episode_id}.jsonl"


def read_trajectory(path: Path) -> Trajectory:
    """Read an episode file. A torn last line (a crash mid-write, even mid-character) is ignored; any other bad line,
    a file that cannot be read and a file without a start event are DataFileError naming the file (and line). A
    missing file is FileNotFoundError."""
    path = Path(path)
    if path.is_dir():
        raise DataFileError(path, 1, "is a directory, not an episode file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such episode file") from None
    except OSError as error:
        raise DataFileError(path, 1, f"cannot be read ({error.strerror or error})") from None
    start: StartEvent | None = None
    steps: list[StepEvent] = []
    end: EndEvent | None = None
    # Split on "\n" only: str.splitlines() also breaks at U+2028, U+2029 and U+0085, which JSON leaves unescaped.
    lines = [(number, line) for number, line in enumerate(data.split(b"\n"), start=1) if line.strip()]
    for position, (number, line) in enumerate(lines):
        try:
            event = _EVENT.validate_json(line.decode("utf-8"))
        except (UnicodeDecodeError, ValidationError) as error:
            if position == len(lines) - 1:
                break
            raise DataFileError(path, number, event_problem(error)) from None
        if isinstance(event, StartEvent):
            start = event
        elif isinstance(event, StepEvent):
            steps.append(event)
        else:
            end = event
    if start is None:
        raise DataFileError(path, 1, "no start event (not an episode file, or one cut short before its first event)")
    return Trajectory(start=start, steps=steps, end=end)


def event_problem(error: UnicodeDecodeError | ValidationError) -> str:
    """What is wrong with one line of an episode file, in one line: bad bytes, invalid JSON, or the first field off
    the schema (pydantic's own first line only says how many errors there are)."""
    if isinstance(error, UnicodeDecodeError):
        return f"not valid UTF-8 (byte 0x{error.object[error.start]:02x} at column {error.start + 1})"
    first = error.errors()[0]
    if first["type"] == "json_invalid":
        return f"not valid JSON ({first['msg'].removeprefix('Invalid JSON: ').replace('line 1 column', 'column')})"
    if first["type"] == "union_tag_invalid":
        return "not a trajectory event (its \"event\" must be start, step or end)"
    where = ".".join(str(part) for part in first["loc"])
    return f"not a trajectory event ({where}: {first['msg']})" if where else f"not a trajectory event ({first['msg']})"


def iter_episode_files(run_dir: Path) -> list[Path]:
    return sorted((Path(run_dir) / EPISODES_DIR).glob("*.jsonl"))


def read_manifest(run_dir: Path) -> RunManifest:
    """The run's manifest.json; a missing one is FileNotFoundError, a bad one DataFileError naming file and line."""
    path = Path(run_dir) / MANIFEST_FILE
    if not path.exists():
        raise FileNotFoundError(f"{run_dir} is not a run directory (no {MANIFEST_FILE})")
    return read_json_model(path, RunManifest)


@contextmanager
def manifest_lock(run_dir: Path) -> Iterator[None]:
    """Hold the run folder's manifest for a read-modify-write: threads of this process and other processes (several
    servers or shards sharing one folder) take turns. flock is per open file, so threads need their own lock too."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    with _THREAD_LOCK, open(run_dir / MANIFEST_LOCK_FILE, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_manifest(run_dir: Path, manifest: RunManifest) -> None:
    """Replace the manifest atomically (a private temporary file per writer, then rename)."""
    write_text_atomic(Path(run_dir) / MANIFEST_FILE, manifest.model_dump_json(indent=2))


def json_schema() -> dict[str, Any]:
    """JSON Schema of the episode-file events and the manifest, generated from the models."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"shopbench trajectory v{SCHEMA_VERSION}",
        "episode_event": _EVENT.json_schema(),
        "manifest": RunManifest.model_json_schema(),
    }


def dump_json_schema(path: Path) -> None:
    Path(path).write_text(json.dumps(json_schema(), indent=2), encoding="utf-8")
