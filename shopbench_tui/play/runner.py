"""Wiring for `shopbench play`: the server over the chosen benchmark, the in-memory MCP client, the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SHOPPINGBENCH = "shoppingbench"


def build_play_server(benchmark: str, runs_dir: Path, *, world: Path | None = None, task_set: str | None = None,
                      items: Path | None = None, max_steps: int = 30) -> Any:
    """The same MCPServer `shopbench serve` runs, hosting one benchmark: ShoppingBench in a world, or a question
    benchmark's items."""
    from mcp_server.server import build_server

    if benchmark == SHOPPINGBENCH:
        from mcp_server.shopping_suite import ShoppingSuite
        from mcp_server.world import GENERATED_SET, World, default_world

        opened = World.open(world) if world is not None else default_world()
        suite = ShoppingSuite(opened, task_set or GENERATED_SET)
        return build_server(opened, [suite], runs_dir, max_steps=max_steps)
    from mcp_server.qa_suites import qa_suites

    return build_server(None, qa_suites([benchmark], items), runs_dir, max_steps=max_steps)


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
    max_steps: int = 30,
) -> None:
    """Run the play app against an in-process server, connected through the official MCP client."""
    from importlib import metadata

    from shopbench_tui.play.app import PlayApp

    server = build_play_server(benchmark, runs_dir, world=world, task_set=task_set, items=items,
                               max_steps=max_steps)
    details = {"interface": "shopbench play (textual)", "textual": metadata.version("textual")}
    app = PlayApp(server, runs_dir, player=player, details=details, benchmark=benchmark, task_id=task_id,
                  random_task=random_task, world=world)
    await app.run_async()
