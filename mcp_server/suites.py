"""Task suites: what the server can start an episode on.

A suite is one benchmark's task set as the server sees it: a listing (ids, benchmark, intent — never answers) and
the instruction for each task. ShoppingBench suites are `agentic` (the six sandbox tools); the question benchmarks
are `qa` (one `submit_answer` call ends the episode). Which suites exist follows from the benchmark registry
(benchmarks.registry): `build_suites` makes them for `serve`, `play` and `run`, and `check_playable` checks, before
anything starts, that what was asked for can be played.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

if TYPE_CHECKING:
    from mcp_server.world import World


class TaskListing(BaseModel):
    """One row of `list_tasks`. Holds nothing that could give away an answer."""

    task_id: str
    benchmark: str
    task_set: str
    intent: str | None = None
    """ShoppingBench intent, or the QA task name (e.g. "task1", "multiple-choice")."""


class TaskSuite(Protocol):
    """A set of tasks the MCP server can host."""

    benchmark: str
    task_set: str
    kind: Literal["agentic", "qa"]
    max_steps: int | None
    """The suite's own step limit (question suites: 1, the submit_answer call), or None for the server's."""

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

    def unavailable_reason(self) -> str | None:
        """Why episodes cannot start on this suite right now (e.g. its world is not imported), or None."""
        ...

    def manifest_parameters(self) -> dict[str, Any]:
        """What decides which tasks are served and how they are asked, for a run's manifest (question suites: the
        prompting, shots, seed and the items held out as demonstrations); {} when the task set says it all."""
        ...


class NotPlayable(ValueError):
    """Nothing can be played as asked: one line naming the problem and the command that fixes it."""


def build_suites(
    benchmarks: list[str],
    *,
    world: Path | World | None = None,
    task_set: str | None = None,
    items: Path | str | None = None,
    prompting: str | None = None,
    shots: int = 0,
    seed: int = 0,
) -> tuple[World | None, list[TaskSuite]]:
    """The suites `serve`, `play` and `run` host for these registered benchmarks, and the world the agentic ones need
    (opened from `world`, or the default world; None when only question benchmarks are asked for).

    `task_set` (agentic: the world's task set, default its generated set), `items` (qa: an items file, only with one
    question benchmark), `prompting` (qa: default each benchmark's first) and `shots`/`seed` (few-shot draws).
    Unknown names raise UnknownBenchmarkError ("did you mean"); bad data raises DataFileError; a missing world or
    task set raises FileNotFoundError / KeyError.
    """
    from benchmarks.registry import get_benchmark, resolve

    specs = [get_benchmark(name) for name in dict.fromkeys(benchmarks)]
    questions = [spec for spec in specs if spec.kind == "qa"]
    if items is not None and len(questions) != 1:
        raise ValueError("--items names the items of one question benchmark; give exactly one with it")
    opened: World | None = None
    suites: list[TaskSuite] = []
    for spec in specs:
        if spec.kind == "agentic":
            if opened is None:
                opened = _open_world(world)
            assert spec.suite is not None, f"agentic benchmark {spec.name} registers no suite"
            suites.append(resolve(spec.suite)(opened, task_set or _generated_set()))
        else:
            from mcp_server.qa_suites import QASuite

            suites.append(QASuite(spec.name, items, prompting or spec.promptings[0], shots=shots, seed=seed))
    return opened, suites


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
            raise NotPlayable(f"no task group {', '.join(map(repr, unknown))} in {where}; the groups are: "
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
    """The ids the question suites hold out as few-shot demonstrations (listed nowhere, never started)."""
    from mcp_server.qa_suites import QASuite

    return {task_id for suite in suites if isinstance(suite, QASuite) and suite.demonstrations
            for task_id in suite.demonstrations.ids}


def _open_world(world: Path | World | None) -> World:
    from mcp_server.world import World, default_world

    if world is None:
        return default_world()
    return world if isinstance(world, World) else World.open(Path(world))


def _generated_set() -> str:
    from mcp_server.world import GENERATED_SET

    return GENERATED_SET
