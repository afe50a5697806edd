"""How reports read a scored result, whatever its benchmark: they ask the benchmark's results reader (one of its parts
in evaluators.parts; `readers.reader_for` finds it) instead of branching on what kind of benchmark it is.

A reader answers, for one result: its per-task outcomes of a metric (what comparisons pair and plots draw), the
items that carry no per-item value, the tasks it scored and their task set, the size of that task set, the grader
audit, and the tables `shopbench score` prints. `ItemScoresReader` reads any result that keeps its scores as item id
→ ItemScore (the question benchmarks', and a result of a benchmark not registered here).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from benchmarks.registry import BenchmarkSpec, UnknownBenchmarkError, get_benchmark

if TYPE_CHECKING:
    from evaluators.results.reports.audit import AuditResult
    from mcp_server.trajectory import RunManifest


@dataclass(frozen=True)
class Outcome:
    """One scored episode (or QA item) of a run, in the shape comparisons need."""

    group: str
    task: str
    epoch: int
    value: float
    binary: bool
    """The value is a success (0/1), so McNemar and Wilson intervals apply."""


class ResultsReader(Protocol):
    """What reports read of one benchmark's results (evaluators.parts: `results_reader(spec) -> ResultsReader`)."""

    def outcomes(self, result: Any, metric: str) -> list[Outcome]:
        """Per-episode (or per-item) values of `metric`; ValueError for a metric without per-task outcomes."""
        ...

    def left_out(self, result: Any) -> int:
        """Scored items that carry no per-item value (they cannot be paired)."""
        ...

    def task_keys(self, result: Any) -> set[str]:
        """The tasks (task ids, item ids) the result has a score for."""
        ...

    def task_set(self, result: Any) -> str | None:
        """The one task set the scored episodes name, or None to take the manifest's."""
        ...

    def task_set_size(self, result: Any, manifest: RunManifest, task_set: str | None) -> int | None:
        """How many tasks of the task set the run could play (None when it cannot be learnt here)."""
        ...

    def audit(self, run_dir: Path, result: Any) -> AuditResult | None:
        """The grader audit of the run's successes (None where the benchmark recommends nothing)."""
        ...

    def render(self, result: Any) -> list[Any]:
        """The rich renderables `shopbench score` prints."""
        ...


def registered(benchmark: str) -> BenchmarkSpec | None:
    """The benchmark's registration; None for a result of a benchmark not registered here (reported with defaults)."""
    try:
        return get_benchmark(benchmark)
    except UnknownBenchmarkError:
        return None


class ItemScoresReader:
    """Reads results whose `scores` map item id → ItemScore: one outcome per item, every item of epoch 0."""

    def __init__(self, spec: BenchmarkSpec | None) -> None:
        self.spec = spec

    def outcomes(self, result: Any, metric: str) -> list[Outcome]:
        """Items without a value (IntentionQA failed calls, Shopping MMLU NER items scored only as a task-level
        micro-F1) are left out; with per-item metrics only accuracy items are binary."""
        per_item = self.spec is not None and self.spec.item_metrics
        found = []
        for item_id, score in getattr(result, "scores", {}).items():
            if score.score is None or score.excluded:
                continue
            binary = not per_item or score.extra.get("metric") == "accuracy"
            found.append(Outcome(score.task, item_id, 0, float(score.score), binary))
        return found

    def left_out(self, result: Any) -> int:
        return sum(1 for s in getattr(result, "scores", {}).values() if s.score is None or s.excluded)

    def task_keys(self, result: Any) -> set[str]:
        return set(getattr(result, "scores", {}))

    def task_set(self, result: Any) -> str | None:
        return None

    def task_set_size(self, result: Any, manifest: RunManifest, task_set: str | None) -> int | None:
        return None

    def audit(self, run_dir: Path, result: Any) -> AuditResult | None:
        return None

    def render(self, result: Any) -> list[Any]:
        return []
