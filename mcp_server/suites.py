"""Task suites: what the server can start an episode on.

A suite is one benchmark's task set as the server sees it: a listing (ids, benchmark, intent — never answers), the
instruction for each task, and the tools its episodes accept, run in its own sandbox. ShoppingBench's suite is
`agentic` (the six sandbox tools in a world); the question benchmarks' are `qa` (one `submit_answer` call ends the
episode). Which suite serves a benchmark is registered in mcp_server.suite_registry; `check_playable` checks, before
anything starts, that what was asked for can be played.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel

from benchmarks.errors import BadInput, Refusal
from benchmarks.names import did_you_mean
from mcp_server.protocol import TaskListing
from mcp_server.toolbox import EpisodeTool, ToolRunner
from mcp_server.users import UserSource

if TYPE_CHECKING:
    from benchmarks.qa import Demonstrations


class SuiteWorld(Hashable, Protocol):
    """What the generic server knows of the world a suite's tasks are played in (ShoppingBench's:
    mcp_server.shopping.world.World): where it lives and its info, recorded with each episode."""

    @property
    def root(self) -> Path: ...

    @property
    def info(self) -> BaseModel: ...


class TaskSuite(Protocol):
    """A set of tasks the MCP server can host."""

    benchmark: str
    task_set: str
    kind: Literal["agentic", "qa"]
    max_steps: int | None
    """The suite's own step limit (question suites: a few, for the answer and a wrong call or two before it), or None
    for the server's."""
    agent_instructions: str
    """What an agent playing its episodes is told before its task: how its episodes work and its rules (ShoppingBench:
    the shopping rules; a question: answer with submit_answer). The MCP server's instructions and an installed
    agent's prompt say it."""

    @property
    def prompts(self) -> Mapping[str, str]:
        """Its other prompts a run's manifest records (by name, hashed) beside `agent_instructions` (ShoppingBench:
        the reference agent's system prompt); {} when it has none."""
        ...

    @property
    def tools(self) -> Mapping[str, EpisodeTool]:
        """The tools its episodes accept, in the order clients list them."""
        ...

    @property
    def world(self) -> SuiteWorld | None:
        """The world its tasks are played in, recorded with each episode; None for tasks that need none."""
        ...

    @property
    def demonstrations(self) -> Demonstrations | None:
        """Items held out as few-shot demonstrations (listed nowhere, never started), or None."""
        ...

    def listings(self) -> list[TaskListing]:
        """Every task of the suite, in a stable order."""
        ...

    def instruction(self, task_id: str) -> str:
        """What the agent is told at `start_task` (raises KeyError for an unknown id)."""
        ...

    def start_details(self, task_id: str) -> dict[str, Any]:
        """Extra fields of the `start_task` result (question suites: the prompt as chat turns and the decoding the
        reference used). Never answers."""
        ...

    def open_sandbox(self) -> ToolRunner:
        """A sandbox for its tool calls (ShoppingBench: the tools over the world's search indexes and the web search
        the environment names), made when asked: a server opens one when it is built and shares it between its
        episodes."""
        ...

    def unavailable_reason(self) -> str | None:
        """Why episodes cannot start on this suite right now (e.g. its world is not imported), or None."""
        ...

    def manifest_parameters(self) -> dict[str, Any]:
        """What decides which tasks are served and how they are asked, for a run's manifest (question suites: the
        prompting, shots, seed and the items held out as demonstrations); {} when the task set says it all."""
        ...


@runtime_checkable
class PerEpisodeTools(Protocol):
    """A suite whose episodes have tools of their own besides its shared sandbox's (a conversational ShoppingBench
    task: `ask_user`, answered by that task's user). Optional: a suite without it plays every episode in `shared`."""

    def episode_sandbox(self, task_id: str, shared: ToolRunner) -> ToolRunner:
        """Where one episode's calls run: a runner over `shared` (the suite's sandbox) with the episode's own tools."""
        ...


@dataclass
class SuiteOptions:
    """What a command asked to serve, for every suite it names: the world (agentic suites open it, once, when they
    need it: ShoppingBench's mcp_server.shopping.world_build.open_world), the task set, a question benchmark's items
    file, its prompting and few-shot draws."""

    world: Path | SuiteWorld | None = None
    task_set: str | None = None
    items: Path | str | None = None
    prompting: str | None = None
    shots: int = 0
    seed: int = 0
    build_world: bool = True
    """False: a default world not built yet is an error (e.g. world_build.WorldNotBuilt), not a minute's build."""
    user: UserSource | None = None
    """Who answers `ask_user` (`--user`, `--user-model`, `--as-user`): set, the suites that can be played as a
    conversation are (ShoppingBench: the opener holds back constraints); None, today's task sets."""
    stated: int = 1
    """A conversation's opener states this many constraints besides the product kind (`--stated`)."""
    opened: SuiteWorld | None = field(default=None, init=False)
    """The world once a suite has opened it, shared by the other suites of the command."""


