"""One episode laid out for reading: header, instruction, score breakdown, steps and the selected step."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, Vertical
from textual.widgets import DataTable, Static

from mcp_server.trajectory import Trajectory
from shopbench_tui.runindex import EpisodeSummary
from shopbench_tui.scores import EpisodeScore
from shopbench_tui.widgets.score import ScoreBreakdown
from shopbench_tui.widgets.steps import StepDetail, StepList


class EpisodePane(Vertical):
    """Parses the episode's steps when composed (the list only read its first and last lines). The instruction box
    holds ten lines before it scrolls: a voucher task's rules (context, budget, three rules) wrap to eight at 80
    columns and are read whole."""

    DEFAULT_CSS = """
    EpisodePane { height: 1fr; }
    EpisodePane .pane-head { background: $primary-background; text-style: bold; }
    EpisodePane .pane-instruction { height: auto; max-height: 12; overflow-y: auto; border: round $primary; }
    EpisodePane .pane-steps { layout: horizontal; height: 1fr; }
    EpisodePane.compact .pane-steps { layout: vertical; }
    EpisodePane.compact StepList { height: 10; }
    """

    def __init__(self, summary: EpisodeSummary, label: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.summary, self.label = summary, label
        self.trajectory: Trajectory | None = None

    def compose(self) -> ComposeResult:
        self.trajectory = self.summary.load()
        start, summary = self.summary.start, self.summary
        steps = "" if summary.steps is None else f" · {summary.steps} steps"
        head = f"{self.label}{summary.episode_id} · {start.task_id} · {start.intent or start.benchmark} · "
        head += f"{summary.player} · {summary.status}{steps}"
        yield Static(Text(head), classes="pane-head")
        yield Static(Text(start.instruction), classes="pane-instruction")
        yield ScoreBreakdown("scoring…")
        with Container(classes="pane-steps"):
            yield StepList()
            yield StepDetail(self.trajectory.steps[0] if self.trajectory.steps else None)

    def on_mount(self) -> None:
        assert self.trajectory is not None
        self.query_one(StepList).show(self.trajectory)

    async def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if not isinstance(event.data_table, StepList) or self.trajectory is None:
            return
        event.stop()
        await self.query_one(StepDetail).show(self.trajectory.steps[int(str(event.row_key.value))])

    def show_score(self, score: EpisodeScore | None, note: str) -> None:
        self.query_one(ScoreBreakdown).show(score, note)

    def move_step(self, delta: int) -> None:
        steps = self.query_one(StepList)
        if steps.row_count:
            steps.move_cursor(row=max(0, min(steps.row_count - 1, steps.cursor_row + delta)))
