"""`shopbench demo` (interim `make demo`): one task through `shopbench serve` with the official MCP client.

Until the model runner lands, a scripted policy plays: search with the instruction, view the first result,
recommend it, terminate. Every call and observation is printed, and the trajectory is written to the run folder.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import typer


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        task: str | None = typer.Option(None, "--task", help="Task id (default: the first product-finder task)."),
        world: Path | None = typer.Option(None, "--world", help="World folder (default: the default world)."),
        runs: Path | None = typer.Option(None, "--runs", help="Run folder (default ./runs/demo-<time>)."),
    ) -> None:
        """Start `shopbench serve` over stdio and drive one task through it, printing every tool call."""
        import anyio

        runs_dir = runs or Path("runs") / f"demo-{datetime.now():%Y%m%d-%H%M%S}"
        try:
            anyio.run(lambda: run_demo(runs_dir, task_id=task, world=world))
        except DemoError as error:
            typer.echo(f"demo failed: {error}", err=True)
            raise typer.Exit(1) from None


class DemoError(RuntimeError):
    """A tool call the scripted policy cannot go on from."""


async def run_demo(runs_dir: Path, *, task_id: str | None = None, world: Path | None = None) -> Path:
    """Play one task with the scripted policy; returns the trajectory file."""
    from mcp import StdioServerParameters
    from rich.console import Console

    from mcp_server.trajectory import episode_path

    console = Console()
    args = ["-m", "shopbench.cli", "serve", "--transport", "stdio", "--runs", str(runs_dir)]
    if world is not None:
        args += ["--world", str(world)]
    console.rule("[bold]shopbench demo: a scripted agent over MCP (stdio)")
    console.print(f"server: {sys.executable} {' '.join(args)}")
    server = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    try:
        started = await _play(server, console, task_id)
    except BaseExceptionGroup as group:  # anyio wraps what happens inside the client's task group
        raise group.exceptions[0] if len(group.exceptions) == 1 else group from None
    path = episode_path(runs_dir, started["episode_id"])
    console.rule(f"trajectory: {path}")
    return path


async def _play(server: Any, console: Any, task_id: str | None) -> dict[str, Any]:
    """The scripted policy: search with the instruction, view the first hit, recommend it, terminate."""
    from mcp import Client

    async with Client(server, read_timeout_seconds=600) as client:
        tasks = (await _call(client, console, "list_tasks", {"benchmark": "shoppingbench"}, show=False))["tasks"]
        chosen = task_id or next(t["task_id"] for t in tasks if t["intent"] == "product")
        console.print(f"{len(tasks)} tasks listed; playing [bold]{chosen}[/bold]")
        started = await _call(client, console, "start_task", {"task_id": chosen})
        hits = await _call(client, console, "find_product", {"q": started["instruction"], "page": 1})
        products = hits["result"] if isinstance(hits, dict) else []
        if products:
            first = products[0]["product_id"]
            await _call(client, console, "view_product_information", {"product_ids": first})
            await _call(client, console, "recommend_product", {"product_ids": first})
        await _call(client, console, "terminate", {"status": "success" if products else "failure"})
    return started


async def _call(client: Any, console: Any, tool: str, arguments: dict[str, Any], *, show: bool = True) -> Any:
    from rich.panel import Panel
    from rich.pretty import Pretty

    result = await client.call_tool(tool, arguments)
    text = "\n".join(block.text for block in result.content if hasattr(block, "text"))
    if result.is_error:
        console.print(Panel(text, title=f"{tool} → error", border_style="red"))
        raise DemoError(f"{tool}: {text}")
    value = result.structured_content if result.structured_content is not None else json.loads(text)
    console.print(Panel(Pretty(arguments), title=f"[cyan]call[/cyan] {tool}", border_style="cyan"))
    if show:
        shown = value.get("result", value) if isinstance(value, dict) else value
        console.print(Panel(Pretty(shown, max_length=5, max_string=300), title=f"{tool} → observation"))
    return value
