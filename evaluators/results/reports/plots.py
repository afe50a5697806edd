"""PNG plots for reports (matplotlib, Agg backend: no display needed, same pixels on every machine).

Written to be read, not decoded: groups run down the y axis (57 Shopping MMLU task names stay legible), one panel
per run or per comparison (small multiples, no legend to cover bars), each bar labelled with its value (so a zero
is visible as "0.00", not as a missing bar), and an error bar only where there is an interval.

- `rate_panels`: a run's rate per group (ASR and CAR for ShoppingBench), one panel per run, with 95% intervals
  (Wilson for one binary outcome per task, bootstrap otherwise).
- `humans_vs_models`: the ShoppingBench paper's Fig. 6: each human next to each model per intent, on the tasks all
  of them played; baselines drawn apart and labelled as baselines, never counted among the models.
- `paired_differences`: A − B per group with its paired bootstrap interval, one panel per pair of runs.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluators.results.reports.compare import Comparison
from evaluators.results.reports.tables import KIND_ORDER, KIND_PLURAL, ScoredRun, _wilson_by_group, kind_order
from evaluators.results.stats import Interval, bootstrap_ci, wilson_ci

KIND_COLOURS = {
    "human": ["#d95f02", "#e6ab02", "#a6761d", "#e7298a"],
    "model": ["#1b9e77", "#377eb8", "#66a61e", "#4daf4a", "#7570b3"],
    "mcp-client": ["#7570b3", "#984ea3"],
    "baseline": ["#7f7f7f", "#b3b3b3", "#4d4d4d"],
}
KIND_HATCH = {"human": "//", "baseline": "..", "model": None, "mcp-client": "\\\\"}
VALUE_COLUMN = 1.03
"""Data x where each bar's value is written (right of the [0, 1] range, so labels never sit on bars or intervals)."""
LABEL_WIDTH = 40
"""Group labels longer than this are wrapped onto two lines (Shopping MMLU task names), at "_", "-" or spaces."""
LABEL_CHAR_IN = 0.068
"""Approximate width in inches of one character of an 8-point tick label (sizes the label margin)."""
SUPTITLE_IN = 0.32
"""Height added to the figure for its title, in inches (and SUPTITLE_LINE_IN for each line it wraps onto)."""
SUPTITLE_LINE_IN = 0.16
SUPTITLE_CHAR_IN = 0.075
"""Approximate width in inches of one character of the 9-point title (where it wraps: a one-run figure is narrow)."""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _label(text: str, width: int = LABEL_WIDTH) -> str:
    """At most two lines of `width` characters, broken after "_", "-" or a space (never inside a word, unless one
    word is longer than a line); what does not fit ends in "…"."""
    if len(text) <= width:
        return text
    lines = [""]
    for piece in re.split(r"(?<=[_\s-])", text):
        while len(piece) > width:  # a single word longer than a line
            if lines[-1]:
                lines.append("")
            lines[-1], piece = piece[:width], piece[width:]
            lines.append("")
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines.append("")
        lines[-1] += piece
    lines = [line.rstrip() for line in lines if line.strip()]
    if len(lines) > 2:
        lines = [lines[0], lines[1][: width - 1] + "…"]
    return "\n".join(lines)


def _label_layout(labels: list[str]) -> tuple[float, float]:
    """(inches per row, inches for the label margin) for these y labels: rows are taller where a label wraps, so
    two-line labels never touch their neighbours."""
    wrapped = [_label(label) for label in labels]
    two_lines = any("\n" in label for label in wrapped)
    longest = max((len(line) for label in wrapped for line in label.split("\n")), default=0)
    return (0.36 if two_lines else 0.27), LABEL_CHAR_IN * longest + 0.3


def _band_rows(axes: Any, count: int) -> None:
    """Shade every other row when there are many, so a row can be followed across panels (57 Shopping MMLU tasks)."""
    if count < 8:
        return
    for row in range(1, count, 2):
        axes.axhspan(row - 0.5, row + 0.5, color="#f0f0f0", zorder=0, linewidth=0)


