"""`shopbench run BENCHMARK`: run a model or baseline on any registered benchmark into a run folder.

One command and one option set for every benchmark (benchmarks.registry); an option that does not apply to the
chosen benchmark is an error. The work is evaluators.harness.run.run_benchmark.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from benchmarks.registry import names_help
from mcp_server.protocol_constants import MAX_EPOCHS
from shopbench.commands import error_message
from shopbench.options import (
    MODEL_SPECS,
    Agent,
    AgentBin,
    Concurrency,
    Items,
    MaxSteps,
    NCtx,
    NGpuLayers,
    Prompting,
    Protocol,
    Seed,
    Shots,
    Stated,
    TaskSet,
    UseCache,
    User,
    World,
)

if TYPE_CHECKING:
    from rich.console import Console

MODEL_HELP = (
    f"Model spec: {MODEL_SPECS}; or a baseline: random (any benchmark), oracle (agentic; uses gold answers), naive, "
    "heuristic (agentic), majority (questions; reads gold labels)."
)
SHARED = "Every benchmark"
BUG_EXIT = 70
"""Exit status of a run stopped by a bug (EX_SOFTWARE), apart from a refusal's 2 and failed episodes' 1."""


def register(app: typer.Typer) -> None:
    app.command("run", no_args_is_help=True)(run)


def run(
    benchmark: str = typer.Argument(..., help=f"The benchmark: {names_help()}."),
    model: str = typer.Option(..., "--model", "-m", help=MODEL_HELP, rich_help_panel=SHARED),
    limit: int | None = typer.Option(None, "--limit", min=1, rich_help_panel=SHARED,
                                     help="At most N tasks per task group: per intent for ShoppingBench, per task "
                                     "for question benchmarks (the first ones, in file order)."),
    intent: list[str] | None = typer.Option(None, "--intent", rich_help_panel=SHARED,
                                            help="Only this task group (repeatable): a ShoppingBench intent "
                                            "(product, shop, voucher, web) or a question benchmark's task name."),
    task_id: list[str] | None = typer.Option(None, "--task-id", rich_help_panel=SHARED,
                                             help="Only these task or item ids (repeatable)."),
    epochs: int = typer.Option(1, "--epochs", min=1, max=MAX_EPOCHS, rich_help_panel=SHARED,
                               help="Play every task K times (pass^k)."),
    concurrency: Concurrency = 1,
    out: Path | None = typer.Option(None, "--out", rich_help_panel=SHARED,
                                    help="Run folder (default runs/<benchmark>-<model>-<time>)."),
    resume: bool = typer.Option(False, "--resume", rich_help_panel=SHARED,
                                help="Continue the run in --out (which must exist): finished episodes are kept, "
                                "unfinished and failed ones played again."),
    shard: str | None = typer.Option(None, "--shard", rich_help_panel=SHARED,
                                     help="Play shard i of n (1-based, e.g. 2/4); join with `shopbench merge`."),
    seed: Seed = 0,
    temperature: float | None = typer.Option(None, "--temperature", rich_help_panel=SHARED,
                                             help="Sampling temperature (default: 0 for agentic benchmarks, the "
                                             "reference's for questions)."),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=1, rich_help_panel=SHARED,
                                          help="Tokens per model reply (default: 1024 for agentic benchmarks, the "
                                          "reference's budget for questions)."),
    n_gpu_layers: NGpuLayers = 0,
    n_ctx: NCtx = 8192,
    timeout: float | None = typer.Option(None, "--timeout", min=1, rich_help_panel=SHARED,
                                         help="Seconds. API backends: per request before a retry (default 120). "
                                         "With --agent: each episode's wall-clock limit (default 900), at which the "
                                         "agent's process tree is ended and the episode ends as timeout."),
    agent: Agent = None,
    agent_bin: AgentBin = None,
    cache: UseCache = True,
    cache_path: Path | None = typer.Option(None, "--cache-path", rich_help_panel=SHARED,
                                           help="Response cache file (default $SHOPBENCH_HOME/cache/"
                                           "responses.sqlite)."),
    prices: Path | None = typer.Option(None, "--prices", envvar="SHOPBENCH_PRICES", rich_help_panel=SHARED,
                                       help="Price table (JSON/TOML, USD per 1M tokens) extending the defaults."),
    server: str | None = typer.Option(None, "--server", rich_help_panel=SHARED,
                                      help="Play against a running `shopbench serve` at this URL (…/mcp)."),
    server_token: str | None = typer.Option(None, "--server-token", envvar="SHOPBENCH_TOKEN",
                                            rich_help_panel=SHARED, help="Bearer token for --server."),
    executor: str = typer.Option("local", "--executor", rich_help_panel=SHARED,
                                 help="Where episodes are played: local (this process, or --server), or ray (Ray "
                                 "workers across a cluster: one CPU each, a GPU with --n-gpu-layers; a worker that "
                                 "dies has its episode played again). Needs shopbench[ray]."),
    address: str | None = typer.Option(None, "--address", rich_help_panel=SHARED,
                                       help="--executor ray: the cluster to join (its head's host:port; default "
                                       "RAY_ADDRESS, else a Ray instance started for the run)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", rich_help_panel=SHARED,
                                 help="Show failed episodes' tracebacks here too (they always go to run.log)."),
    world: World = None,
    tasks: TaskSet = None,
    protocol: Protocol = None,
    max_steps: MaxSteps = None,
    items: Items = None,
    prompting: Prompting = None,
    shots: Shots = None,
    user: User = None,
    stated: Stated = None,
) -> None:
    """Run a model or baseline on a benchmark; results go to a run folder (score it with `shopbench score`).

    Examples: `shopbench run shoppingbench --model llama-cpp:smollm2 --limit 2 --max-steps 6` ·
    `shopbench run shoppingbench --model openai:gpt-4.1 --concurrency 8 --out runs/gpt41` ·
    `shopbench run intentionqa --model random` · `shopbench run shopping-mmlu --model llama-cpp:smollm2 --limit 3` ·
    `shopbench run shoppingbench --model heuristic --executor ray --address HEAD:6379 --concurrency 16`
    """
    import asyncio

    from rich.console import Console

    from benchmarks.jsonl import DataFileError
    from benchmarks.registry import UnknownBenchmarkError
    from evaluators.harness.config import RunConfig, RunOptionError
    from evaluators.harness.manifest import ManifestMismatch
    from evaluators.harness.orchestrate import RunDirError, RunFolderUnwritable
    from evaluators.harness.progress import RichProgress
    from evaluators.harness.run import RunInterrupted, run_benchmark
    from evaluators.models.base import ModelSpecError
    from mcp_server.suites import NotPlayable, UnknownTaskSet

    console = Console(stderr=True, soft_wrap=True)
    handler = _console_log(console, verbose)
    config = RunConfig(
        benchmark=benchmark, model=model, limit=limit, intents=tuple(intent) if intent else None, task_ids=task_id,
        epochs=epochs, concurrency=concurrency, out=out, resume=resume, shard=shard, seed=seed,
        temperature=temperature, max_tokens=max_tokens, n_gpu_layers=n_gpu_layers, n_ctx=n_ctx,
        timeout_s=120.0 if timeout is None or agent else timeout, episode_timeout_s=timeout if agent else None,
        cache=cache, cache_path=cache_path, prices=prices, server_url=server, server_token=server_token,
        executor=executor, address=address,
        world=world, task_set=tasks, protocol=protocol, max_steps=max_steps, items=items, prompting=prompting,
        shots=shots, user=user, stated=stated, agent=agent, agent_bin=agent_bin,
    )
    refusals = (NotPlayable, RunOptionError, UnknownBenchmarkError, ModelSpecError, ManifestMismatch, RunDirError,
                DataFileError, FileNotFoundError, UnknownTaskSet, ValueError)
    try:
        result = asyncio.run(run_benchmark(config, RichProgress(f"{benchmark} · {model}", console)))
    except refusals as error:
        console.print(f"[red]error:[/red] {_escape(error_message(error))}")
        raise typer.Exit(2) from None
    except RunFolderUnwritable as stop:
        console.print(f"shopbench run: {_escape(str(stop))}; free space, then resume with the same command and "
                      f"--resume --out {_escape(str(stop.run_dir))}", highlight=False)
        raise typer.Exit(1) from None
    except RunInterrupted as stop:
        console.print(f"[red]interrupted:[/red] {_escape(str(stop))}; the same command with --resume --out "
                      f"{_escape(str(stop.run_dir))} plays the rest (the episodes in flight included)", highlight=False)
        raise typer.Exit(stop.exit_code) from None
    except KeyboardInterrupt:  # Ctrl-C before any episode started: nothing to resume
        console.print("[red]interrupted[/red] before the run started", highlight=False)
        raise typer.Exit(130) from None
    except Exception as error:  # no refusal of ours: a bug, said as one (its traceback with --verbose)
        if verbose:
            raise
        console.print(f"[red]error:[/red] a bug in shopbench stopped the run: {type(error).__name__}: "
                      f"{_escape(str(error))}. Run it again with --verbose for the traceback, and please report it",
                      highlight=False)
        raise typer.Exit(BUG_EXIT) from None
    finally:
        logging.getLogger().removeHandler(handler)
    summary = result.summary
    console.print(f"run: {result.run_dir}  ·  {summary.completed} played, {summary.skipped} resumed, "
                  f"{len(summary.failed)} failed of {summary.total}")
    for cause, count in summary.causes.most_common():
        console.print(f"[red]failed[/red] {count}× {_escape(cause)}")
    if summary.stopped_early:
        console.print(f"[red]stopped early:[/red] the first episodes all failed with: {_escape(summary.stopped_early)}",
                      highlight=False)
    if summary.failed:
        console.print(f"tracebacks: {result.log_file} · play the failed ones again with --resume --out "
                      f"{result.run_dir}")
    if summary.completed or summary.skipped:
        _print_headline(result.run_dir, world)
    console.print(f"all scores: shopbench score {result.run_dir}")
    if summary.failed:
        raise typer.Exit(1)


def _print_headline(run_dir: Path, world: Path | None) -> None:
    """The run's headline scores on stdout (what `shopbench score` prints first); a run that cannot be scored says so
    in one line and keeps its exit status."""
    from rich.console import Console

    from benchmarks.jsonl import DataFileError
    from evaluators.results.embeddings import EmbedderError
    from evaluators.results.reports.console import headline_table
    from evaluators.results.scoring import ScoreOptions, score_run

    try:
        Console().print(headline_table(score_run(run_dir, ScoreOptions(world=world))))
    except (DataFileError, EmbedderError, OSError, ValueError) as error:
        Console(stderr=True).print(f"[yellow]not scored:[/yellow] {_escape(str(error))}", highlight=False)


class _OneLine(logging.Formatter):
    """Warnings as one line each: the traceback goes to the run's log file, not the terminal."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.getMessage()}"


def _console_log(console: Console, verbose: bool) -> logging.Handler:
    """Terminal logging for a run: one line per failed episode (and per warning); tracebacks only with --verbose.
    Returns the handler, to remove when the command ends."""
    from rich.logging import RichHandler

    handler = RichHandler(console=console, show_time=False, show_path=False, show_level=verbose, markup=False)
    if verbose:
        handler.setLevel(logging.DEBUG)
    else:
        handler.setFormatter(_OneLine())
        handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.WARNING or root.level == logging.NOTSET:
        root.setLevel(logging.WARNING)
    return handler


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
