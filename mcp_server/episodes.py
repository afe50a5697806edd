"""Episodes: one task in one world for one agent, recorded step by step as it happens.

Whoever plays — a model through MCP, an outside MCP client, a human in the TUI — goes through `Episode.call`, so
every trajectory has the same shape: the start event when the episode begins, one step per tool call (including
malformed ones, which count against the step limit like any other turn), and the end event at `terminate`,
`submit_answer`, the step limit, or when the player goes away. After the end, calls are answered with an error.

A trajectory that cannot be written (a full disk, a quota) ends the episode as an error: the step whose write failed
is not in the file and never will be, and the agent is told the episode is over. A start_task whose first write
fails leaves no file, so its episode id can be used again.
"""

from __future__ import annotations

import functools
import logging
import re
import subprocess
import threading
import uuid
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from mcp_server.protocol import DEFAULT_MAX_STEPS, EpisodeStatus, TaskListing
from mcp_server.suite_registry import known_tool
from mcp_server.suites import PerEpisodeTools, TaskSuite
from mcp_server.toolbox import EpisodeTool, ToolCallError, ToolRunner
from mcp_server.trajectory import (
    MANIFEST_FILE,
    AgentInfo,
    EndEvent,
    EndStatus,
    MalformedTurn,
    RunManifest,
    StartEvent,
    StepEvent,
    TrajectoryWriter,
    Usage,
    UserTurn,
    episode_path,
    manifest_lock,
    now,
    prompt_hashes,
    write_failure_reason,
    write_manifest,
)
from mcp_server.users import UserAnswer

logger = logging.getLogger(__name__)

EPISODE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
RECORDED_PACKAGES = ("shopbench", "mcp", "pyserini", "pydantic", "httpx")
RAW_TURN_LIMIT = 4000
"""Characters of a malformed model turn kept in its step (enough to see what went wrong)."""


class EpisodeError(ValueError):
    """An episode cannot start or go on; the message is meant for the agent and never names an answer."""


@dataclass(frozen=True)
class StepResult:
    observation: Any
    """The tool's output (JSON-able), or the error text when `is_error`."""
    status: EpisodeStatus
    """The episode after this call."""
    is_error: bool = False

    @property
    def ended(self) -> bool:
        """The episode is over after this call (terminate, submit_answer, the last allowed step, or earlier)."""
        return self.status.state == "ended"


