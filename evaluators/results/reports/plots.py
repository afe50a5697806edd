"""The figures of a report (matplotlib, Agg backend: no display needed, same pixels on every machine).

One figure per metric, with every run in it, ordered as the leaderboard ranks them (best first) and coloured by
kind (models in cool colours, humans warm and hatched //, baselines grey and dotted), the same run in the same
colour in every figure:
- `rate_figure`: each run's rate per group, groups down the y axis and the runs' bars side by side within a
  group, with 95% intervals (Wilson for one binary outcome per task, bootstrap otherwise) and each bar's value
  written beside it; last, the overall the leaderboard ranks by (on the shared tasks when runs cover different ones).
- `humans_vs_models_figure`: the ShoppingBench paper's Fig. 6: humans next to the other agents per group, on the
  tasks all of them played; baselines drawn as baselines.
- `paired_figure`: each run's paired difference from the baseline per group and overall (a dot, filled where it is
  significant: exact McNemar p < 0.05 for binary success, else its 95% paired bootstrap interval excludes 0).
- `pairs_figure`: all pairs as a matrix, row − column overall, with its significance, one cell per pair.
With more bars than a grouped chart keeps legible (Shopping MMLU's 57 tasks), the rates and differences are a
heatmap instead: groups down the y axis, runs across, each value in its cell (the intervals are in the tables).
"""

from __future__ import annotations

import textwrap
from typing import Any

from benchmarks.errors import BadInput
from evaluators.results.reports.baseline import SIGNIFICANCE_TEXT, overall_of, significant
from evaluators.results.reports.charts import Chart, Grid, Series, bar_chart, dot_chart, heatmap
from evaluators.results.reports.compare import Comparison, GroupComparison
from evaluators.results.reports.figure_style import (
    KIND_COLOURS,
    KIND_TEXT,
    Palette,
    column_label,
    group_label,
    legend_label,
)
from evaluators.results.reports.leaderboard import leaderboard, shared_score
from evaluators.results.reports.tables import KIND_ORDER, KIND_PLURAL, ScoredRun, wilson_by_group
from evaluators.results.stats import Interval, bootstrap_ci, wilson_ci

MAX_BARS = 96
"""Groups × runs beyond which a grouped chart becomes a heatmap (8 intents × 12 runs still draw as bars)."""
RATE_TICKS = [0.0, 0.25, 0.5, 0.75, 1.0]
DIFFERENCE_TICKS = [-1.0, -0.5, 0.0, 0.5, 1.0]
OVERALL = "overall"

_label = group_label  # the name tests and older callers use


def ranked(runs: list[ScoredRun]) -> list[ScoredRun]:
    """The runs as their benchmark's leaderboard ranks them (best first)."""
    return leaderboard(runs).runs


def _plot_groups(runs: list[ScoredRun], metric: str) -> list[str]:
    groups = [row.group for run in runs for row in run.metric_rows()
              if row.metric == metric and row.group != OVERALL and ":" not in row.group]
    return list(dict.fromkeys(groups))


def _span(interval: Interval | None) -> tuple[float, float] | None:
    if interval is None or interval.low is None or interval.high is None or interval.high <= interval.low:
        return None
    return interval.low, interval.high


def _value_text(value: float | None, interval: Interval | None) -> str:
    if value is None:
        return "not played"
    return f"{value:.2f}" + (f" (n={interval.n})" if interval is not None and interval.n else "")


def _interval_kind(runs: list[ScoredRun], metric: str, groups: list[str]) -> str:
    binary = [set(wilson_by_group(run, metric)) & set(groups) for run in runs]
    if all(found == set(groups) for found in binary):
        return "Wilson 95% interval (binary success per task)"
    if any(binary):
        return "Wilson 95% interval where success is binary per task, else 95% bootstrap over tasks"
    return "95% bootstrap interval over tasks"


def rate_figure(runs: list[ScoredRun], metric: str) -> Any:
    """Every run's `metric` per group in one figure (a matplotlib Figure, for callers that check it), the last row
    what the leaderboard ranks by: the overall, or the mean on the tasks every run played when runs cover different
    tasks (a partial run's overall is not shown anywhere)."""
    board = leaderboard(runs)
    runs = board.runs
    groups = _plot_groups(runs, metric)
    rows = [*groups, board.last_row] if board.shared else groups
    values: list[list[float | None]] = []
    intervals: list[list[Interval | None]] = []
    for run in runs:
        found = {r.group: r for r in run.metric_rows() if r.metric == metric}
        wilson = wilson_by_group(run, metric)
        mine: list[Interval | None] = []
        for group in groups:
            row = found.get(group)
            mine.append(wilson.get(group) or (Interval(value=row.value, low=row.low, high=row.high, n=row.n)
                                              if row is not None else None))
        if board.shared and board.ranked_by_overall:
            row = found.get(OVERALL)
            mine.append(wilson.get(OVERALL) or (Interval(value=row.value, low=row.low, high=row.high, n=row.n)
                                                if row is not None else None))
        elif board.shared:
            mine.append(shared_score(run, metric, board.shared))
        values.append([None if interval is None else interval.value for interval in mine])
        intervals.append(mine)
    texts = [[_value_text(v, i) for v, i in zip(vs, ins, strict=True)] for vs, ins in zip(values, intervals,
                                                                                           strict=True)]
    heading = f"{runs[0].result.benchmark}: {metric} per group, runs best first"
    return _grouped(runs, rows, (values, intervals, texts), (heading, _interval_kind(runs, metric, groups)), metric,
                    len(groups) if board.shared else None)


