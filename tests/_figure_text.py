"""Where a figure's text is unreadable: text that runs past the figure's edge, or two texts drawn over each other.

After `figure.canvas.draw()`, every visible, non-empty Text artist (titles, axis labels, tick labels in view, values
written beside bars or in cells, legend entries) has a window extent; those extents must lie inside the figure, not
overlap each other, and not reach into the plotting area of an axes they do not belong to (a value label covered by
the next panel, a legend laid over the bars). Tick labels are taken as matplotlib draws them: only ticks inside the
axis' view limits.
"""

from __future__ import annotations

from typing import Any

from matplotlib.text import Text

TOLERANCE = 0.5
"""Pixels two extents may share (antialiasing), and by which one may touch the figure's edge."""


def _tick_labels(figure: Any) -> tuple[list[Text], set[int]]:
    """(the tick labels drawn, ids of every tick label, drawn or not)."""
    drawn: list[Text] = []
    every: set[int] = set()
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            low, high = sorted(axis.get_view_interval())
            for minor in (False, True):
                ticks = axis.get_minor_ticks() if minor else axis.get_major_ticks()
                locs = axis.get_minorticklocs() if minor else axis.get_majorticklocs()
                for tick, loc in zip(ticks, locs, strict=False):
                    for label in (tick.label1, tick.label2):
                        every.add(id(label))
                        if label.get_visible() and low - 1e-9 <= loc <= high + 1e-9:
                            drawn.append(label)
                for tick in ticks[len(locs):]:
                    every.update((id(tick.label1), id(tick.label2)))
    return drawn, every


def visible_texts(figure: Any) -> list[Text]:
    """Every text the figure draws, tick labels included."""
    figure.canvas.draw()
    ticks, every_tick = _tick_labels(figure)
    texts = [t for t in figure.findobj(Text) if id(t) not in every_tick]
    return [t for t in [*texts, *ticks] if t.get_visible() and t.get_text().strip()]


def text_problems(figure: Any) -> list[str]:
    """One line per text past the figure's edge and per pair of overlapping texts (empty when all is legible)."""
    texts = visible_texts(figure)
    renderer = figure.canvas.get_renderer()
    boxes = [(text, text.get_window_extent(renderer)) for text in texts]
    width, height = figure.bbox.width, figure.bbox.height
    problems = [f"{text.get_text()!r} runs past the figure's edge: {box} in {width:.0f}×{height:.0f}"
                for text, box in boxes
                if box.x0 < -TOLERANCE or box.y0 < -TOLERANCE or box.x1 > width + TOLERANCE
                or box.y1 > height + TOLERANCE]
    for index, (text, box) in enumerate(boxes):
        for other, other_box in boxes[index + 1:]:
            if _overlap(box, other_box):
                problems.append(f"{text.get_text()!r} overlaps {other.get_text()!r}")
        for axes in figure.axes:
            if axes is not text.axes and _overlap(box, axes.get_window_extent(renderer)):
                problems.append(f"{text.get_text()!r} reaches into another axes' plotting area")
    return problems


def _overlap(box: Any, other: Any) -> bool:
    overlap_x = min(box.x1, other.x1) - max(box.x0, other.x0)
    overlap_y = min(box.y1, other.y1) - max(box.y0, other.y0)
    return overlap_x > TOLERANCE and overlap_y > TOLERANCE
