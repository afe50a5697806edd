"""An episode's steps: the list, and the selected step's thought, arguments and observation."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from mcp_server.trajectory import StepEvent, Trajectory
from shopbench_tui.observations import arguments_text, cell
from shopbench_tui.widgets.observation import ObservationView
from shopbench_tui.widgets.tables import grid


class StepList(DataTable):
    """One row per step; the row key is the step's position in the trajectory."""

    DEFAULT_CSS = """
    StepList { width: 1fr; height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def show(self, trajectory: Trajectory) -> None:
        self.clear(columns=True)
        self.add_columns("#", "tool", "arguments")
        for position, step in enumerate(trajectory.steps):
            tool = Text(step.tool, style="red" if step.is_error else "")
            self.add_row(str(step.index + 1), tool, _clip(arguments_text(step.arguments), 60), key=str(position))


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class StepDetail(Vertical):
    """The selected step in full: thought, arguments (a table) and the observation in readable form."""

    DEFAULT_CSS = """
    StepDetail { width: 2fr; height: 1fr; padding-left: 1; border-left: vkey $primary-darken-3; }
    StepDetail .step-head { text-style: bold; background: $boost; }
    StepDetail .step-thought { color: $text-muted; max-height: 8; overflow-y: auto; }
    StepDetail #step-arguments { height: auto; max-height: 8; }
    """

    def __init__(self, step: StepEvent | None = None, **kwargs: Any) -> None:
        """`step`: shown from the start, composed in place (opening an episode then lays out once, not twice)."""
        super().__init__(**kwargs)
        self.step = step

    def compose(self) -> ComposeResult:
        head, thought, arguments = _texts(self.step)
        yield Static(head, classes="step-head")
        yield Static(thought, classes="step-thought")
        yield Static(arguments, id="step-arguments")
        if self.step is None:
            yield ObservationView()
        else:
            yield ObservationView(self.step.observation, self.step.is_error)

    async def show(self, step: StepEvent | None) -> None:
        if step is not None and step is self.step:
            return
        self.step = step
        head, thought, arguments = _texts(step)
        self.query_one(".step-head", Static).update(head)
        self.query_one(".step-thought", Static).update(thought)
        self.query_one("#step-arguments", Static).update(arguments)
        await self.query_one(ObservationView).show(step.observation if step else "", step.is_error if step else False)


def _texts(step: StepEvent | None) -> tuple[RenderableType, RenderableType, RenderableType]:
    """Head line, thought and arguments table of a step."""
    if step is None:
        return "no steps", "", ""
    seconds = (step.ended_at - step.started_at).total_seconds()
    error = "  [error]" if step.is_error else ""
    head = Text(f"step {step.index + 1} · {step.tool} · {seconds:.2f} s{error}")
    thought = Text("thought: " + step.thought) if step.thought else Text("(no thought recorded)")
    arguments = grid(["argument", "value"], [[key, cell(value)] for key, value in step.arguments.items()])
    return head, thought, arguments
