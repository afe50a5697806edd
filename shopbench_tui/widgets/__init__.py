"""Reusable widgets of the shopbench apps (play, replay, results)."""

from shopbench_tui.widgets.episodes import EpisodeTable
from shopbench_tui.widgets.observation import ObservationView
from shopbench_tui.widgets.pane import EpisodePane
from shopbench_tui.widgets.products import ProductCard, ProductTable
from shopbench_tui.widgets.score import ScoreBreakdown, render_score
from shopbench_tui.widgets.steps import StepDetail, StepList

__all__ = [
    "EpisodePane",
    "EpisodeTable",
    "ObservationView",
    "ProductCard",
    "ProductTable",
    "ScoreBreakdown",
    "StepDetail",
    "StepList",
    "render_score",
]
