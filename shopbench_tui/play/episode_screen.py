"""The base of the screens a person plays an episode on. Attributes down, messages up: the app hands a screen the
player's MCP session and the episode's clock when it builds it; the screen calls the episode's tools through that
session and says so upwards (`EpisodeScreen.Acted`), and the app decides what follows (the end screen after the last
step). A screen opens its own dialogs (`push_screen` with a callback: the dialog answers by being dismissed with its
result) and otherwise neither assigns into its app nor calls it (tests/test_tui_messages.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from textual import work
from textual.message import Message
from textual.screen import Screen

from mcp_server.episode_client import ToolReply
from shopbench_tui.play.session import PlaySession
from shopbench_tui.play.widgets import StatusBar

ToolCall = Callable[[str, dict[str, Any]], Awaitable[ToolReply]]
"""`await call(tool, arguments)` → the ToolReply: how a dialog over an episode screen takes a step of its episode."""


class EpisodeScreen(Screen[None]):
    """A screen a person plays an episode on (mcp_server's tools, through `act`); which one plays a benchmark is
    registered in shopbench_tui.play.screen_registry, and the app builds it as `ScreenClass(session, elapsed)`
(`PlayHost.episode_screen`)."""

    reveals_answer: ClassVar[bool] = False
    """After the episode the end screen also shows the item's correct answer (question items)."""

    class Acted(Message):
        """One step of the episode was taken (a tool call, answered by the server): the app ends the episode when it
        was the last step, and keeps the answer when the tool was submit_answer."""

        def __init__(self, tool: str, arguments: dict[str, Any], outcome: ToolReply) -> None:
            super().__init__()
            self.tool, self.arguments, self.outcome = tool, arguments, outcome

    def __init__(self, session: PlaySession, elapsed: Callable[[], float]) -> None:
        super().__init__()
        self.session, self.elapsed = session, elapsed

    def status_bar(self) -> StatusBar:
        """`step 3/30 · 01:25 · player NAME`, read live from the session and the episode's clock."""
        return StatusBar(lambda: (self.session.steps, self.session.max_steps), self.elapsed, self.session.player)

    def on_mount(self) -> None:  # a subclass's on_mount runs as well (Textual calls each class's handler)
        task = self.session.task or {}
        self.sub_title = f"{task.get('task_id', '')} · {task.get('intent') or ''}"

    async def act(self, tool: str, arguments: dict[str, Any]) -> ToolReply:
        """One player action = one tool call: the status line updates, and the app hears of it (`Acted`)."""
        outcome = await self.session.act(tool, arguments)
        for bar in self.query(StatusBar):
            bar.tick()
        self.post_message(self.Acted(tool, arguments, outcome))
        return outcome

    @work(exclusive=True, group="tool")
    async def finish_with(self, tool: str, arguments: dict[str, Any]) -> None:
        """Take the step meant to end the episode (terminate, submit_answer); when the server refuses it, say why and
        play on."""
        outcome = await self.act(tool, arguments)
        if outcome.is_error:
            self.notify(outcome.text, severity="error")
