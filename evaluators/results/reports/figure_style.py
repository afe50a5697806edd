"""What every report figure shares: fonts that never shrink, colours and hatches that tell kinds of players apart,
group labels that wrap at separators, and figure sizes that grow with what they hold.

Sizes are set in inches from the content (rows of bars, cells, label lengths), and text sizes are fixed points, so
a figure of twelve runs is taller or wider than one of two, never written smaller. Layout is matplotlib's
constrained layout, which keeps tick labels, titles and the legend inside the figure and apart.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from evaluators.results.reports.tables import ScoredRun

DPI = 110
FONT = 9.0
"""Tick labels and legend entries (points)."""
SMALL_FONT = 8.0
"""Values written next to bars and in cells: the smallest text of any figure."""
TITLE_FONT = 10.0
CHAR_IN = {SMALL_FONT: 0.066, FONT: 0.074, TITLE_FONT: 0.082}
"""Generous width in inches of one character at each size (DejaVu Sans), for sizing margins before drawing."""

KIND_COLOURS = {
    "model": ["#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#1b9e77", "#3b4cc0", "#7b9e3a", "#6a3d9a", "#0d6e8a",
              "#5e9cd3", "#4f7f2f", "#a98fd0"],
    "mcp-client": ["#e377c2", "#b5478f", "#f2a3d6", "#8e2f6e"],
    "human": ["#d95f02", "#e6ab02", "#a6761d", "#d62728", "#f08c3a", "#8c510a"],
    "baseline": ["#7f7f7f", "#b3b3b3", "#4d4d4d", "#999999", "#cccccc", "#666666"],
}
"""Cool colours for models, pinks for MCP clients, warm ones for humans, greys for baselines."""
KIND_HATCH = {"model": "", "mcp-client": "\\\\", "human": "//", "baseline": ".."}
"""Humans and baselines are hatched as well as coloured apart, so they read apart in greyscale too."""
KIND_TEXT = {"model": "#1f3b73", "mcp-client": "#8e2f6e", "human": "#a0400a", "baseline": "#555555"}
"""Label colours of a run's kind (heatmap columns)."""

LABEL_WIDTH = 40
"""Group labels longer than this are wrapped onto two lines (Shopping MMLU task names), at "_", "-" or spaces."""


def new_figure(width_in: float, height_in: float) -> Any:
    """A figure of this size in inches, laid out by constrained layout. Made without pyplot, so no global figure
    list keeps it alive (a report or a test drawing dozens of figures holds only those it still uses) and no GUI
    backend is ever chosen."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width_in, height_in), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def save(figure: Any, path: Path) -> Path:
    figure.savefig(path, dpi=DPI)
    return path


def group_label(text: str, width: int = LABEL_WIDTH) -> str:
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


def text_width_in(lines: list[str], size: float = FONT) -> float:
    """The width in inches of the longest line among `lines` (each may hold several lines)."""
    longest = max((len(line) for text in lines for line in text.split("\n")), default=0)
    return CHAR_IN[size] * longest


def title(text: str, width_in: float) -> str:
    """The figure title wrapped to the figure's width."""
    return textwrap.fill(text, width=max(20, int((width_in - 0.3) / CHAR_IN[TITLE_FONT])))


def title_in(text: str) -> float:
    """Height in inches the (wrapped) title takes."""
    return 0.12 + 0.2 * (text.count("\n") + 1)


class Palette:
    """Each run's colour and hatch, by kind: the n-th model gets the n-th model colour (and so on), so a run looks
    the same in every figure of a report."""

    def __init__(self, runs: list[ScoredRun]) -> None:
        seen: dict[str, int] = {}
        self.colours: dict[str, str] = {}
        self.hatches: dict[str, str] = {}
        for run in runs:
            palette = KIND_COLOURS.get(run.kind, KIND_COLOURS["model"])
            index = seen.get(run.kind, 0)
            seen[run.kind] = index + 1
            self.colours[run.label] = palette[index % len(palette)]
            # past the palette's length, a second round of the same colours is told apart by a hatch
            self.hatches[run.label] = KIND_HATCH.get(run.kind, "") + ("xx" if index >= len(palette) else "")

    def colour(self, run: ScoredRun) -> str:
        return self.colours[run.label]

    def hatch(self, run: ScoredRun) -> str:
        return self.hatches[run.label]


def legend_label(run: ScoredRun) -> str:
    return f"{run.label} ({run.kind})"


def heatmap_text_colour(rgba: tuple[float, float, float, float]) -> str:
    """Black on light cells, white on dark ones."""
    red, green, blue, _ = rgba
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def column_label(run: ScoredRun, width: int = 18) -> str:
    """A heatmap column's label: the run, wrapped, and its kind on its own line."""
    wrapped = textwrap.wrap(run.label, width=width, break_on_hyphens=False) or [run.label]
    return "\n".join([*wrapped[:3], f"({run.kind})"])
