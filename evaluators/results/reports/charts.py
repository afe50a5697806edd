"""The chart shapes report figures are drawn in, knowing nothing of runs or benchmarks: grouped bars and grouped dots
(groups down the y axis, one row per series within a group, its value written beside it) and a heatmap (one value
per cell, written in the cell).

A grouped chart gives every series row the same height in inches (room for its value at SMALL_FONT), so twelve
series make a taller figure, not smaller text; a heatmap gives every cell room for its text. The legend sits outside
the axes, right, so it covers nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evaluators.results.reports.figure_style import (
    FONT,
    SMALL_FONT,
    TITLE_FONT,
    group_label,
    heatmap_text_colour,
    new_figure,
    text_width_in,
    title,
    title_in,
)

ROW_IN = 0.2
"""Height of one series' row in a group: an 8-point value line and a little air."""
GROUP_GAP = 1.0
"""Space between two groups, in rows."""
PLOT_IN = 5.0
"""Width of the data area (bars, intervals), whatever is written beside it."""
CELL_HEIGHT_IN = 0.28
"""Height of a heatmap cell holding one line of text (LINE_IN more per extra line)."""
LINE_IN = 0.14
LABEL_LINE_IN = 0.16
"""Height of one line of a FONT-point row label: a row holding a two-line label is that much taller."""


@dataclass
class Series:
    """One run's (or one comparison's) values down the groups of a grouped chart."""

    label: str
    colour: str
    hatch: str
    values: list[float | None]
    intervals: list[tuple[float, float] | None]
    """A real (non-degenerate) interval per group, else None: no error bar is drawn for a point interval."""
    texts: list[str]
    """What is written beside each row: its value (and n), or why there is none."""
    filled: list[bool] = field(default_factory=list)
    """Dots: filled where the difference is significant, hollow where not (bars ignore it)."""


@dataclass
class Chart:
    """A grouped chart: groups down the y axis, each holding one row per series."""

    title: str
    groups: list[str]
    series: list[Series]
    xlabel: str
    xlim: tuple[float, float]
    xticks: list[float]
    separator: int | None = None
    """A dashed line above this group (an overall or average row set apart)."""
    zero_line: bool = False
    legend_title: str = ""


def _row_position(chart: Chart) -> Callable[[int, int], float]:
    """y of series `index`'s row in group `group` (one unit per row; groups GROUP_GAP rows apart)."""
    per_group = len(chart.series) + GROUP_GAP
    return lambda group, index: group * per_group + index


def _grouped_axes(chart: Chart) -> tuple[Any, Any]:
    """A figure sized to the chart, with its one axes set up: group labels, x range and ticks, the value column."""
    rows = len(chart.series)
    per_group = rows + GROUP_GAP
    labels = [group_label(group) for group in chart.groups]
    texts = [text for series in chart.series for text in series.texts]
    value_in = text_width_in(texts, SMALL_FONT) + 0.15
    label_in = text_width_in(labels) + 0.25
    legend_in = text_width_in([s.label for s in chart.series] + [chart.legend_title]) + 0.75
    width_in = label_in + PLOT_IN + value_in + legend_in + 0.3
    heading = title(chart.title, width_in - legend_in)  # the legend has the top right corner
    plot_in = len(chart.groups) * per_group * ROW_IN
    height_in = max(plot_in + title_in(heading) + 0.75, 0.24 * rows + 0.9, 2.4)
    figure = new_figure(width_in, height_in)
    axes = figure.add_subplot()
    low, high = chart.xlim
    span = high - low
    axes.set_xlim(low, high + span * value_in / PLOT_IN)  # the written values sit right of the data range
    axes.set_xticks(chart.xticks)
    axes.tick_params(axis="x", labelsize=FONT)
    axes.grid(axis="x", linestyle=":", linewidth=0.5)
    axes.set_xlabel(chart.xlabel, fontsize=FONT)
    centres = [g * per_group + (rows - 1) / 2 for g in range(len(chart.groups))]
    axes.set_yticks(centres, labels, fontsize=FONT)
    axes.tick_params(axis="y", length=0)
    axes.set_ylim(len(chart.groups) * per_group - GROUP_GAP / 2 - 0.5, -GROUP_GAP / 2 - 0.5)
    axes.axvline(high + span * 0.005, color="#cccccc", linewidth=0.6)
    for group in range(1, len(chart.groups), 2):  # every other group shaded, so a group's rows read together
        axes.axhspan(group * per_group - GROUP_GAP / 2 - 0.5, (group + 1) * per_group - GROUP_GAP / 2 - 0.5,
                     color="#f2f2f2", zorder=0, linewidth=0)
    if chart.separator is not None:
        axes.axhline(chart.separator * per_group - GROUP_GAP / 2 - 0.5, color="#666666", linewidth=0.8,
                     linestyle="--")
    if chart.zero_line:
        axes.axvline(0, color="black", linewidth=0.8)
    figure.suptitle(heading, fontsize=TITLE_FONT, x=0.01, ha="left")
    return figure, axes


def _legend(figure: Any, handles: list[Any], chart: Chart) -> None:
    figure.legend(handles, [s.label for s in chart.series], loc="outside right upper", fontsize=FONT,
                  title=chart.legend_title or None, title_fontsize=FONT, frameon=False)


def _write_values(axes: Any, chart: Chart) -> None:
    """Each row's text in the value column, right of the data range."""
    position = _row_position(chart)
    column = chart.xlim[1] + (chart.xlim[1] - chart.xlim[0]) * 0.02
    for index, series in enumerate(chart.series):
        for group, text in enumerate(series.texts):
            if text:
                italic = series.values[group] is None
                axes.text(column, position(group, index), text, va="center", ha="left", fontsize=SMALL_FONT,
                          style="italic" if italic else "normal", color="#555555" if italic else "black")


