"""An episode's score breakdown: the verdict, the failed constraints, and each recommended product's misses."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from shopbench_tui.scores import EpisodeScore


class ScoreBreakdown(Static):
    """Shows an EpisodeScore, or why there is none yet (scoring in progress, unfinished episode, scoring error)."""

    DEFAULT_CSS = """
    ScoreBreakdown { height: auto; max-height: 14; border: round $secondary; padding: 0 1; overflow-y: auto; }
    """

    score: EpisodeScore | None = None

    def show(self, score: EpisodeScore | None, note: str = "not scored") -> None:
        self.score = score
        self.update(render_score(score, note))


def render_score(score: EpisodeScore | None, note: str = "not scored") -> Group | Text:
    if score is None:
        return Text(note, style="dim")
    verdict = Text("SUCCESS" if score.success else "FAILURE", style="bold green" if score.success else "bold red")
    if score.value is not None:
        verdict.append(f"  score {score.value:.2f}", style="bold")
    if score.failures:
        verdict.append("  failed: " + ", ".join(score.failures), style="red")
    parts: list = [verdict]
    if score.fields:
        table = Table(box=None, pad_edge=False, show_edge=False)
        for name in score.fields:
            table.add_column(name, justify="right")
        table.add_row(*(f"{value:.2f}" for value in score.fields.values()))
        parts.append(table)
    for product in score.products:
        line = Text(f"#{product.position + 1} {product.product_id or '—'}  rule {product.rule:.2f}")
        if product.misses:
            line.append("  " + "; ".join(product.misses), style="yellow")
        parts.append(line)
    if not score.products and score.explanation:
        parts.append(Text(score.explanation))
    return Group(*parts)