Columns = tuple[list[list[float | None]], list[list[Interval | None]], list[list[str]]]
"""Per run, down the rows: values, their intervals, and the text written beside each."""


def _grouped(runs: list[ScoredRun], rows: list[str], columns: Columns, heading: tuple[str, str], xlabel: str,
             separator: int | None) -> Any:
    """Grouped bars, or a heatmap when there are too many bars to read. `heading`: the title, and what its
    intervals are (said only where they are drawn)."""
    values, intervals, texts = columns
    palette = Palette(runs)
    if len(rows) * len(runs) > MAX_BARS:
        cells = [["–" if (value := values[c][r]) is None else f"{value:.2f}" for c in range(len(runs))]
                 for r in range(len(rows))]
        return heatmap(Grid(f"{heading[0]}; each value in its cell (intervals: the report's tables)", rows,
                            [column_label(run) for run in runs],
                            [[values[c][r] for c in range(len(runs))] for r in range(len(rows))], cells,
                            cmap="Blues", vmin=0.0, vmax=1.0, column_colours=[KIND_TEXT.get(r.kind, "black")
                                                                              for r in runs],
                            separator=separator, xlabel=xlabel))
    series = [Series(legend_label(run), palette.colour(run), palette.hatch(run), values[i],
                     [_span(interval) for interval in intervals[i]], texts[i]) for i, run in enumerate(runs)]
    return bar_chart(Chart(f"{heading[0]}, with {heading[1]}", rows, series, xlabel, (0.0, 1.0), RATE_TICKS,
                           separator=separator, legend_title="runs, best first"))


def _shared_tasks(runs: list[ScoredRun], metric: str) -> set[str]:
    tables = [set(run.task_outcomes(metric)) for run in runs]
    return set.intersection(*tables) if tables else set()


def humans_vs_models_figure(runs: list[ScoredRun]) -> Any:
    """Per group, each human and each other agent side by side, computed on the tasks every plotted run played (so
    bars are comparable), and their unweighted average over groups."""
    runs = ranked(runs)
    metric = runs[0].result.primary_metric
    shared = _shared_tasks(runs, metric)
    groups = _plot_groups(runs, metric)
    rows = [*groups, "average over groups (unweighted)"]
    values, intervals, texts = [], [], []
    for run in runs:
        tasks = {t: o for t, o in run.task_outcomes(metric).items() if t in shared}
        mine_values: list[float | None] = []
        mine_intervals: list[Interval | None] = []
        for group in groups:
            means = [o.mean for o in tasks.values() if o.group == group]
            binary = all(o.binary for o in tasks.values() if o.group == group)
            interval = None if not means else wilson_ci(int(sum(means)), len(means)) if binary else bootstrap_ci(means)
            mine_values.append(None if interval is None else interval.value)
            mine_intervals.append(interval)
        played = [v for v in mine_values if v is not None]
        mine_values.append(sum(played) / len(played) if played else None)
        mine_intervals.append(None)
        values.append(mine_values)
        intervals.append(mine_intervals)
        texts.append([_value_text(v, i) for v, i in zip(mine_values, mine_intervals, strict=True)])
    kinds = [k for k in KIND_ORDER if any(run.kind == k for run in runs)]
    others = [KIND_PLURAL[k] for k in kinds if k != "human"] or ["models"]
    heading = (f"Humans vs {' and '.join(others)} (the ShoppingBench paper's Fig. 6) on the {len(shared)} tasks all "
               "runs played" + ("; baselines are drawn as baselines, not counted among models"
                                if "baseline" in kinds else ""))
    return _grouped(runs, rows, (values, intervals, texts), (heading, "Wilson 95% intervals for binary success per "
                    "task, else bootstrap; none on the average"), metric, len(groups))


def _chosen(comparison: Comparison, metric: str | None) -> Any:
    return next((m for m in comparison.metrics if metric is None or m.metric == metric), None)


