"""A worked example of a new agentic benchmark (the tests import it): a set of scales to weigh things on. Registering it
here — its spec (benchmarks.registry), its suite with one sandbox tool (mcp_server.suite_registry), its scorer,
results reader and Inspect task (evaluators.parts), and a scripted solver (a model spec) — is all it takes for
shopbench to run, serve, play, score and report it, and for Inspect to find it (tests/test_tiny_sandbox.py).
Importing this module registers it.

Each task asks which of two things weighs more. `weigh` reads the scales (the sandbox: weights, never the answer);
`answer` names the heavier thing and ends the episode, recorded as the end event's answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState
from pydantic import BaseModel, Field

from benchmarks.qa import ItemScore
from benchmarks.registry import BenchmarkSpec, register
from evaluators.integrations.inspect.episodes import default_runs_dir, shared_environment
from evaluators.integrations.inspect.solvers import STORE_EPISODE, STORE_RUN, shopping_agent
from evaluators.models import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolCall, ToolSpec
from evaluators.models.registry import ModelOptions, register_backend
from evaluators.parts import register_parts
from evaluators.results.episodes import read_run_episodes
from evaluators.results.reports.reading import ItemScoresReader
from evaluators.results.scoring import MetricRow, ScoreOptions
from mcp_server.protocol import TaskListing
from mcp_server.suite_registry import register_suite
from mcp_server.suites import SuiteOptions, UnknownTaskSet
from mcp_server.toolbox import (
    Arguments,
    Effect,
    EpisodeTool,
    ToolCallError,
    tool_table,
    validate_arguments,
)
from mcp_server.trajectory import AgentInfo, AgentKind, episode_path, read_manifest, read_trajectory

NAME = "tiny-sandbox"
TASK_SET = "builtin"
WEIGHTS = {"apple": 180, "melon": 1500, "cherry": 8, "plum": 60, "hammer": 600, "feather": 1}
"""What the scales read, in grams: the sandbox's world."""


class TinyTask(BaseModel):
    task_id: str
    intent: str
    instruction: str
    target: str
    """The heavier thing: for the scorer only, never in a tool's output or the instruction."""


def _task(task_id: str, intent: str, first: str, second: str) -> TinyTask:
    return TinyTask(task_id=task_id, intent=intent, target=max(first, second, key=WEIGHTS.__getitem__),
                    instruction=f"Which weighs more: the {first} or the {second}? Weigh them with `weigh`, then "
                                "name the heavier one with `answer`.")


TASKS = [_task("fruit-1", "fruit", "apple", "melon"), _task("fruit-2", "fruit", "plum", "cherry"),
         _task("tools-1", "tools", "feather", "hammer")]


def load_tasks(path: Path | str | None = None) -> list[TinyTask]:
    """The three built-in tasks (the registration's loader)."""
    return list(TASKS)


SPEC = register(BenchmarkSpec(
    name=NAME, kind="agentic", loader="examples.tiny_sandbox:load_tasks", item_schema="examples.tiny_sandbox:TinyTask",
    primary_metric="solved", help="a tiny agentic test benchmark (scales and weights), registered in tests/ only",
    promptings=("native", "paper"), default_items="three built-in tasks", group="intent", aggregation="pooled",
    overall="share of the three tiny tasks solved",
))


# ---- the server's part: a suite with one sandbox tool, and one that ends the episode ---------------------------


class WeighArgs(Arguments):
    item: str = Field(description="The thing to put on the scales, e.g. \"apple\".")


class AnswerArgs(Arguments):
    item: str = Field(description="The heavier of the two things.")


TOOLS = tool_table(
    EpisodeTool("weigh", "Put a thing on the scales: its weight in grams.", WeighArgs, observation=int),
    EpisodeTool("answer", "Name the heavier thing; this ends the task.", AnswerArgs, read_only=False,
                effect=lambda arguments: Effect(ends="terminated", recorded={"answer": arguments["item"]})),
)


class Scales:
    """The sandbox: the scales read a thing's weight; they know nothing of the task."""

    def call(self, tool: str, arguments: Any) -> Any:
        if tool == "weigh":
            item = validate_arguments(tool, WeighArgs, arguments).item.strip().lower()
            if item not in WEIGHTS:
                raise ToolCallError(f"weigh: there is no {item!r} here; the things are: {', '.join(WEIGHTS)}")
            return WEIGHTS[item]
        validate_arguments(tool, AnswerArgs, arguments)
        return "Your answer has been recorded."


@register_suite(name=NAME)
class ScalesSuite:
    benchmark, task_set = NAME, TASK_SET
    kind = "agentic"
    max_steps: int | None = None
    agent_instructions = "Weigh the things with the scales, then answer with answer."
    prompts: dict[str, str] = {}
    tools = TOOLS
    takes_items = False
    world = None
    demonstrations = None

    def __init__(self) -> None:
        self._tasks = {task.task_id: task for task in TASKS}

    @classmethod
    def open(cls, spec: BenchmarkSpec, options: SuiteOptions) -> ScalesSuite:
        if options.task_set not in (None, TASK_SET):
            raise UnknownTaskSet(f"no task set {options.task_set!r} in {NAME}; known: {TASK_SET}")
        return cls()

    def listings(self) -> list[TaskListing]:
        return [TaskListing(task_id=t.task_id, benchmark=NAME, task_set=TASK_SET, intent=t.intent) for t in TASKS]

    def instruction(self, task_id: str) -> str:
        return self._tasks[task_id].instruction

    def start_details(self, task_id: str) -> dict[str, Any]:
        return {}

    def open_sandbox(self) -> Scales:
        return Scales()

    def unavailable_reason(self) -> str | None:
        return None

    def manifest_parameters(self) -> dict[str, Any]:
        return {}


