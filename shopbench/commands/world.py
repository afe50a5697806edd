"""`shopbench world generate | import | info`: build and inspect ShoppingBench worlds."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from shopbench.options import MODEL_SPECS, Concurrency, NCtx, NGpuLayers, Seed, TaskSet, UseCache

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_server.shopping.search.knowledge_index import KnowledgeIndex
    from mcp_server.shopping.search.product_index import ProductIndex
    from mcp_server.shopping.world import World

WRITER_SPECS = f"Spec: {MODEL_SPECS}."

world_app = typer.Typer(help="Build and inspect ShoppingBench worlds (catalog, index, task sets, knowledge corpus).",
                        no_args_is_help=True)


@world_app.command("generate")
def generate(
    products: int = typer.Option(5_000, "--products", min=1, help="Number of products."),
    seed: Seed = 0,
    out: Path = typer.Option(..., "--out", help="World folder to create."),
    tasks_per_intent: int = typer.Option(100, "--tasks-per-intent", min=1, help="Tasks per intent."),
    name: str | None = typer.Option(None, "--name", help="World name (default: the folder name)."),
    writer_model: str | None = typer.Option(
        None, "--writer-model", help="Rewrite the templated instructions with this model (Stage III of the paper); "
        "a rewrite is kept only if every constraint value survives. " + WRITER_SPECS),
    concurrency: Concurrency = 4,
    n_gpu_layers: NGpuLayers = 0,
    n_ctx: NCtx = 8192,
    cache: UseCache = True,
) -> None:
    """Generate a world of any size (2.5M products is the paper's scale) with solvable tasks."""
    from mcp_server.shopping.world_build import generate_world

    if writer_model is not None:
        _check_spec(writer_model)
    world = generate_world(out, products=products, seed=seed, tasks_per_intent=tasks_per_intent, name=name)
    if writer_model is not None:
        _rewrite(world.root, "generated", writer_model, concurrency, n_gpu_layers, n_ctx, cache)
    _show(world)


@world_app.command("rewrite")
def rewrite(
    root: Path = typer.Argument(..., help="World folder."),
    writer_model: str = typer.Option(..., "--writer-model", help="The model that rewrites. " + WRITER_SPECS),
    tasks: TaskSet = None,
    concurrency: Concurrency = 4,
    n_gpu_layers: NGpuLayers = 0,
    n_ctx: NCtx = 8192,
    cache: UseCache = True,
) -> None:
    """Rewrite a world's task instructions with a model (resumes where a killed run stopped; see rewrites.jsonl)."""
    from mcp_server.shopping.world import GENERATED_SET

    world = _open(root)
    task_set = tasks or GENERATED_SET
    if task_set == "official" or not (world.root / "tasks" / task_set).is_dir():
        typer.echo(f"error: no rewritable task set {task_set!r} in {world.root}", err=True)
        raise typer.Exit(1)
    _rewrite(world.root, task_set, writer_model, concurrency, n_gpu_layers, n_ctx, cache)
    _show(world)


def _check_spec(spec: str) -> None:
    """A writer spec that names no text model fails before the world is built."""
    from evaluators.models import backends, split_spec
    from evaluators.players.baselines import find_baseline

    provider, _ = split_spec(spec)
    if provider not in backends() or find_baseline(provider) is not None:
        raise typer.BadParameter(f"{spec!r} names no text model. {WRITER_SPECS}", param_hint="--writer-model")


def _rewrite(root: Path, task_set: str, spec: str, concurrency: int, n_gpu_layers: int, n_ctx: int,
             cache: bool) -> None:
    import asyncio

    from rich.console import Console

    from benchmarks.jsonl import DataFileError
    from evaluators.models import ModelSpecError
    from evaluators.pipelines import ModelSettings, rewrite_task_set

    console = Console(stderr=True)
    settings = ModelSettings(spec=spec, n_gpu_layers=n_gpu_layers, n_ctx=n_ctx, cache=cache, temperature=0.7)
    try:
        report = asyncio.run(rewrite_task_set(root / "tasks" / task_set, settings, task_set=task_set,
                                              concurrency=concurrency))
    except (ModelSpecError, DataFileError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    except Exception as error:  # noqa: BLE001 - a provider's error, whatever its type, ends the run cleanly
        console.print(f"[red]error:[/red] the writer model failed: {type(error).__name__}: {error}\n"
                      f"What was rewritten is kept; run `shopbench world rewrite {root} --writer-model {spec}` "
                      "to resume.")
        raise typer.Exit(2) from None
    reasons = ", ".join(f"{k} {v}" for k, v in report.reasons.most_common()) or "none"
    console.print(f"rewritten {report.rewritten} of {report.total} instructions ({report.resumed} resumed); "
                  f"kept the template for {report.kept_template} (reasons: {reasons}); "
                  f"log: {report.folder / 'rewrites.jsonl'}")


@world_app.command("import")
def import_(
    documents: Path = typer.Argument(..., help="The official corpus file documents.jsonl or documents.jsonl.gz."),
    out: Path = typer.Option(..., "--out", help="World folder to create."),
) -> None:
    """Build a world from the official ShoppingBench corpus (the official task set then becomes startable)."""
    from benchmarks.jsonl import DataFileError
    from mcp_server.shopping.world_build import import_world

    try:
        world = import_world(documents, out)
    except (DataFileError, FileNotFoundError, FileExistsError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    _show(world)


@world_app.command("index")
def index(root: Path = typer.Argument(..., help="World folder.")) -> None:
    """Build the world's Lucene indexes now if they are missing (product catalog, knowledge corpus).

    Otherwise the first `run`, `serve` or `play` builds them: do this before starting many jobs on one world.
    """
    import time

    world = _open(root)
    for name, open_index in (("products", lambda: world.products), ("knowledge", lambda: world.knowledge)):
        began = time.perf_counter()
        folder = _ready_index(name, open_index)
        size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
        typer.echo(f"{name} index: {folder} ({size / 2**20:,.0f} MiB), ready in {time.perf_counter() - began:.1f} s")


def _ready_index(name: str, open_index: Callable[[], ProductIndex | KnowledgeIndex]) -> Path:
    """The folder of one index, built if missing. A damaged index (derived data) is removed and built again; a
    source file that cannot be read (a truncated catalog) exits 1 naming the file and line."""
    import shutil

    from benchmarks.jsonl import DataFileError
    from mcp_server.shopping.search.index_build import DamagedIndexError

    try:
        try:
            return open_index().index_dir
        except DamagedIndexError as damaged:
            typer.echo(f"{damaged.index_dir}: the {name} index is damaged ({damaged.detail}); rebuilding it", err=True)
            shutil.rmtree(damaged.index_dir)
            return open_index().index_dir
    except (DataFileError, DamagedIndexError, OSError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None


@world_app.command("info")
def info(root: Path = typer.Argument(..., help="World folder.")) -> None:
    """Summarise a world: size, source, hash, task sets and their sizes (exit 1 naming each bad task file)."""
    world = _open(root)
    problems = _show(world)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    if problems:
        raise typer.Exit(1)


def _open(root: Path) -> World:
    """The world at `root`, or exit 1 saying why it is not one."""
    from mcp_server.shopping.world import World

    try:
        return World.open(root)
    except (OSError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None


def _show(world: World) -> list[str]:
    """Print the world's table; returns the task sets that could not be read, one line each (FILE:LINE: problem)."""
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    from benchmarks.jsonl import DataFileError
    from evaluators.pipelines.rewrite import rewrite_summary

    info = world.info
    table = Table(title=f"world {info.name}", show_header=False)
    for label, value in (("folder", str(world.root)), ("source", info.source), ("products", f"{info.products:,}"),
                         ("seed", str(info.seed)), ("generator", str(info.generator_version)),
                         ("content hash", info.content_hash[:16])):
        table.add_row(label, value)
    problems = []
    for task_set in world.task_sets():
        try:
            counts = Counter(task.intent for task in world.tasks(task_set))
            rewrites = rewrite_summary(world.root / "tasks" / task_set) if task_set != "official" else None
        except (DataFileError, OSError) as error:
            problems.append(str(error))
            table.add_row(f"tasks: {task_set}", "cannot be read (see below)")
            continue
        startable = "" if task_set != "official" or world.is_official_corpus else " (needs the official corpus)"
        table.add_row(f"tasks: {task_set}", ", ".join(f"{k} {v}" for k, v in counts.items()) + startable)
        if rewrites is not None:
            table.add_row(f"rewritten: {task_set}", f"{rewrites['rewritten']} of {rewrites['asked']} instructions "
                          f"by {', '.join(rewrites['writers'])} (tasks/{task_set}/rewrites.jsonl)")
    Console().print(table)
    return problems


def register(app: typer.Typer) -> None:
    app.add_typer(world_app, name="world")
