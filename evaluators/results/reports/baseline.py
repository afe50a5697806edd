"""Paired comparisons in a report: every run against one baseline run (`report --baseline RUN`), and, when asked,
all pairs as a matrix.

A run named as the baseline is found by its folder (as given, or its name), its label or its agent's name; the
default is the best-covered model run of its benchmark (the most tasks scored; the first given on a tie), else the
best-covered run of an agent with a model behind it, else of any kind — never a scripted baseline while a run with a
model exists — and the report says which was chosen and why. Each comparison pairs a run with the
baseline on the tasks both played (evaluators.results.reports.compare), so n is the shared tasks, never a run's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchmarks.errors import BadInput
from evaluators.results.reports.compare import Comparison, GroupComparison, compare, signed_text
from evaluators.results.reports.tables import ReportTable, ScoredRun
from evaluators.results.stats import Interval


class BaselineError(BadInput):
    """`--baseline` names no run of the report, or more than one."""


@dataclass
class Baseline:
    """The run one benchmark's runs are compared against, and why it was chosen."""

    run: ScoredRun
    reason: str

    def text(self) -> str:
        return f"Baseline for {self.run.result.benchmark}: {self.run.label} ({self.reason})."


def find_run(runs: list[ScoredRun], name: str) -> ScoredRun:
    """The one run `name` names: its folder (path or folder name), its label, or its agent's name."""
    given = Path(name).expanduser()
    by_path = [run for run in runs if given.exists() and run.run_dir.resolve() == given.resolve()]
    if by_path:
        return by_path[0]
    for matches in ([run for run in runs if run.run_dir.name == name], [run for run in runs if run.label == name],
                    [run for run in runs if run.manifest.agent.name == name]):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise BaselineError(f"--baseline {name!r} names {len(matches)} runs ("
                                + ", ".join(str(run.run_dir) for run in matches) + "): give the run's folder")
    raise BaselineError(f"--baseline {name!r} names none of the runs; give a run folder or one of: "
                        + ", ".join(run.label for run in runs))


def choose_baselines(runs: list[ScoredRun], name: str | None = None) -> dict[str, Baseline]:
    """Benchmark → its baseline: the named run for its benchmark, the default (best-covered model run) for others."""
    named = find_run(runs, name) if name is not None else None
    chosen: dict[str, Baseline] = {}
    for benchmark in dict.fromkeys(run.result.benchmark for run in runs):
        mine = [run for run in runs if run.result.benchmark == benchmark]
        if named is not None and named.result.benchmark == benchmark:
            chosen[benchmark] = Baseline(named, "named with --baseline")
            continue
        models = [run for run in mine if run.kind == "model"]
        agents = [run for run in mine if run.kind not in ("baseline", "human")]
        pool = models or agents or mine
        best = max(pool, key=lambda run: len(run.task_keys()))  # max keeps the first of equals: the order given
        what = "model run" if models else "agent run with a model" if agents else "run (no model run)"
        chosen[benchmark] = Baseline(best, f"the best-covered {what}, {len(best.task_keys())} tasks; choose "
                                           "another with --baseline")
    return chosen


def against_baseline(runs: list[ScoredRun], baselines: dict[str, Baseline]) -> list[Comparison]:
    """Each run (A) paired with its benchmark's baseline (B) on the tasks both played, in the order given."""
    found = []
    for run in runs:
        base = baselines[run.result.benchmark].run
        if run is not base:
            found.append(compare(run.result, base.result, run.label, base.label))
    return found


def all_pairs(runs: list[ScoredRun]) -> dict[tuple[str, str], Comparison]:
    """(label A, label B) → A paired with B, for every two runs of one benchmark (each pair compared once; the
    reversed pair reads the same comparison)."""
    found = {}
    for index, a in enumerate(runs):
        for b in runs[index + 1:]:
            if a.result.benchmark == b.result.benchmark:
                found[(a.label, b.label)] = compare(a.result, b.result, a.label, b.label)
    return found


