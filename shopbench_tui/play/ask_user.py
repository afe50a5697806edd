"""Asking the shopper, for a person playing the agent in a conversational task (`shopbench play --user rules`):
`ask_user` as a dialog over the shopping screen, each question one step of the episode."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from mcp_server.episode_client import ToolReply
from shopbench_tui.widgets import ObservationView

ASK_USER = "ask_user"
Act = Callable[[str, dict[str, Any]], Awaitable[ToolReply]]
"""One step of the episode: the tool and its arguments, to the reply."""


def asks_user(task: dict[str, Any] | None) -> bool:
    """Whether the started task lists `ask_user` (a conversational task set)."""
    return ASK_USER in (task or {}).get("tools", [])


class AskShopperScreen(ModalScreen[None]):
    """ask_user: type a question (enter asks), read the shopper's answer; escape goes back to shopping."""

    DEFAULT_CSS = """
    AskShopperScreen { align: center middle; }
    AskShopperScreen > Vertical { width: 100; height: 60%; border: thick $primary; background: $surface;
                                  padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "close", "close")]

    def __init__(self, act: Act) -> None:
        super().__init__()
        self.act = act

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("ask the shopper — one question (enter asks), e.g. What colour would you like?")
            yield Input(id="question", max_length=500)
            yield ObservationView(id="shopper-answer")

    def on_mount(self) -> None:
        self.query_one("#question").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted, "#question")
    def submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.ask(event.value.strip())

    @work(exclusive=True, group="tool")
    async def ask(self, question: str) -> None:
        outcome = await self.act(ASK_USER, {"question": question})
        await self.query_one(ObservationView).show(outcome.observation, outcome.is_error)
