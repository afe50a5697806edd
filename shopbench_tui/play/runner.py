"""Wiring for `shopbench play`: the server over the chosen benchmark, the in-memory MCP client, the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def build_play_server(benchmark: str, runs_dir: Path, *, world: Path | None = None, task_set: str | None = None,
                      items: Path | None = None, prompting: str | None = None, task_id: str | None = None,
                      max_steps: int | None = None, **conversation: Any) -> Any:
    """The same MCPServer `shopbench serve` runs, hosting one registered benchmark (`open_environment`). Raises
    NotPlayable (one line naming the fix) when its tasks cannot be played here or `task_id` is not one of them,
    before anything is recorded. `max_steps` None: the server's default. `conversation`: open_environment's `user`
    and `stated` (`--user`), the task set played as a conversation."""
    from mcp_server.environment import open_environment

    environment = open_environment([benchmark], runs_dir=runs_dir, world=world, task_set=task_set, items=items,
                                   prompting=prompting, max_steps=max_steps, **conversation)
    environment.selection(task_ids=[task_id] if task_id else None)
    return environment.server


async def play(
    benchmark: str,
    runs_dir: Path,
    *,
    player: str,
    task_id: str | None = None,
    random_task: bool = False,
    world: Path | None = None,
    task_set: str | None = None,
    items: Path | None = None,
    prompting: str | None = None,
    max_steps: int | None = None,
    server: Any = None,
) -> None:
    """Run the play app against an in-process server (`server`, or one built here), connected through the official
    MCP client."""
    from importlib import metadata

    from shopbench_tui.play.app import PlayApp

    if server is None:
        server = build_play_server(benchmark, runs_dir, world=world, task_set=task_set, items=items,
                                   prompting=prompting, task_id=task_id, max_steps=max_steps)
    details = {"interface": "shopbench play (textual)", "textual": metadata.version("textual")}
    app = PlayApp(server, runs_dir, player=player, details=details, benchmark=benchmark, task_id=task_id,
                  random_task=random_task, world=world)
    await app.run_async()
