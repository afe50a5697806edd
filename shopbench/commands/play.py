"""`shopbench play`: a person takes a task in the terminal; the episode is recorded like an agent's."""

from __future__ import annotations

import getpass
import re
from pathlib import Path

import typer

from benchmarks.registry import benchmark_names
from shopbench.commands import error_message
from shopbench.options import Items, MaxSteps, Prompting, Runs, Stated, TaskSet, User, World


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        benchmark: str = typer.Option("shoppingbench", "--benchmark", help=f"The benchmark: "
                                      f"{', '.join(benchmark_names())}."),
        task: str | None = typer.Option(None, "--task", help="Task id to play (default: pick from a list)."),
        random_task: bool = typer.Option(False, "--random", help="Play a random task."),
        player: str | None = typer.Option(None, "--player", help="Your name, recorded as the agent (kind human). "
                                          "Without it you are asked (in a terminal), or the OS user name is used "
                                          "and shown."),
        runs: Runs = None,
        world: World = None,
        tasks: TaskSet = None,
        items: Items = None,
        prompting: Prompting = None,
        max_steps: MaxSteps = None,
        user: User = None,
        stated: Stated = None,
    ) -> None:
        """Play a task as a human, recorded like a model's episode.

        ShoppingBench with search, product pages, calculator, web search and a basket, or a question item. Every
        action goes through the MCP server, so `shopbench score`, `report`, `replay` and `results` treat you like a
        model. F1 lists the keys.

        Examples: shopbench play --player ana --random · shopbench play --benchmark intentionqa --player ana
        """
        import anyio

        from benchmarks.jsonl import DataFileError
        from mcp_server.suites import NotPlayable, UnknownTaskSet
        from mcp_server.users import conversation_options
        from shopbench_tui.play import play as run_play
        from shopbench_tui.play.runner import build_play_server

        if task and random_task:
            raise typer.BadParameter("give --task or --random, not both", param_hint="--task/--random")
        name = player or ask_player_name()
        folder_name = re.sub(r"[^\w.-]+", "-", name).strip("-") or "player"
        runs_dir = runs or Path("runs") / f"human-{folder_name}-{benchmark}"
        try:  # what cannot be played is said in one line before the app starts (nothing is recorded)
            server = build_play_server(benchmark, runs_dir, world=world, task_set=tasks, items=items,
                                       prompting=prompting, task_id=task, max_steps=max_steps,
                                       **conversation_options(user, stated))
        except (NotPlayable, DataFileError, FileNotFoundError, UnknownTaskSet, ValueError) as error:
            typer.echo(f"shopbench play: {error_message(error)}", err=True)
            raise typer.Exit(2) from None
        anyio.run(lambda: run_play(benchmark, runs_dir, player=name, task_id=task, random_task=random_task,
                                   world=world, server=server))
        typer.echo(f"episodes recorded in {runs_dir}; score them with: shopbench score {runs_dir}")


def ask_player_name() -> str:
    """No --player: ask in a terminal (the OS user name is the default shown), else use that name and say so."""
    import sys

    default = getpass.getuser()
    if sys.stdin.isatty():
        name = typer.prompt("Your name (recorded as the player; --player NAME skips this)", default=default)
        return name.strip() or default
    typer.echo(f"shopbench play: playing as {default!r} (the OS user; give --player NAME to choose)", err=True)
    return default
