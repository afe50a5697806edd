"""`shopbench play --as-user`: the person is the shopper; an agent (a model spec or baseline, or an installed agent
with a model behind it) plays one conversational task and asks them. The episode is recorded as a run of that agent,
the person's answers as the user's turns."""

from __future__ import annotations

import random
from pathlib import Path

import typer

from shopbench.commands import error_message


def play_as_user(benchmark: str, *, model: str, agent: str | None, task: str | None, random_task: bool,
                 player: str | None, runs: Path | None, world: Path | None, tasks: str | None,
                 max_steps: int | None, user: str | None = None, stated: int | None = None) -> None:
    """Refuse in one line what cannot be played (before the app starts), else run the app and say where the episode
    is recorded."""
    from benchmarks.errors import Refusal
    from evaluators.harness.config import RunConfig
    from evaluators.harness.run import default_run_dir
    from shopbench_tui.play.as_user import AsUserApp

    if bool(task) == random_task:
        raise typer.BadParameter("--as-user plays one task: give --task ID or --random", param_hint="--task/--random")
    if user is not None:
        raise typer.BadParameter("--as-user puts you in the user's seat: drop --user", param_hint="--user")
    out = runs or default_run_dir(benchmark, f"as-user-{agent or model}")
    try:
        task_id = playable_task(benchmark, out, task, world=world, task_set=tasks)
        config = RunConfig(benchmark, model, task_ids=[task_id], out=out, world=world, task_set=tasks,
                           max_steps=max_steps, agent=agent, stated=stated)
        app = AsUserApp(config, task_id, world=world, person=player)
    except (Refusal, FileNotFoundError) as error:
        typer.echo(f"shopbench play: {error_message(error)}", err=True)
        raise typer.Exit(2) from None
    app.run()
    if app.ending is None or not app.ending.recorded:
        typer.echo(f"shopbench play: {app.ending.summary if app.ending else 'stopped'}; nothing finished is "
                   f"recorded in {out}", err=True)
        raise typer.Exit(1)
    typer.echo(f"episode recorded in {out}; score it with: shopbench score {out}")


def playable_task(benchmark: str, runs: Path, task: str | None, *, world: Path | None, task_set: str | None) -> str:
    """`task`, or one drawn at random, once the benchmark's task set is known to play as a conversation and to hold
    it (NotPlayable otherwise, in one line; nothing is recorded)."""
    from mcp_server.environment import open_environment
    from mcp_server.shopping.conversation.rules_user import RULES

    environment = open_environment([benchmark], runs_dir=runs, world=world, task_set=task_set, user=RULES)
    chosen = environment.selection(task_ids=[task] if task else None)
    return task or random.choice(chosen)[1].task_id  # noqa: S311 - a task to play, not a secret