def paired_figure(comparisons: list[Comparison], metric: str | None = None,
                  runs: list[ScoredRun] | None = None) -> Any:
    """Each comparison's A − B per group and overall in one figure (`runs`, when given, colours each A as it is
    coloured elsewhere). A comparison that shares no task is left out (it has nothing to draw; its table says why)."""
    panels = [(c, chosen) for c in comparisons if c.shared and (chosen := _chosen(c, metric)) is not None]
    if not panels:
        raise BadInput("no pair of runs shares a task with the metric to plot")
    if runs:  # in the leaderboard's order, as every other figure
        order = {run.label: index for index, run in enumerate(ranked(runs))}
        panels.sort(key=lambda panel: order.get(panel[0].a, len(order)))
    name = panels[0][1].metric
    groups = list(dict.fromkeys(g.group for _, m in panels for g in m.groups))
    rows = [*groups, OVERALL]
    bases = {c.b for c, _ in panels}
    one_base = len(bases) == 1
    kinds = {run.label: run.kind for run in runs or []}
    labels = [_kind_label(c.a, kinds) if one_base else f"{c.a} − {c.b}" for c, _ in panels]
    found: list[list[GroupComparison | None]] = []
    for _, chosen in panels:
        by_group = {g.group: g for g in chosen.groups}
        found.append([by_group.get(group) for group in groups] + [chosen.overall])
    against = f"baseline {_kind_label(next(iter(bases)), kinds)}" if one_base else "B"
    heading = f"{panels[0][0].benchmark}: {name}, each run − {against}, on the shared tasks each pair played"
    values = [[None if g is None else g.difference.value for g in mine] for mine in found]
    if len(rows) * len(panels) > MAX_BARS:
        cells = [[_difference_cell(found[c][r]) for c in range(len(panels))] for r in range(len(rows))]
        grid_values = [[values[c][r] for c in range(len(panels))] for r in range(len(rows))]
        return heatmap(Grid(f"{heading}; {SIGNIFICANCE_TEXT}", rows, [_wrap(label) for label in labels],
                            grid_values, cells, cmap="RdBu", vmin=-1.0, vmax=1.0, separator=len(groups),
                            xlabel=f"{name}: A − B", column_colours=[KIND_TEXT.get(kinds.get(c.a, ""), "black")
                                                                     for c, _ in panels]))
    heading += (" (paired bootstrap 95%; filled: significant, exact McNemar p < 0.05 for binary success, else the "
                "interval excludes 0)")
    colours = Palette(runs).colours if runs else {}
    series = []
    for index, (label, mine) in enumerate(zip(labels, found, strict=True)):
        colour = colours.get(panels[index][0].a) or _nth_colour(index)
        series.append(Series(label, colour, "", values[index],
                             [None if g is None else _span(g.difference) for g in mine],
                             [_difference_text(g) for g in mine],
                             [g is not None and significant(g) for g in mine]))
    return dot_chart(Chart(heading, rows, series, f"{name}: A − B", (-1.05, 1.05), DIFFERENCE_TICKS,
                           separator=len(groups), zero_line=True,
                           legend_title="A, best first" if one_base else "A − B"))


def _kind_label(label: str, kinds: dict[str, str]) -> str:
    """"alice (human)" where the run's kind is known."""
    return f"{label} ({kinds[label]})" if label in kinds else label


def _nth_colour(index: int) -> str:
    """A colour for a comparison whose run is not known (no `runs` given)."""
    palette = KIND_COLOURS["model"]
    return palette[index % len(palette)]


def _wrap(label: str) -> str:
    return "\n".join(textwrap.wrap(label, width=22, break_on_hyphens=False)[:3]) or label


def _difference_text(found: GroupComparison | None) -> str:
    if found is None or found.difference.value is None:
        return "not played by both"
    test = f", p={found.mcnemar.p:.2g}" if found.mcnemar and found.mcnemar.p is not None else ""
    return f"{found.difference.value:+.2f} (n={found.n}{test})"


def _difference_cell(found: GroupComparison | None) -> str:
    if found is None or found.difference.value is None:
        return "–"
    return f"{found.difference.value:+.2f}{'*' if significant(found) else ''}"


def pairs_figure(runs: list[ScoredRun], pairs: dict[tuple[str, str], Comparison], metric: str) -> Any:
    """All pairs of the runs (leaderboard order) as a matrix: row − column overall on the tasks both played, with
    * where its paired 95% interval excludes 0 and McNemar's p for binary success."""
    runs = ranked(runs)
    labels = [run.label for run in runs]
    values: list[list[float | None]] = []
    texts: list[list[str]] = []
    for a in labels:
        found = [None if a == b else overall_of(pairs, a, b, metric) for b in labels]
        values.append([None if f is None else f.difference.value for f in found])
        texts.append(["" if a == b else _matrix_cell(f) for b, f in zip(labels, found, strict=True)])
    colours = [KIND_TEXT.get(run.kind, "black") for run in runs]
    heading = (f"{runs[0].result.benchmark}: {metric}, all pairs: row − column on the tasks both played "
               f"({SIGNIFICANCE_TEXT})")
    return heatmap(Grid(heading, [f"{run.label} ({run.kind})" for run in runs], [column_label(run) for run in runs],
                        values, texts, cmap="RdBu", vmin=-1.0, vmax=1.0, column_colours=colours, row_colours=colours))


def _matrix_cell(found: GroupComparison | None) -> str:
    """Two lines: the difference (* where significant), then McNemar's p (or n where there is no test)."""
    if found is None or found.difference.value is None:
        return "–"
    p = f"p={found.mcnemar.p:.2g}" if found.mcnemar and found.mcnemar.p is not None else f"n={found.n}"
    return f"{_difference_cell(found)}\n{p}"
