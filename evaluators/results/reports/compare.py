"""Paired comparison of two scored runs on the tasks both played (`shopbench compare`, and the report's section).

Two runs of the same benchmark are aligned by task: each run's outcome on a task is its mean over epochs (one
episode per task gives 0/1 for binary success), and only the tasks both runs played are compared; how many each
run left out is stated. Per group (intent, QA task) and overall, the primary metric's paired difference A − B comes
with a paired bootstrap interval, and binary success with one outcome per task also gets the exact McNemar test.
The overall difference is aggregated as the benchmark's reference aggregates its score (its registration's
`aggregation`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from benchmarks.errors import BadInput
from benchmarks.registry import Aggregation
from evaluators.results.reports.readers import reader_for
from evaluators.results.reports.reading import Outcome, registered
from evaluators.results.stats import (
    Interval,
    McNemar,
    format_p,
    mcnemar_exact,
    paired_difference_ci,
    stratified_paired_difference_ci,
)

AGGREGATION_TEXT = {"groups": "unweighted mean over groups", "pooled": "mean over items"}


def aggregation(benchmark: str) -> Aggregation:
    """How the benchmark's headline is formed ("groups" for a benchmark not registered here)."""
    spec = registered(benchmark)
    return spec.aggregation if spec else "groups"


def item_metrics(benchmark: str) -> bool:
    """Whether the benchmark's items are scored by different metrics (named in each score's extra["metric"])."""
    spec = registered(benchmark)
    return spec is not None and spec.item_metrics


def compared_metrics(result: Any) -> list[str]:
    """The metrics a comparison covers: the registration's (ShoppingBench: ASR, and CAR, where runs differ most),
    else the primary one."""
    spec = registered(result.benchmark)
    return list(spec.compared_metrics) if spec and spec.compared_metrics else [result.primary_metric]


def episode_metrics(result: Any) -> list[str]:
    """Metrics beyond the registration's that this result has per-episode values of (its reader's `extra_metrics`,
    when it has one: a conversational ShoppingBench run's); a comparison adds those both runs have."""
    extra = getattr(reader_for(result), "extra_metrics", None)
    return list(extra(result)) if extra is not None else []


def outcomes(result: Any, metric: str | None = None) -> list[Outcome]:
    """Per-episode (or per-item) values of `metric` (default: the primary one), as the result's benchmark reads them
    (its results reader). Items without a value are left out; `left_out(result)` counts them."""
    return reader_for(result).outcomes(result, metric or result.primary_metric)


def left_out(result: Any) -> int:
    """Scored items that carry no per-item value (they cannot be paired)."""
    return reader_for(result).left_out(result)


@dataclass
class TaskOutcome:
    group: str
    mean: float
    epochs: int
    binary: bool


def per_task(found: list[Outcome]) -> dict[str, TaskOutcome]:
    """task → its outcome averaged over epochs (binary only with one episode and a 0/1 value)."""
    by_task: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in found:
        by_task[outcome.task].append(outcome)
    table = {}
    for task, episodes in by_task.items():
        mean = float(np.mean([e.value for e in episodes]))
        binary = len(episodes) == 1 and episodes[0].binary and mean in (0.0, 1.0)
        table[task] = TaskOutcome(episodes[0].group, mean, len(episodes), binary)
    return table


class GroupComparison(BaseModel):
    group: str
    n: int
    """Tasks both runs played."""
    a: float | None
    b: float | None
    difference: Interval
    """A − B with its paired bootstrap interval."""
    mcnemar: McNemar | None = None
    """Exact McNemar test; None when the outcomes are not one binary success per task."""

    def row(self) -> list[str]:
        return [self.group, str(self.n), _num(self.a), _num(self.b), signed_text(self.difference),
                self.mcnemar.text() if self.mcnemar else "–"]


class MetricComparison(BaseModel):
    metric: str
    aggregation: str
    overall: GroupComparison
    groups: list[GroupComparison]


class Comparison(BaseModel):
    """A paired comparison of run A with run B."""

    benchmark: str
    a: str
    b: str
    tasks_a: int
    tasks_b: int
    shared: int
    only_a: int
    """Tasks A played that B did not (left out of the comparison)."""
    only_b: int
    epochs_a: int
    epochs_b: int
    unpaired_a: int = 0
    """Items of A that carry no per-item value (failed calls, NER): never compared."""
    unpaired_b: int = 0
    metrics: list[MetricComparison] = Field(default_factory=list)

    def coverage_text(self) -> str:
        text = (f"compared on the {self.shared} tasks both runs played; left out: {self.only_a} played only by "
                f"{self.a} (of {self.tasks_a}), {self.only_b} played only by {self.b} (of {self.tasks_b})")
        if self.unpaired_a or self.unpaired_b:
            text += (f"; items without a per-item value (failed calls, task-level metrics): {self.unpaired_a} of "
                     f"{self.a}, {self.unpaired_b} of {self.b}")
        if max(self.epochs_a, self.epochs_b) > 1:
            text += (f"; epochs {self.epochs_a} vs {self.epochs_b}: each task's outcome is its mean over epochs "
                     "(McNemar needs one binary outcome per task, so it is not computed)")
        return text

    def headers(self) -> list[str]:
        return ["group", "n (paired)", self.a, self.b, "A − B [95% paired bootstrap]", "McNemar (exact): A-only vs "
                "B-only"]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    def render(self) -> list[Any]:
        from rich.table import Table
        from rich.text import Text

        out: list[Any] = [Text(f"{self.benchmark}: A = {self.a}, B = {self.b}", style="bold"),
                          Text(self.coverage_text(), style="dim")]
        for metric in self.metrics:
            table = Table(title=f"{metric.metric}: A − B per group; overall = {metric.aggregation}",
                          title_justify="left")
            for index, header in enumerate(self.headers()):
                table.add_column(header, justify="left" if index == 0 else "right")
            for group in metric.groups:
                table.add_row(*group.row())
            table.add_section()
            table.add_row(*metric.overall.row(), style="bold")
            out.append(table)
        return out