class NotPlayable(BadInput):
    """Nothing can be played as asked: one line naming the problem and the command that fixes it."""


class UnknownTaskSet(Refusal, KeyError):
    """A suite or world has no task set of that name: one line naming the ones it has. A KeyError (what a lookup by
    name raises), so callers that catch one still do; commands refuse this one, and take any other for a bug."""


def select_tasks(
    suites: list[TaskSuite],
    *,
    intents: list[str] | tuple[str, ...] | None = None,
    task_ids: list[str] | None = None,
    limit: int | None = None,
) -> list[tuple[TaskSuite, TaskListing]]:
    """The tasks chosen by intent (a task group: ShoppingBench intent or question task), id and `limit` (the first N
    of each group, in listing order). An unknown intent or id raises NotPlayable."""
    listed = [(suite, listing) for suite in suites for listing in suite.listings()]
    where = ", ".join(f"{suite.benchmark}/{suite.task_set}" for suite in suites)
    if intents:
        groups = list(dict.fromkeys(str(listing.intent) for _, listing in listed))
        unknown = [intent for intent in intents if intent not in groups]
        if unknown:
            hints = "".join(did_you_mean(intent, groups) for intent in unknown)
            raise NotPlayable(f"no task group {', '.join(map(repr, unknown))} in {where}.{hints} The groups are: "
                              f"{', '.join(groups)} (pass one of them with --intent)")
        listed = [(suite, listing) for suite, listing in listed if listing.intent in intents]
    if task_ids:
        present = {listing.task_id for _, listing in listed}
        missing = [task_id for task_id in dict.fromkeys(task_ids) if task_id not in present]
        held_out = _held_out(suites) if missing else set()
        demonstrations = [task_id for task_id in missing if task_id in held_out]
        if demonstrations:
            raise NotPlayable(f"{_few(demonstrations)} in {where} {'is' if len(demonstrations) == 1 else 'are'} held "
                              "out as few-shot demonstrations, which a few-shot run never asks (its manifest lists "
                              "them); pick another id, or play it zero-shot")
        if missing:
            raise NotPlayable(f"no task {_few(missing)} in {where}{' for those intents' if intents else ''}; the ids "
                              "are listed by the server's list_tasks, or `shopbench play` (pick from the list)")
        wanted = set(task_ids)
        listed = [(suite, listing) for suite, listing in listed if listing.task_id in wanted]
    if limit is not None:
        taken: dict[tuple[str, str | None], int] = {}
        limited = []
        for suite, listing in listed:
            key = (suite.benchmark, listing.intent)
            taken[key] = taken.get(key, 0) + 1
            if taken[key] <= limit:
                limited.append((suite, listing))
        listed = limited
    return listed


def suites_instructions(suites: list[TaskSuite]) -> str:
    """The instructions of a server hosting these suites: each distinct suite's own, in order."""
    return "\n".join(dict.fromkeys(suite.agent_instructions for suite in suites))


def check_playable(
    suites: list[TaskSuite],
    *,
    intents: list[str] | tuple[str, ...] | None = None,
    task_ids: list[str] | None = None,
    limit: int | None = None,
) -> list[tuple[TaskSuite, TaskListing]]:
    """What `run`, `serve` and `play` check before anything starts: every suite can start episodes here (e.g. the
    official ShoppingBench tasks need the official corpus), and the selection holds at least one task. Returns the
    selected tasks; raises NotPlayable with one line naming the problem and the command that fixes it."""
    for suite in suites:
        reason = suite.unavailable_reason()
        if reason:
            raise NotPlayable(reason)
    chosen = select_tasks(suites, intents=intents, task_ids=task_ids, limit=limit)
    if not chosen:
        where = ", ".join(f"{suite.benchmark}/{suite.task_set}" for suite in suites)
        raise NotPlayable(f"{where} holds no task to play; choose another task set with --tasks or items file with "
                          "--items")
    return chosen


def _few(task_ids: list[str]) -> str:
    """Up to three ids for a one-line error, and how many more there are."""
    return ", ".join(map(repr, task_ids[:3])) + (f" and {len(task_ids) - 3} more" if len(task_ids) > 3 else "")


def _held_out(suites: list[TaskSuite]) -> set[str]:
    """The ids the suites hold out as few-shot demonstrations (listed nowhere, never started)."""
    return {task_id for suite in suites if suite.demonstrations for task_id in suite.demonstrations.ids}