def bar_chart(chart: Chart) -> Any:
    """Horizontal bars, one per series in each group, with error bars where there is an interval; a zero is drawn
    as a thick stub so it reads as 0, not as a missing bar."""
    figure, axes = _grouped_axes(chart)
    position = _row_position(chart)
    handles = []
    stub = (chart.xlim[1] - chart.xlim[0]) * 0.012
    for index, series in enumerate(chart.series):
        shown = [(position(g, index), v) for g, v in enumerate(series.values) if v is not None]
        handle = axes.barh([y for y, _ in shown], [max(v, stub) for _, v in shown], height=0.82,
                           color=series.colour, hatch=series.hatch or None, edgecolor="black", linewidth=0.4)
        handles.append(handle)
        for group, interval in enumerate(series.intervals):
            value = series.values[group]
            if interval is not None and value is not None:
                low, high = interval
                axes.errorbar(value, position(group, index), xerr=[[value - low], [high - value]], fmt="none",
                              ecolor="black", elinewidth=1.0, capsize=2.0)
    _write_values(axes, chart)
    _legend(figure, handles, chart)
    return figure


def dot_chart(chart: Chart) -> Any:
    """A dot per series in each group with its interval as a line: filled where `filled` says so, hollow where not."""
    from matplotlib.lines import Line2D

    figure, axes = _grouped_axes(chart)
    position = _row_position(chart)
    handles = []
    for index, series in enumerate(chart.series):
        handles.append(Line2D([], [], marker="o", linestyle="", color=series.colour, markersize=6))
        for group, value in enumerate(series.values):
            if value is None:
                continue
            y = position(group, index)
            interval = series.intervals[group]
            if interval is not None:
                axes.plot(interval, [y, y], color=series.colour, linewidth=1.8, solid_capstyle="butt")
            filled = series.filled[group] if series.filled else True
            axes.plot([value], [y], "o", color=series.colour, markersize=6,
                      markerfacecolor=series.colour if filled else "white", markeredgewidth=1.4)
    _write_values(axes, chart)
    _legend(figure, handles, chart)
    return figure


@dataclass
class Grid:
    """A heatmap: one value per (row, column), each written in its cell."""

    title: str
    rows: list[str]
    columns: list[str]
    values: list[list[float | None]]
    """rows × columns; None for a cell without a value (drawn blank)."""
    texts: list[list[str]]
    cmap: str
    vmin: float
    vmax: float
    column_colours: list[str] = field(default_factory=list)
    row_colours: list[str] = field(default_factory=list)
    separator: int | None = None
    """A dashed line above this row."""
    xlabel: str = ""


def heatmap(grid: Grid) -> Any:
    """Rows down the y axis, columns along the top (their labels turned upright, so any number of columns fit
    side by side), every cell's text inside its cell."""
    import numpy as np

    all_texts = [text for row in grid.texts for text in row]
    lines = max((text.count("\n") + 1 for text in all_texts), default=1)
    column_lines = max((label.count("\n") + 1 for label in grid.columns), default=1)
    cell_w = max(text_width_in(all_texts, SMALL_FONT) + 0.16, 0.19 * column_lines + 0.1, 0.5)
    labels = [group_label(row) for row in grid.rows]
    label_lines = max((label.count("\n") + 1 for label in labels), default=1)
    cell_h = max(CELL_HEIGHT_IN + LINE_IN * (lines - 1), LABEL_LINE_IN * label_lines + 0.06)
    label_in = text_width_in(labels) + 0.3
    top_in = text_width_in(grid.columns) + 0.3
    width_in = max(label_in + cell_w * len(grid.columns) + 0.5, 4.0)
    heading = title(grid.title, width_in)
    height_in = cell_h * len(grid.rows) + top_in + title_in(heading) + (0.45 if grid.xlabel else 0.2)
    figure = new_figure(width_in, height_in)
    axes = figure.add_subplot()
    data = np.ma.masked_invalid(np.array([[np.nan if v is None else v for v in row] for row in grid.values],
                                         dtype=float))
    colours = axes.imshow(data, cmap=grid.cmap, vmin=grid.vmin, vmax=grid.vmax, aspect="auto",
                          interpolation="nearest")
    axes.set_facecolor("#eeeeee")
    cmap = colours.get_cmap()
    for r, row in enumerate(grid.texts):
        for c, text in enumerate(row):
            value = grid.values[r][c]
            colour = "#555555" if value is None else heatmap_text_colour(cmap(colours.norm(value)))
            axes.text(c, r, text, ha="center", va="center", fontsize=SMALL_FONT, color=colour)
    axes.set_yticks(range(len(labels)), labels, fontsize=FONT)
    axes.set_xticks(range(len(grid.columns)), grid.columns, fontsize=FONT, rotation=90)
    axes.xaxis.tick_top()
    axes.tick_params(length=0)
    for tick, colour in zip(axes.get_xticklabels(), grid.column_colours, strict=False):
        tick.set_color(colour)
    for tick, colour in zip(axes.get_yticklabels(), grid.row_colours, strict=False):
        tick.set_color(colour)
    axes.set_xticks([x - 0.5 for x in range(1, len(grid.columns))], minor=True)
    axes.set_yticks([y - 0.5 for y in range(1, len(grid.rows))], minor=True)
    axes.grid(which="minor", color="white", linewidth=1.5)
    axes.tick_params(which="minor", length=0)
    if grid.separator is not None:
        axes.axhline(grid.separator - 0.5, color="black", linewidth=1.2, linestyle="--")
    if grid.xlabel:
        axes.set_xlabel(grid.xlabel, fontsize=FONT)
    figure.suptitle(heading, fontsize=TITLE_FONT)
    return figure