def compare(result_a: Any, result_b: Any, label_a: str = "A", label_b: str = "B") -> Comparison:
    """Pair two scored runs of one benchmark by task and compare them on every metric of `compared_metrics`."""
    if result_a.benchmark != result_b.benchmark:
        raise BadInput(f"cannot pair runs of different benchmarks ({result_a.benchmark} vs {result_b.benchmark})")
    benchmark = result_a.benchmark
    if label_a == label_b:
        label_a, label_b = f"{label_a} (A)", f"{label_b} (B)"
    metrics = compared_metrics(result_a) + [m for m in episode_metrics(result_a) if m in episode_metrics(result_b)]
    tables_a = {m: per_task(outcomes(result_a, m)) for m in metrics}
    tables_b = {m: per_task(outcomes(result_b, m)) for m in metrics}
    primary = metrics[0]
    keys_a, keys_b = set(tables_a[primary]), set(tables_b[primary])
    shared = sorted(keys_a & keys_b)
    comparison = Comparison(
        benchmark=benchmark, a=label_a, b=label_b, tasks_a=len(keys_a), tasks_b=len(keys_b), shared=len(shared),
        only_a=len(keys_a - keys_b), only_b=len(keys_b - keys_a),
        epochs_a=max((t.epochs for t in tables_a[primary].values()), default=0),
        epochs_b=max((t.epochs for t in tables_b[primary].values()), default=0),
        unpaired_a=left_out(result_a), unpaired_b=left_out(result_b),
    )
    how = aggregation(benchmark)
    for metric in metrics:
        a, b = tables_a[metric], tables_b[metric]
        valued = [task for task in shared if task in a and task in b]  # a metric may have no value on some tasks
        by_group: dict[str, list[str]] = defaultdict(list)
        for task in valued:
            by_group[a[task].group].append(task)
        groups = [_group(group, tasks, a, b) for group, tasks in _ordered(by_group)]
        comparison.metrics.append(MetricComparison(
            metric=metric,
            aggregation=f"{AGGREGATION_TEXT[how]} of A − B",
            overall=_overall(valued, by_group, a, b, how),
            groups=groups,
        ))
    return comparison


def _ordered(by_group: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    from benchmarks.shoppingbench.schema import INTENTS

    order: dict[str, int] = {intent: index for index, intent in enumerate(INTENTS)}
    return sorted(by_group.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))


def _group(group: str, tasks: list[str], a: dict[str, TaskOutcome], b: dict[str, TaskOutcome]) -> GroupComparison:
    xs, ys = [a[t].mean for t in tasks], [b[t].mean for t in tasks]
    binary = all(a[t].binary and b[t].binary for t in tasks)
    return GroupComparison(group=group, n=len(tasks), a=float(np.mean(xs)), b=float(np.mean(ys)),
                           difference=paired_difference_ci(xs, ys), mcnemar=mcnemar_exact(xs, ys) if binary else None)


def _overall(shared: list[str], by_group: dict[str, list[str]], a: dict[str, TaskOutcome],
             b: dict[str, TaskOutcome], aggregation: Aggregation) -> GroupComparison:
    if not shared:
        empty = paired_difference_ci([], [])
        return GroupComparison(group="overall", n=0, a=None, b=None, difference=empty)
    binary = all(a[t].binary and b[t].binary for t in shared)
    test = mcnemar_exact([a[t].mean for t in shared], [b[t].mean for t in shared]) if binary else None
    if aggregation == "groups":
        pairs = [([a[t].mean for t in tasks], [b[t].mean for t in tasks]) for tasks in by_group.values()]
        difference = stratified_paired_difference_ci(pairs)
        mean_a = float(np.mean([np.mean(x) for x, _ in pairs]))
        mean_b = float(np.mean([np.mean(y) for _, y in pairs]))
    else:
        xs, ys = [a[t].mean for t in shared], [b[t].mean for t in shared]
        difference = paired_difference_ci(xs, ys)
        mean_a, mean_b = float(np.mean(xs)), float(np.mean(ys))
    return GroupComparison(group="overall", n=len(shared), a=mean_a, b=mean_b, difference=difference, mcnemar=test)


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def signed_text(interval: Interval) -> str:
    if interval.value is None:
        return "–"
    if interval.low is None or interval.high is None:
        return f"{interval.value:+.3f}"
    return f"{interval.value:+.3f} [{interval.low:+.3f}, {interval.high:+.3f}]"


__all__ = ["Comparison", "GroupComparison", "MetricComparison", "Outcome", "compare",
           "compared_metrics", "format_p", "left_out", "outcomes", "per_task"]