def overall_of(pairs: dict[tuple[str, str], Comparison], a: str, b: str, metric: str) -> GroupComparison | None:
    """A − B overall on `metric` (the reversed pair's comparison negated); None when the two are never paired."""
    if (a, b) in pairs:
        return _metric(pairs[(a, b)], metric)
    found = _metric(pairs[(b, a)], metric) if (b, a) in pairs else None
    if found is None:
        return None
    difference = found.difference
    flipped = Interval(value=_negated(difference.value), low=_negated(difference.high), high=_negated(difference.low),
                       n=difference.n)
    return found.model_copy(update={"a": found.b, "b": found.a, "difference": flipped})


def _negated(value: float | None) -> float | None:
    return None if value is None else 0.0 - value  # 0.0 - 0.0 is 0.0, where -0.0 would print as "-0.000"


def _metric(comparison: Comparison, metric: str) -> GroupComparison | None:
    return next((m.overall for m in comparison.metrics if m.metric == metric), None)


SIGNIFICANCE = 0.05


def significant(found: GroupComparison) -> bool:
    """For binary success, the exact McNemar test's p < 0.05 (a paired bootstrap over a few tasks collapses to a
    point and would call 5 of 5 significant); otherwise the paired 95% interval of A − B excludes 0."""
    if found.mcnemar is not None and found.mcnemar.p is not None:
        return found.mcnemar.p < SIGNIFICANCE
    difference = found.difference
    return difference.low is not None and difference.high is not None and (difference.low > 0 or difference.high < 0)


SIGNIFICANCE_TEXT = "* significant: exact McNemar p < 0.05 for binary success, else the 95% paired interval excludes 0"


def cell_text(found: GroupComparison | None) -> str:
    """"+0.250* (n=20, p=0.031)": the difference, * where it is `significant`, n and McNemar's p."""
    if found is None or found.difference.value is None:
        return "–"
    p = f", p={found.mcnemar.p:.2g}" if found.mcnemar and found.mcnemar.p is not None else ""
    return f"{found.difference.value:+.3f}{'*' if significant(found) else ''} (n={found.n}{p})"


def baseline_tables(comparisons: list[Comparison], baselines: dict[str, Baseline]) -> list[ReportTable]:
    """Per benchmark and compared metric: one row per run, its paired difference from the baseline per group and
    overall."""
    tables = []
    for benchmark, baseline in baselines.items():
        mine = [c for c in comparisons if c.benchmark == benchmark]
        if not mine:
            continue
        for metric in dict.fromkeys(m.metric for c in mine for m in c.metrics):  # a pair of conversational runs
            chosen = [(c, m) for c in mine for m in c.metrics if m.metric == metric]  # has more metrics than others
            groups = list(dict.fromkeys(g.group for _, m in chosen for g in m.groups))
            table = ReportTable(f"Paired against the baseline · {benchmark} · {metric}: run − {baseline.run.label}",
                                ["run", "n (paired)", *groups, "overall [95% paired bootstrap]", "McNemar (exact)"])
            for comparison, found in chosen:
                by_group = {g.group: g for g in found.groups}
                table.rows.append([comparison.a, str(found.overall.n),
                                   *(cell_text(by_group.get(group)) for group in groups),
                                   signed_text(found.overall.difference),
                                   found.overall.mcnemar.text() if found.overall.mcnemar else "–"])
            table.note = (f"{baseline.text()} Cells: A − B ({SIGNIFICANCE_TEXT}; n tasks both played; p: exact "
                          "McNemar). overall = "
                          f"{chosen[0][1].aggregation}. " + " ".join(f"{c.a} vs {c.b}: {c.coverage_text()}."
                                                                     for c, _ in chosen))
            tables.append(table)
    return tables


def matrix_table(runs: list[ScoredRun], pairs: dict[tuple[str, str], Comparison], metric: str) -> ReportTable:
    """All pairs of one benchmark's runs: row A − column B, overall, on the tasks both played."""
    labels = [run.label for run in runs]
    table = ReportTable(f"All pairs · {runs[0].result.benchmark} · {metric}: row − column", ["run", *labels],
                        note=f"Each cell: row − column overall on the tasks both runs played ({SIGNIFICANCE_TEXT}; p: "
                             "exact McNemar).")
    for a in labels:
        table.rows.append([a, *("" if a == b else cell_text(overall_of(pairs, a, b, metric)) for b in labels)])
    return table
