"""A third worked example of an agentic benchmark, a book-lending desk, registered from this file alone: its spec
(benchmarks.registry), its suite with two desk tools (mcp_server.suite_registry), and its scorer and results reader
(evaluators.parts); everything else — the player, the play screen, the verifiers environment — is its kind's
default. `shopbench info tiny-library` shows where each part came from (tests/test_tiny_library.py). Importing this
module registers it.

A member asks for a book by an author. `find_books` reads the catalogue (each title and whether a copy is on the
shelf: the sandbox, never the answer); `lend` hands a title over and ends the episode, recorded as its answer. The
task is solved when the title lent is the author's one book on the shelf.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from benchmarks.qa import ItemScore
from benchmarks.registry import BenchmarkSpec, register
from evaluators.parts import register_parts
from evaluators.results.episodes import read_run_episodes
from evaluators.results.questions import QAScoreResult
from evaluators.results.reports.reading import ItemScoresReader
from evaluators.results.scoring import ScoreOptions
from mcp_server.protocol import TaskListing
from mcp_server.suite_registry import register_suite
from mcp_server.suites import SuiteOptions, UnknownTaskSet
from mcp_server.toolbox import Arguments, Effect, EpisodeTool, ToolCallError, tool_table, validate_arguments
from mcp_server.trajectory import read_manifest

NAME = "tiny-library"
TASK_SET = "desk"
CATALOGUE = {
    "Ursula K. Le Guin": {"The Dispossessed": False, "The Left Hand of Darkness": True},
    "Italo Calvino": {"Invisible Cities": True, "If on a winter's night a traveler": False},
    "Toni Morrison": {"Beloved": False, "Song of Solomon": False, "Sula": True},
}
"""Author → title → whether a copy is on the shelf: the sandbox's world."""


class LoanTask(BaseModel):
    task_id: str
    intent: str
    instruction: str
    target: str
    """The author's title on the shelf: for the scorer only, never in a tool's output or the instruction."""


TASKS = [
    LoanTask(task_id=f"loan-{number}", intent="loan", target=next(t for t, shelved in books.items() if shelved),
             instruction=f"A member would like to borrow a book by {author}. Look the author up with `find_books` "
                         "and lend them a title that is on the shelf with `lend`.")
    for number, (author, books) in enumerate(CATALOGUE.items(), start=1)
]


def load_tasks(path: Path | str | None = None) -> list[LoanTask]:
    """The three built-in tasks (the registration's loader)."""
    return list(TASKS)


SPEC = register(BenchmarkSpec(
    name=NAME, kind="agentic", loader=f"{__name__}:load_tasks", item_schema=f"{__name__}:LoanTask",
    primary_metric="lent", help="a tiny agentic example (a book-lending desk), registered in examples/ only",
    promptings=("native", "paper"), default_items="three built-in tasks", aggregation="pooled",
    overall="share of the three loans right",
))


# ---- the server's part: a suite with a look-up tool and one that ends the episode ------------------------------


class FindArgs(Arguments):
    author: str = Field(description="The author's name, e.g. \"Italo Calvino\".")


class LendArgs(Arguments):
    title: str = Field(description="The title to lend; it must be on the shelf.")


TOOLS = tool_table(
    EpisodeTool("find_books", "The author's titles, each with whether a copy is on the shelf.", FindArgs,
                observation=list[dict[str, Any]]),
    EpisodeTool("lend", "Lend a title that is on the shelf; this ends the task.", LendArgs, read_only=False,
                effect=lambda arguments: Effect(ends="terminated", recorded={"answer": arguments["title"]})),
)


class Desk:
    """The sandbox: the catalogue answers look-ups and refuses to lend what is out; it knows nothing of the task."""

    def call(self, tool: str, arguments: Any) -> Any:
        if tool == "find_books":
            author = validate_arguments(tool, FindArgs, arguments).author.strip()
            if author not in CATALOGUE:
                raise ToolCallError(f"find_books: no author {author!r}; the authors are: {', '.join(CATALOGUE)}")
            return [{"title": title, "on_shelf": shelved} for title, shelved in CATALOGUE[author].items()]
        title = validate_arguments(tool, LendArgs, arguments).title
        if not any(books.get(title) for books in CATALOGUE.values()):
            raise ToolCallError(f"lend: {title!r} is not on the shelf")
        return f"{title!r} is lent; the loan is recorded."


@register_suite(name=NAME)
class DeskSuite:
    benchmark, task_set = NAME, TASK_SET
    kind = "agentic"
    max_steps: int | None = None
    agent_instructions = "Look the author up with find_books, then lend a title on the shelf with lend."
    prompts: dict[str, str] = {}
    tools = TOOLS
    takes_items = False
    world = None
    demonstrations = None

    @classmethod
    def open(cls, spec: BenchmarkSpec, options: SuiteOptions) -> DeskSuite:
        if options.task_set not in (None, TASK_SET):
            raise UnknownTaskSet(f"no task set {options.task_set!r} in {NAME}; known: {TASK_SET}")
        return cls()

    def listings(self) -> list[TaskListing]:
        return [TaskListing(task_id=t.task_id, benchmark=NAME, task_set=TASK_SET, intent=t.intent) for t in TASKS]

    def instruction(self, task_id: str) -> str:
        return next(task.instruction for task in TASKS if task.task_id == task_id)

    def start_details(self, task_id: str) -> dict[str, Any]:
        return {}

    def open_sandbox(self) -> Desk:
        return Desk()

    def unavailable_reason(self) -> str | None:
        return None

    def manifest_parameters(self) -> dict[str, Any]:
        return {}


# ---- the evaluators' part: a scorer (reports read its item scores with the generic reader) ----------------------


class LoanScorer:
    """Each finished episode is an item: 1 when the title lent is the author's title on the shelf."""

    def __init__(self, spec: BenchmarkSpec) -> None:
        self.benchmark = spec.name

    def score_run(self, run_dir: Path, options: ScoreOptions) -> QAScoreResult:
        read = read_run_episodes(run_dir, read_manifest(run_dir), options.agent)
        targets = {task.task_id: task.target for task in TASKS}
        scores: dict[str, ItemScore] = {}
        episodes: dict[str, str] = {}
        for trajectory in read.trajectories:
            if trajectory.end is not None:
                task_id, lent = trajectory.start.task_id, trajectory.end.answer
                scores[task_id] = ItemScore(score=float(lent == targets[task_id]), parsed=lent, task="loan")
                episodes[task_id] = trajectory.start.episode_id
        right = Counter(score.score for score in scores.values())[1.0]
        overall = right / len(scores) if scores else None
        return QAScoreResult(NAME, "native", scores, {"overall": overall, "tasks": {"loan": overall}}, "lent",
                             episodes=episodes, unreadable=read.unreadable, episode_files=read.files)

    def score_predictions(self, predictions: Path, options: ScoreOptions) -> QAScoreResult:
        raise ValueError(f"{NAME} scores run folders only")


register_parts(name=NAME, scorer=LoanScorer, results_reader=ItemScoresReader)