def _colour(kind: str, index: int) -> str:
    palette = KIND_COLOURS.get(kind, KIND_COLOURS["model"])
    return palette[index % len(palette)]


def _colours(runs: list[ScoredRun]) -> list[str]:
    seen: dict[str, int] = {}
    colours = []
    for run in runs:
        colours.append(_colour(run.kind, seen.get(run.kind, 0)))
        seen[run.kind] = seen.get(run.kind, 0) + 1
    return colours


def _plot_groups(runs: list[ScoredRun], metric: str) -> list[str]:
    groups = []
    for run in runs:
        for row in run.result.metric_rows():
            if row.metric == metric and row.group != "overall" and ":" not in row.group:
                groups.append(row.group)
    return list(dict.fromkeys(groups))


def _draw_bars(axes: Any, positions: Sequence[float], values: list[float | None], intervals: list[Interval | None],
               height: float, colour: str, hatch: str | None, label: str | None = None) -> None:
    """Horizontal bars on [0, 1] with their value (and n) in a column right of 1.0; a zero is drawn as a thick stub
    at 0 so it is visible; an error bar only for a real (non-degenerate) interval."""
    shown = [(y, v) for y, v in zip(positions, values, strict=True) if v is not None]
    axes.barh([y for y, _ in shown], [v for _, v in shown], height=height, color=colour, hatch=hatch,
              edgecolor="black", linewidth=0.4, label=label, alpha=0.85)
    for y, value, interval in zip(positions, values, intervals, strict=True):
        if value is None:
            axes.text(VALUE_COLUMN, y, "not played", va="center", ha="left", fontsize=7, color="#555555",
                      style="italic")
            continue
        if value == 0:
            axes.barh([y], [0.012], height=height, color=colour, edgecolor="black", linewidth=0.8)
        if interval is not None and interval.low is not None and interval.high is not None \
                and interval.high > interval.low:
            axes.errorbar(value, y, xerr=[[value - interval.low], [interval.high - value]], fmt="none",
                          ecolor="black", elinewidth=1.1, capsize=2.5)
        n = f" (n={interval.n})" if interval is not None and interval.n else ""
        axes.text(VALUE_COLUMN, y, f"{value:.2f}{n}", va="center", ha="left", fontsize=7)


def rate_panels(runs: list[ScoredRun], metric: str, path: Path) -> Path:
    """One panel per run: the metric per group (intent / task) with its interval, groups down the y axis."""
    figure = rate_figure(runs, metric)
    figure.savefig(path, dpi=110)
    _pyplot().close(figure)
    return path


