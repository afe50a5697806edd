"""The play app as its screens see it: the player's MCP session, the step and time counters, and acting in the
episode. `PlayApp` (play/app.py) adds the navigation between screens; the screens import this module, not the app,
so neither imports the other."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from mcp import Client
from textual import work
from textual.app import App
from textual.screen import Screen

from mcp_server.episode_client import ToolReply
from shopbench_tui.play.session import PlaySession
from shopbench_tui.play.widgets import StatusBar


class PlayHost(App[None]):
    """Connects to `server` (a shopbench MCPServer) with the official in-memory MCP client and holds the episode a
    person plays; what is shown, and when, is the subclass's."""

    def __init__(
        self,
        server: Any,
        runs_dir: Path,
        *,
        player: str,
        details: dict[str, Any] | None = None,
        benchmark: str | None = None,
        task_id: str | None = None,
        random_task: bool = False,
        seed: int | None = None,
        episode_id: str | None = None,
        world: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.server, self.runs_dir, self.benchmark = server, Path(runs_dir), benchmark
        self.player, self.details = player, dict(details or {})
        self.task_id, self.random_task, self.episode_id, self.world = task_id, random_task, episode_id, world
        self.rng = random.Random(seed)
        self.clock = clock
        self.started_at = clock()
        self.tasks: list[dict[str, Any]] = []
        self._session: PlaySession | None = None
        self.answer: str | None = None
        """The answer submitted in the current question episode (shown on the end screen)."""

    @property
    def session(self) -> PlaySession:
        """The player's MCP session (open from the first screen on)."""
        if self._session is None:
            raise RuntimeError("not connected to the server yet")
        return self._session

    def on_mount(self) -> None:
        self.connect()

    @work(exclusive=True, group="connection")
    async def connect(self) -> None:
        """Hold the MCP connection for the app's lifetime, in one task (the client's context must open and close
        in the same task); quitting cancels this worker, which disconnects and so ends an unfinished episode."""
        async with Client(self.server, mode="legacy") as client:
            self._session = PlaySession(client, self.player, self.details)
            await self.open_first_task()
            await asyncio.Event().wait()

    async def open_first_task(self) -> None:
        """Show the first task, or the tasks to pick from."""
        raise NotImplementedError

    async def begin(self, task: dict[str, Any]) -> None:
        """Start the task through start_task and show its screen."""
        raise NotImplementedError

    async def finish(self) -> None:
        """Show how the episode ended."""
        raise NotImplementedError

    def another_task(self) -> None:
        """Back to the tasks, or out."""
        raise NotImplementedError

    def step_counts(self) -> tuple[int, int]:
        return self.session.steps, self.session.max_steps

    def elapsed(self) -> float:
        return self.clock() - self.started_at

    async def act(self, tool: str, arguments: dict[str, Any]) -> ToolReply:
        """One player action = one tool call; the status line updates, and the end screen follows the last step."""
        outcome = await self.session.act(tool, arguments)
        for screen in self.screen_stack:
            for bar in screen.query(StatusBar):
                bar.tick()
        if self.session.ended:
            self.call_later(self.finish)  # not awaited here: the calling screen's worker dies with its screen
        return outcome

    @property
    def episode_running(self) -> bool:
        """A task has been started and its episode has not ended."""
        return self._session is not None and self._session.task is not None and not self._session.ended


class EpisodeScreen(Screen[None]):
    """A screen a person plays an episode on (mcp_server's tools, through `PlayHost.act`); which one plays a
    benchmark is registered in shopbench_tui.play.screen_registry."""

    app: PlayHost
    reveals_answer: ClassVar[bool] = False
    """After the episode the end screen also shows the item's correct answer (question items)."""
