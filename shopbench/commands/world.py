"""`shopbench world generate | import | info`: build and inspect ShoppingBench worlds."""

from __future__ import annotations

from pathlib import Path

import typer

world_app = typer.Typer(help="Build and inspect ShoppingBench worlds (catalog, index, task sets, knowledge corpus).",
                        no_args_is_help=True)


@world_app.command("generate")
def generate(
    products: int = typer.Option(5_000, "--products", min=1, help="Number of products."),
    seed: int = typer.Option(0, "--seed", help="Random seed; the same seed gives the same world."),
    out: Path = typer.Option(..., "--out", help="World folder to create."),
    tasks_per_intent: int = typer.Option(100, "--tasks-per-intent", min=1, help="Tasks per intent."),
    name: str | None = typer.Option(None, "--name", help="World name (default: the folder name)."),
) -> None:
    """Generate a world of any size (2.5M products is the paper's scale) with solvable tasks."""
    from mcp_server.world import generate_world

    world = generate_world(out, products=products, seed=seed, tasks_per_intent=tasks_per_intent, name=name)
    _show(world)


@world_app.command("import")
def import_(
    documents: Path = typer.Argument(..., help="The official corpus file documents.jsonl or documents.jsonl.gz."),
    out: Path = typer.Option(..., "--out", help="World folder to create."),
) -> None:
    """Build a world from the official ShoppingBench corpus (the official task set then becomes startable)."""
    from benchmarks.jsonl import DataFileError
    from mcp_server.world import import_world

    try:
        world = import_world(documents, out)
    except (DataFileError, FileNotFoundError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    _show(world)


@world_app.command("info")
def info(root: Path = typer.Argument(..., help="World folder.")) -> None:
    """Summarise a world: size, source, hash, task sets and their sizes."""
    from mcp_server.world import World

    try:
        world = World.open(root)
    except (FileNotFoundError, ValueError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from None
    _show(world)


def _show(world) -> None:
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    info = world.info
    table = Table(title=f"world {info.name}", show_header=False)
    for label, value in (("folder", str(world.root)), ("source", info.source), ("products", f"{info.products:,}"),
                         ("seed", str(info.seed)), ("generator", str(info.generator_version)),
                         ("content hash", info.content_hash[:16])):
        table.add_row(label, value)
    for task_set in world.task_sets():
        counts = Counter(task.intent for task in world.tasks(task_set))
        startable = "" if task_set != "official" or world.is_official_corpus else " (needs the official corpus)"
        table.add_row(f"tasks: {task_set}", ", ".join(f"{k} {v}" for k, v in counts.items()) + startable)
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.add_typer(world_app, name="world")