def rate_figure(runs: list[ScoredRun], metric: str) -> Any:
    """The figure `rate_panels` writes (a matplotlib Figure, for callers that lay it out further or check it)."""
    plt = _pyplot()
    runs = kind_order(runs)
    groups = _plot_groups(runs, metric)
    row_in, label_in = _label_layout(groups)
    width_in = min(4.2 * len(runs), 18) + label_in
    binary = [set(_wilson_by_group(run, metric)) & set(groups) for run in runs]
    if all(found == set(groups) for found in binary):
        interval_kind = "Wilson 95% interval (binary success per task)"
    elif any(binary):
        interval_kind = "Wilson 95% interval where success is binary per task, else 95% bootstrap over tasks"
    else:
        interval_kind = "95% bootstrap interval over tasks"
    title = textwrap.fill(f"{runs[0].result.benchmark}: {metric} per group, with {interval_kind}",
                          width=int(width_in / SUPTITLE_CHAR_IN))
    extra_lines = title.count("\n")
    height_in = max(2.6, row_in * len(groups) + 1.4 + SUPTITLE_IN + SUPTITLE_LINE_IN * extra_lines)
    figure, axes_list = plt.subplots(1, len(runs), figsize=(width_in, height_in), sharey=True, squeeze=False)
    positions = list(range(len(groups)))
    for axes, run, colour in zip(axes_list[0], runs, _colours(runs), strict=True):
        rows = {r.group: r for r in run.result.metric_rows() if r.metric == metric}
        wilson = _wilson_by_group(run, metric)
        values, intervals = [], []
        for group in groups:
            row = rows.get(group)
            values.append(None if row is None else row.value)
            intervals.append(wilson.get(group) or (Interval(value=row.value, low=row.low, high=row.high, n=row.n)
                                                   if row is not None else None))
        _band_rows(axes, len(groups))
        _draw_bars(axes, positions, values, intervals, 0.7, colour, KIND_HATCH.get(run.kind))
        overall = rows.get("overall")
        if run.coverage is not None and not run.coverage.complete:
            overall_text = f"overall: {run.coverage.text()}"
        elif overall is not None and overall.value is not None:
            overall_text = f"overall {overall.value:.3f}"
        else:
            overall_text = ""
        axes.set_title(f"{_label(run.label)}\n({run.kind}; {overall_text})", fontsize=8)
        axes.set_xlim(-0.02, 1.32)
        axes.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
        axes.grid(axis="x", linestyle=":", linewidth=0.5)
        axes.set_xlabel(metric)
    first = axes_list[0][0]
    first.set_yticks(positions, [_label(g) for g in groups], fontsize=8)
    first.set_ylim(len(groups) - 0.5, -0.5)  # first group on top, no empty rows above or below
    figure.suptitle(title, fontsize=9, y=1 - 0.08 / height_in, va="top")
    figure.tight_layout()  # it keeps the title (placed in inches from the top) clear of the panel titles
    return figure


def _shared_tasks(runs: list[ScoredRun], metric: str) -> set[str]:
    tables = [set(run.task_outcomes(metric)) for run in runs]
    return set.intersection(*tables) if tables else set()


def humans_vs_models(runs: list[ScoredRun], path: Path) -> Path:
    """The ShoppingBench paper's Fig. 6: per intent, each human and each other agent side by side, computed on the
    tasks every plotted run played (so bars are comparable), grouped by agent kind."""
    plt = _pyplot()
    runs = kind_order(runs)
    metric = runs[0].result.primary_metric
    shared = _shared_tasks(runs, metric)
    groups = _plot_groups(runs, metric)
    n_runs = len(runs)
    band = 0.8 / n_runs
    figure, axes = plt.subplots(figsize=(9.5, max(3.0, 0.32 * n_runs * (len(groups) + 1) + 1.4)))
    colours = _colours(runs)
    ordered_groups = [*groups, "average over groups\n(unweighted)"]
    for index, (run, colour) in enumerate(zip(runs, colours, strict=True)):
        tasks = {t: o for t, o in run.task_outcomes(metric).items() if t in shared}
        values: list[float | None] = []
        intervals: list[Interval | None] = []
        group_means: list[float] = []
        for group in groups:
            found = [o for o in tasks.values() if o.group == group]
            if not found:
                values.append(None)
                intervals.append(None)
                continue
            means = [o.mean for o in found]
            binary = all(o.binary for o in found)
            interval = wilson_ci(int(sum(means)), len(means)) if binary else bootstrap_ci(means)
            values.append(interval.value)
            intervals.append(interval)
            if interval.value is not None:  # always: the group has tasks
                group_means.append(interval.value)
        values.append(sum(group_means) / len(group_means) if group_means else None)
        intervals.append(None)
        positions = [g - 0.4 + band * (index + 0.5) for g in range(len(ordered_groups))]
        label = f"{run.label} ({run.kind})"
        _draw_bars(axes, positions, values, intervals, band * 0.92, colour, KIND_HATCH.get(run.kind), label)
    axes.set_yticks(range(len(ordered_groups)), [_label(g) for g in ordered_groups], fontsize=9)
    axes.invert_yaxis()
    axes.set_xlim(-0.02, 1.32)
    axes.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    axes.grid(axis="x", linestyle=":", linewidth=0.5)
    axes.set_xlabel(f"{metric} (Wilson 95% interval; no interval on the average)")
    kinds = [k for k in KIND_ORDER if any(run.kind == k for run in runs)]
    others = [KIND_PLURAL[k] for k in kinds if k != "human"] or ["models"]
    axes.set_title(f"Humans vs {' and '.join(others)} (the ShoppingBench paper's Fig. 6) on the {len(shared)} tasks "
                   "all runs played" + ("\nbaselines are drawn as baselines, not counted among models"
                                        if "baseline" in kinds else ""), fontsize=9)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def paired_differences(comparisons: list[Comparison], path: Path, metric: str | None = None) -> Path:
    """One panel per pair of runs: A − B per group and overall, with the paired bootstrap 95% interval."""
    figure = paired_figure(comparisons, metric)
    figure.savefig(path, dpi=110)
    _pyplot().close(figure)
    return path