class Episode:
    """A running episode. Writing the start event happens in the constructor, so a created episode is on disk."""

    def __init__(
        self,
        runs_dir: Path,
        suite: TaskSuite,
        task_id: str,
        *,
        agent: AgentInfo,
        sandbox: ToolRunner | None = None,
        episode_id: str | None = None,
        epoch: int = 0,
        max_steps: int | None = None,
        world: str | None = None,
        world_info: dict[str, Any] | None = None,
    ) -> None:
        reason = suite.unavailable_reason()
        if reason:
            raise EpisodeError(reason)
        listing = _listing(suite, task_id)
        max_steps = DEFAULT_MAX_STEPS if max_steps is None else max_steps
        if max_steps < 1:
            raise EpisodeError("max_steps must be at least 1")
        max_steps = min(max_steps, suite.max_steps) if suite.max_steps else max_steps
        self.suite, self.listing, self.max_steps = suite, listing, max_steps
        shared = sandbox if sandbox is not None else suite.open_sandbox()
        self.sandbox = suite.episode_sandbox(task_id, shared) if isinstance(suite, PerEpisodeTools) else shared
        """Where the tool calls run: the one given (a server shares one between the episodes of a suite), else a new
        one of the suite's, with the suite's per-episode tools on top (a conversational task's user)."""
        self._tools: dict[str, EpisodeTool] = dict(suite.tools)
        self.episode_id = _checked_episode_id(episode_id) if episode_id else new_episode_id(task_id, epoch)
        self.runs_dir = Path(runs_dir)
        self.path = episode_path(self.runs_dir, self.episode_id)
        self.instruction = suite.instruction(task_id)
        self.recorded: dict[str, Any] = {}
        """End-event fields decided by calls so far (the last recommendation), written with whatever end comes."""
        self.history: list[StepEvent] = []
        """The steps recorded so far, as its trajectory holds them (a baseline behind an installed agent reads them
        here rather than from the file)."""
        self.end: EndEvent | None = None
        self._lock = threading.Lock()
        self.start = StartEvent(
            episode_id=self.episode_id,
            benchmark=suite.benchmark,
            task_set=listing.task_set,
            task_id=task_id,
            intent=listing.intent,
            epoch=epoch,
            world=world,
            instruction=self.instruction,
            agent=agent,
            max_steps=max_steps,
        )
        try:
            ensure_manifest(self.runs_dir, suite=suite, agent=agent, max_steps=max_steps, world=world_info)
            self._writer = _claim(self.path)
        except OSError as error:
            raise _not_recorded(self.episode_id, error) from None
        try:
            self._writer.write(self.start)
        except OSError as error:  # the file goes, so the id is free again
            _close_quietly(self._writer)
            self.path.unlink(missing_ok=True)
            raise _not_recorded(self.episode_id, error) from None

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def steps(self) -> int:
        """How many steps were recorded."""
        return len(self.history)

    @property
    def tools(self) -> tuple[str, ...]:
        """The names of the tools this episode accepts (its suite's)."""
        return tuple(self._tools)

    @property
    def status(self) -> EpisodeStatus:
        return EpisodeStatus(
            episode_id=self.episode_id,
            state="running" if self.end is None else "ended",
            end_reason=None if self.end is None else self.end.status,
            steps_used=self.steps,
            steps_left=max(0, self.max_steps - self.steps) if self.end is None else 0,
            max_steps=self.max_steps,
        )

    def call(
        self, tool: str, arguments: Any, *, thought: str | None = None, usage: Usage | None = None
    ) -> StepResult:
        """Run one tool call and record it; a malformed call is recorded too and answered with an error."""
        with self._lock:
            if self.end is not None:
                return StepResult(self._over_message(), self.status, is_error=True)
            started = now()
            user: UserTurn | None = None
            try:
                observation, is_error = self._run(tool, arguments), False
                if isinstance(observation, UserAnswer):  # ask_user: the agent reads the text, the turn is recorded
                    answer: UserAnswer = observation
                    observation, user = answer.text, answer.turn
            except ToolCallError as error:
                observation, is_error = str(error), True
            except Exception as error:  # a sandbox fault is the harness's, but the agent still gets an answer
                logger.exception("tool %s failed in episode %s", tool, self.episode_id)
                observation, is_error = f"{tool} failed inside the sandbox ({type(error).__name__}); try again", True
            step = StepEvent(
                index=self.steps,
                tool=tool,
                arguments=arguments if isinstance(arguments, dict) else {"_raw": arguments},
                observation=observation,
                is_error=is_error,
                thought=thought,
                usage=usage,
                user=user,
                started_at=started,
                ended_at=now(),
            )
            try:
                self._record(step)
                if not is_error:
                    self._apply(tool, arguments)
                self._check_step_limit()
            except OSError as error:
                return self._write_failed(error)
            return StepResult(observation, self.status, is_error=is_error)

    def record_malformed(
        self,
        raw: str,
        error: str,
        feedback: str,
        *,
        tool: str | None = None,
        thought: str | None = None,
        usage: Usage | None = None,
    ) -> StepResult:
        """Record a model turn that held no runnable call, as it was: the raw text, what was wrong, and the
        feedback the model is shown (the step's observation). It counts as a step, like any malformed call."""
        with self._lock:
            if self.end is not None:
                return StepResult(self._over_message(), self.status, is_error=True)
            step = StepEvent(
                index=self.steps,
                tool=tool or "",
                observation=feedback,
                is_error=True,
                thought=thought,
                usage=usage,
                malformed=MalformedTurn(raw=raw[:RAW_TURN_LIMIT], error=error),
            )
            try:
                self._record(step)
                self._check_step_limit()
            except OSError as write_error:
                return self._write_failed(write_error)
            return StepResult(feedback, self.status, is_error=True)

    def abandon(self, message: str = "the client went away") -> None:
        """End an episode nobody will finish (client disconnected, another task started, server shut down)."""
        self.stop("abandoned", message)

    def stop(self, status: EndStatus, message: str) -> None:
        """End a running episode from outside its tools, saying why (the harness of an installed agent ends it at
        its timeout, or when the agent exits without ending it); an episode already over is left as it ended."""
        with self._lock:
            if self.end is None:
                try:
                    self._finish(status, message=message)
                except OSError as error:
                    self._write_failed(error)

    def _record(self, step: StepEvent) -> None:
        """Write the step, then count it: a step whose write failed (OSError) is not in the file and not counted."""
        self._writer.write(step)
        self.history.append(step)

    def _check_step_limit(self) -> None:
        if self.end is None and self.steps >= self.max_steps:
            self._finish("step_limit", message=f"the step limit of {self.max_steps} was reached")

    def _run(self, tool: str, arguments: Any) -> Any:
        if tool not in self._tools:
            what = f"{tool!r} is not available in this episode" if known_tool(tool) else f"unknown tool {tool!r}"
            raise ToolCallError(f"{what}; this episode's tools are: {', '.join(self.tools)}")
        return self.sandbox.call(tool, arguments)

    def _apply(self, tool: str, arguments: dict[str, Any]) -> None:
        """The effect of a successful call on the episode (mcp_server.toolbox.Effect): what it records for the end
        event (e.g. the last recommendation), and the end itself."""
        effect = self._tools[tool].effect
        if effect is None:
            return
        outcome = effect(arguments)
        if outcome.ends is not None:
            self._finish(outcome.ends, **outcome.recorded)
        else:
            self.recorded |= outcome.recorded

    def _finish(self, status: EndStatus, **fields: Any) -> None:
        """Write the end event and close the file; when the write fails (OSError) the episode is not ended here."""
        end = EndEvent(status=status, steps=self.steps, **(self.recorded | fields))
        self._writer.write(end)
        self.end = end
        _close_quietly(self._writer)

    def _write_failed(self, error: OSError) -> StepResult:
        """End the episode as an error after a write of its trajectory failed; the answer to the call that met it.
        The file keeps only what was written before (TrajectoryWriter cut the failed event back). The end event is
        written when the disk takes it; when it does not, the file reads as unfinished, and a run's --resume plays
        the episode again."""
        message = f"its trajectory could not be written: {write_failure_reason(error)}"
        logger.warning("episode %s is over: %s", self.episode_id, message)
        self.end = EndEvent(status="error", steps=self.steps, message=message, **self.recorded)
        try:
            self._writer.write(self.end)
        except OSError:
            logger.debug("episode %s: the error end could not be written either", self.episode_id)
        _close_quietly(self._writer)
        return StepResult(self._over_message(), self.status, is_error=True)

    def _over_message(self) -> str:
        assert self.end is not None
        why = {"terminated": "terminate was called", "submitted": "an answer was submitted"}.get(
            self.end.status, self.end.message or self.end.status
        )
        return f"the episode is over ({why}); call start_task to begin another task"


