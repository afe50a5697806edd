"""What every app that plays episodes holds (`shopbench play`, and `shopbench study play` around it): the player's MCP
session, the episode's clock, and what follows a step. Screens are handed what they show when they are built and
post messages up (play/episode_screen.py); `PlayApp` (play/app.py) adds the navigation between them."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp import Client
from textual import work
from textual.app import App

from shopbench_tui.play.episode_screen import EpisodeScreen
from shopbench_tui.play.screen_registry import play_screen_for
from shopbench_tui.play.session import PlaySession


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

    async def finish(self) -> None:
        """Show how the episode ended."""
        raise NotImplementedError

    def elapsed(self) -> float:
        """Seconds since the current task started (the status line's clock, handed to each episode screen)."""
        return self.clock() - self.started_at

    def episode_screen(self, benchmark: str) -> EpisodeScreen:
        """The screen registered for the benchmark, handed the session and the clock of the episode just started."""
        return play_screen_for(benchmark)(self.session, self.elapsed)

    def on_episode_screen_acted(self, message: EpisodeScreen.Acted) -> None:
        """A step of the episode was taken on its screen: a submitted answer is kept (the end screen and a study's
        log show it), and after the last step the end follows (once this message is handled, not inside it)."""
        if message.tool == "submit_answer":
            self.answer = message.arguments.get("answer")
        if self.session.ended:
            self.call_later(self.finish)

    @property
    def episode_running(self) -> bool:
        """A task has been started and its episode has not ended."""
        return self._session is not None and self._session.task is not None and not self._session.ended