def paired_figure(comparisons: list[Comparison], metric: str | None = None) -> Any:
    """The figure `paired_differences` writes. A pair that shares no task gets no panel (it has nothing to draw; the
    comparison table says why)."""
    plt = _pyplot()
    panels = []
    for comparison in comparisons:
        chosen = next((m for m in comparison.metrics if metric is None or m.metric == metric), None)
        if chosen is not None and comparison.shared:
            panels.append((comparison, chosen))
    if not panels:
        raise ValueError("no pair of runs shares a task with the metric to plot")
    groups = list(dict.fromkeys(g.group for _, m in panels for g in m.groups))
    labels = [*groups, "overall"]
    row_in, label_in = _label_layout(labels)
    figure, axes_list = plt.subplots(1, len(panels), figsize=(min(4.6 * len(panels), 18) + label_in,
                                                              max(2.6, row_in * len(labels) + 1.8)),
                                     sharey=True, squeeze=False)
    for axes, (comparison, chosen) in zip(axes_list[0], panels, strict=True):
        by_group = {g.group: g for g in chosen.groups}
        by_group["overall"] = chosen.overall
        _band_rows(axes, len(labels))
        axes.axvline(0, color="black", linewidth=0.8)
        for y, label in enumerate(labels):
            found = by_group.get(label)
            value = None if found is None else found.difference.value
            if found is None or value is None:
                axes.text(0, y, "not played by both", va="center", ha="center", fontsize=7, style="italic",
                          color="#555555")
                continue
            interval = found.difference
            colour = "#1b9e77" if value > 0 else "#d95f02" if value < 0 else "#555555"
            if interval.low is not None and interval.high is not None and interval.high > interval.low:
                axes.plot([interval.low, interval.high], [y, y], color=colour, linewidth=2.0)
            axes.plot([value], [y], "o", color=colour, markersize=5 if label != "overall" else 7)
            test = f", McNemar p={found.mcnemar.p:.3g}" if found.mcnemar else ""
            axes.text(1.02, y, f"{value:+.2f} (n={found.n}{test})", va="center", ha="left", fontsize=7,
                      transform=axes.get_yaxis_transform())
        axes.axhline(len(labels) - 1.5, color="#999999", linewidth=0.6, linestyle="--")
        axes.set_xlim(-1.05, 1.05)
        axes.grid(axis="x", linestyle=":", linewidth=0.5)
        axes.set_xlabel(f"{chosen.metric}: A − B (paired bootstrap 95%)", fontsize=8)
        axes.set_title(f"A = {_label(comparison.a)}\nB = {_label(comparison.b)}\n{comparison.shared} shared tasks",
                       fontsize=8)
    first = axes_list[0][0]
    first.set_yticks(range(len(labels)), [_label(g) for g in labels], fontsize=8)
    first.set_ylim(len(labels) - 0.5, -0.5)
    figure.tight_layout()
    figure.subplots_adjust(wspace=0.75)
    return figure
