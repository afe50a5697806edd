"""The built-in results readers, registered here as the kinds' defaults (evaluators.parts): ShoppingBench's, whose
results hold one TaskScore per episode, and the question benchmarks', whose results hold one ItemScore per item; and
`reader_for`, which finds a result's reader (so whoever asks has the built-ins)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.errors import BadInput
from benchmarks.registry import BenchmarkSpec
from evaluators.parts import parts_for, register_parts
from evaluators.results.reports.audit import AuditResult, audit_run
from evaluators.results.reports.console import question_renderables, shoppingbench_renderables
from evaluators.results.reports.reading import ItemScoresReader, Outcome, ResultsReader, registered
from evaluators.results.shoppingbench.conversation import CONVERSATION_METRICS

if TYPE_CHECKING:
    from evaluators.results.shoppingbench.scorer import ShoppingBenchResult
    from mcp_server.trajectory import RunManifest

EPISODE_METRICS = ("ASR", "CAR")
"""What a ShoppingBench episode has a value of: success, and the rule score (and, in a conversational run, each of
evaluators.results.shoppingbench.conversation.CONVERSATION_METRICS)."""


class ShoppingBenchReader:
    """Reads a ShoppingBenchResult: one outcome per episode (epochs kept apart), tasks named by task id."""

    def __init__(self, spec: BenchmarkSpec) -> None:
        self.spec = spec

    def outcomes(self, result: ShoppingBenchResult, metric: str) -> list[Outcome]:
        if result.conversation is not None and metric in CONVERSATION_METRICS:
            return [Outcome(e.intent, e.task_id, e.epoch, value, metric == "assumed")
                    for e in result.conversation.episodes if (value := e.value(metric)) is not None]
        if metric not in EPISODE_METRICS:
            raise BadInput(f"{result.benchmark} compares ASR or CAR, not {metric!r}")
        return [Outcome(s.intent, s.task_id, s.epoch, float(s.value if metric == "ASR" else s.rule), metric == "ASR")
                for s in result.scores]

    def left_out(self, result: ShoppingBenchResult) -> int:
        return 0

    def extra_metrics(self, result: ShoppingBenchResult) -> list[str]:
        """A conversational run's per-episode measures, which comparisons pair beside ASR and CAR."""
        return list(CONVERSATION_METRICS) if result.conversation is not None else []

    def task_keys(self, result: ShoppingBenchResult) -> set[str]:
        return {s.task_id for s in result.scores}

    def task_set(self, result: ShoppingBenchResult) -> str | None:
        found = {s.task_set for s in result.scores}
        return found.pop() if len(found) == 1 else None

    def task_set_size(self, result: ShoppingBenchResult, manifest: RunManifest, task_set: str | None) -> int | None:
        """The task set's size in the run's world (the official set when that world does not hold it)."""
        from benchmarks.shoppingbench.tasks import OFFICIAL_SET, load_official
        from evaluators.results.shoppingbench.scorer import open_world

        if task_set is None:
            return None
        try:
            return len(open_world(None, manifest.world).tasks(task_set))
        except (KeyError, ValueError, FileNotFoundError):
            return len(load_official()) if task_set == OFFICIAL_SET else None

    def audit(self, run_dir: Path, result: ShoppingBenchResult) -> AuditResult | None:
        return audit_run(run_dir, result)

    def render(self, result: ShoppingBenchResult) -> list[Any]:
        return shoppingbench_renderables(result)


class QuestionReader(ItemScoresReader):
    """Reads a QAScoreResult (any question benchmark): one outcome per answered item."""

    def task_set_size(self, result: Any, manifest: RunManifest, task_set: str | None) -> int | None:
        """The items the run could serve: the runnable items of its item set, less the few-shot demonstrations the
        manifest says were held out (never served)."""
        from benchmarks.qa import items_path

        if self.spec is None:
            return None
        questions = self.spec.questions()
        held_out = set((manifest.parameters.get("demonstrations") or {}).get("ids", []))
        return sum(1 for item in questions.load(items_path(questions, task_set))
                   if questions.runnable(item) and questions.item_id(item) not in held_out)

    def render(self, result: Any) -> list[Any]:
        return question_renderables(result)


register_parts(kind="agentic", results_reader=ShoppingBenchReader)
register_parts(kind="qa", results_reader=QuestionReader)


def reader_for(result: Any) -> ResultsReader:
    """The results reader of the result's benchmark (one that reads item scores for a benchmark not registered)."""
    spec = registered(result.benchmark)
    if spec is None:
        return ItemScoresReader(None)
    reader: ResultsReader = parts_for(spec).load("results_reader")(spec)
    return reader