# ---- the evaluators' part: a scorer and its results reader, an Inspect task --------------------------------------


@dataclass
class TinyResult:
    """A scored run: each task solved or not (its answer is the heavier thing)."""

    scores: dict[str, ItemScore]
    episodes: dict[str, str]
    """task id → episode id."""
    unreadable: list[str] = field(default_factory=list)
    episode_files: int = 0
    benchmark: str = NAME
    primary_metric: str = "solved"

    @property
    def overall(self) -> float | None:
        values = [score.score for score in self.scores.values() if score.score is not None]
        return sum(values) / len(values) if values else None

    def metric_rows(self) -> list[MetricRow]:
        groups: dict[str, list[float]] = {}
        for score in self.scores.values():
            groups.setdefault(score.task, []).append(score.score or 0.0)
        rows = [MetricRow(group=group, metric="solved", value=sum(v) / len(v), n=len(v)) for group, v in groups.items()]
        return [*rows, MetricRow(group="overall", metric="solved", value=self.overall, n=len(self.scores))]

    def episode_success(self) -> dict[str, bool]:
        return {episode: self.scores[task].score == 1.0 for task, episode in self.episodes.items()}

    def to_json(self) -> dict[str, Any]:
        return {"benchmark": NAME, "overall": self.overall, "unreadable": self.unreadable,
                "items": {task: score.report() for task, score in self.scores.items()}}


class TinyScorer:
    def __init__(self, spec: BenchmarkSpec) -> None:
        self.benchmark = spec.name

    def score_run(self, run_dir: Path, options: ScoreOptions) -> TinyResult:
        read = read_run_episodes(run_dir, read_manifest(run_dir), options.agent)
        targets = {task.task_id: task for task in TASKS}
        result = TinyResult({}, {}, read.unreadable, read.files)
        for trajectory in read.trajectories:
            if trajectory.end is None:
                continue
            task = targets[trajectory.start.task_id]
            answer = trajectory.end.answer
            result.scores[task.task_id] = ItemScore(score=float(answer == task.target), parsed=answer, task=task.intent)
            result.episodes[task.task_id] = trajectory.start.episode_id
        return result

    def score_predictions(self, predictions: Path, options: ScoreOptions) -> TinyResult:
        raise ValueError(f"{NAME} scores run folders only")


@scorer(metrics=[accuracy()])
def solved() -> Any:
    """1 when the sample's episode answered the heavier thing (read back from the run folder)."""

    async def score(state: TaskState, target: Target) -> Score:
        trajectory = read_trajectory(episode_path(Path(state.store.get(STORE_RUN)), state.store.get(STORE_EPISODE)))
        answer = trajectory.end.answer if trajectory.end else None
        return Score(value=float(answer == target.text), answer=answer)

    return score


def tiny_task(spec: BenchmarkSpec, runs: str | None = None) -> Task:
    """One sample per task, played through the eval's shopbench server by Inspect's agent."""
    runs_dir = (Path(runs) if runs else default_runs_dir(spec.name)).resolve()
    environment = shared_environment(spec.name, runs_dir)
    [suite] = environment.suites
    samples = [Sample(input=task.instruction, target=task.target, id=task.task_id) for task in TASKS]
    return Task(dataset=MemoryDataset(samples, name=NAME), solver=shopping_agent(environment.server, suite),
                scorer=solved(), metadata={"shopbench_run_dir": str(runs_dir), "benchmark": NAME})


register_parts(name=NAME, scorer=TinyScorer, results_reader=ItemScoresReader, inspect_task=tiny_task)


# ---- a scripted solver, as a model spec ------------------------------------------------------------------------

ASKED = re.compile(r"the (\w+) or the (\w+)\?")


class TinySolver(ModelAPI):
    """Weighs both things, then answers the heavier: reads nothing but the chat (the instruction and the weights)."""

    spec = "tiny-solver"
    is_baseline = True

    async def generate(self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None,
                       config: GenerateConfig | None = None) -> ModelOutput:
        instruction = next(m.content for m in messages if m.role == "user")
        things = ASKED.search(instruction)
        assert things is not None, instruction
        weights = [int(m.content) for m in messages if m.role == "tool"]
        turn = len(weights)
        if turn < 2:
            call = ToolCall(id=f"w{turn}", name="weigh", arguments={"item": things.group(turn + 1)})
        else:
            heavier = things.group(1) if weights[0] >= weights[1] else things.group(2)
            call = ToolCall(id="a", name="answer", arguments={"item": heavier})
        return ModelOutput(tool_calls=[call], model=self.spec)

    def agent(self) -> AgentInfo:
        return AgentInfo(kind=AgentKind.baseline, name=self.spec, details=self.identity())


@register_backend("tiny-solver", needs_argument=False, help="tests only: weighs both things, answers the heavier")
def _solver(rest: str, options: ModelOptions) -> ModelAPI:
    return TinySolver()