def new_episode_id(task_id: str, epoch: int = 0) -> str:
    """A fresh id that names its task, safe as a file name."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", task_id).strip("._-") or "task"
    return f"{safe[:80]}-e{epoch}-{uuid.uuid4().hex[:10]}"


def _checked_episode_id(episode_id: str) -> str:
    if not EPISODE_ID.fullmatch(episode_id):
        raise EpisodeError(
            f"episode id {episode_id!r} is not allowed: use 1-128 letters, digits, '.', '_' or '-', starting "
            "with a letter or digit"
        )
    return episode_id


def _listing(suite: TaskSuite, task_id: str) -> TaskListing:
    for listing in suite.listings():
        if listing.task_id == task_id:
            return listing
    raise EpisodeError(f"no task {task_id!r} in {suite.benchmark}/{suite.task_set}; list_tasks shows the ids")


def _not_recorded(episode_id: str, error: OSError) -> EpisodeError:
    """The refusal of a start_task whose episode cannot be recorded (the server's folder, not the agent, is at fault;
    no path is named: it is the server's)."""
    reason = write_failure_reason(error)
    logger.warning("episode %s was not started: its trajectory could not be written: %s", episode_id, reason)
    return EpisodeError(f"the episode could not be started: the server cannot write its trajectory ({reason}); "
                        "nothing was recorded, so the task can be started again later")


def _close_quietly(writer: TrajectoryWriter) -> None:
    """Close an episode file whose events are already written (os.write reported them): a failing close loses none."""
    try:
        writer.close()
    except OSError:
        logger.debug("closing %s failed", writer.path, exc_info=True)


def _claim(path: Path) -> TrajectoryWriter:
    """Create the episode's file and its writer, or refuse: an episode id names exactly one episode. The exclusive
    create holds across threads and processes sharing a run folder, so no episode can be taken over or overwritten.
    (A run that resumes moves its unfinished files aside before it plays them again: evaluators.harness.orchestrate.)"""
    try:
        return TrajectoryWriter(path, exclusive=True)
    except FileExistsError:
        raise EpisodeError(
            f"episode id {path.stem!r} is already taken in this run folder (running or finished); start the task "
            "with a new episode id, or none to get a fresh one"
        ) from None


def ensure_manifest(
    runs_dir: Path,
    *,
    suite: TaskSuite,
    agent: AgentInfo,
    max_steps: int,
    world: dict[str, Any] | None = None,
) -> None:
    """Write the run's manifest when it has none (a runner that made the dir wrote its own, which is kept)."""
    runs_dir = Path(runs_dir)
    if (runs_dir / MANIFEST_FILE).exists():
        return
    with manifest_lock(runs_dir):  # threads of one server and other server processes share this folder
        if not (runs_dir / MANIFEST_FILE).exists():
            _write_first_manifest(runs_dir, suite=suite, agent=agent, max_steps=max_steps, world=world)


def _write_first_manifest(
    runs_dir: Path, *, suite: TaskSuite, agent: AgentInfo, max_steps: int, world: dict[str, Any] | None
) -> None:
    write_manifest(
        runs_dir,
        RunManifest(
            run_id=runs_dir.name,
            benchmark=suite.benchmark,
            task_set=suite.task_set,
            agent=agent,
            parameters={"max_steps": max_steps, **suite.manifest_parameters()},
            prompts=prompt_hashes({**suite.prompts, "mcp_agent_instructions": suite.agent_instructions}),
            world=world,
            packages=package_versions(),
            git_revision=git_revision(),
        ),
    )


def package_versions(names: tuple[str, ...] = RECORDED_PACKAGES) -> dict[str, str]:
    """Installed versions of these packages (looked up once per process: the code a process runs is the code it
    loaded, so a later upgrade on disk does not change it)."""
    return dict(_installed_versions(names))


@functools.cache
def _installed_versions(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    versions = []
    for name in names:
        try:
            versions.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            continue
    return tuple(versions)


@functools.cache
def git_revision() -> str | None:
    """The checkout's commit when shopbench runs from a git checkout, else None (looked up once per process, like
    package_versions: a commit made while the process runs does not change the code it loaded)."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() or None if result.returncode == 0 else None
