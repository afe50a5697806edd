"""`shopbench generate intentionqa | session-intent | sessions`: the papers' benchmark-construction pipelines.

(ShoppingBench's Stage III query writing is `shopbench world generate --writer-model` / `shopbench world rewrite`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import typer

from shopbench.options import (
    MODEL_SPECS,
    Concurrency,
    Embedder,
    Fresh,
    NCtx,
    NGpuLayers,
    RequiredWorld,
    Seed,
    UseCache,
)

generate_app = typer.Typer(help="Build benchmark items the way the papers built theirs (IntentionQA distractor "
                           "sampling, SessionIntentBench intention trees).", no_args_is_help=True)

SPECS = f"Spec: {MODEL_SPECS}."


@generate_app.command("intentionqa")
def intentionqa(
    assertions: Path = typer.Option(..., "--assertions", help="Co-buy assertions JSONL: {item_a_name, item_b_name, "
                                    "assertion, typicality, ...} (released IntentionQA files also work)."),
    out: Path = typer.Option(..., "--out", help="Items JSONL to write (loadable by `shopbench run intentionqa "
                             "--items`); an existing file is resumed."),
    min_typicality: float = typer.Option(0.5, "--min-typicality", help="Keep assertions with typicality above this."),
    intention_similarity: str = typer.Option("products", "--intention-similarity",
                                             help="products: the paper's least product similarity of the two pairs; "
                                             "text: embeddings of the intention texts."),
    task: list[str] | None = typer.Option(None, "--task", help="task1 and/or task2 (default both)."),
    seed: Seed = 0,
    embedder: Embedder = None,
    fresh: Fresh = False,
) -> None:
    """IntentionQA items from co-buy assertions (paper §3.2–3.4): typicality filter, embedding similarities,
    distractors from the windows [0.6, 0.9] (intentions) and [0.7, 0.9] (products), difficulty from the pair.

    Example: `shopbench generate intentionqa --assertions assertions.jsonl --out items.jsonl`
    """
    from rich.console import Console
    from rich.table import Table

    from benchmarks.jsonl import DataFileError
    from evaluators.pipelines.intentionqa import IntentionMode, build_intentionqa, embedder_encoder
    from evaluators.results.embeddings import EmbedderError

    console = Console(stderr=True)
    modes: dict[str, IntentionMode] = {"products": "products", "text": "text"}
    if intention_similarity not in modes:
        raise typer.BadParameter("products or text", param_hint="--intention-similarity")
    tasks = tuple(task or ("task1", "task2"))
    if bad := [t for t in tasks if t not in ("task1", "task2")]:
        raise typer.BadParameter(f"unknown task {bad[0]!r}; task1 or task2", param_hint="--task")
    if not assertions.is_file():
        console.print(f"[red]error:[/red] {assertions}: no such file")
        raise typer.Exit(2)
    try:
        encode, name = embedder_encoder(embedder)
        report = build_intentionqa(assertions, out, encode=encode, embedder=name, seed=seed,
                                   min_typicality=min_typicality, intention_similarity=modes[intention_similarity],
                                   tasks=tasks, resume=not fresh)
    except (DataFileError, EmbedderError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    table = Table(title=f"IntentionQA items · {out}")
    for column in ("task", "written now", "easy", "medium", "hard", "too few distractors"):
        table.add_column(column)
    for name_ in tasks:
        counts: Mapping[str, int] = report.difficulty.get(name_, {})
        table.add_row(name_, str(report.written.get(name_, 0)), *(str(counts.get(k, 0)) for k in
                                                                   ("easy", "medium", "hard")),
                      str(sum(s.task == name_ for s in report.skipped)))
    Console().print(table)
    console.print(f"{report.assertions} assertions, {report.typical} above typicality {min_typicality}; "
                  f"{report.resumed} items resumed; similarities from {report.embedder}")


@generate_app.command("session-intent")
def session_intent(
    sessions: Path = typer.Option(..., "--sessions", help="Sessions JSONL: {session_id, products: [title or "
                                  "{title, ...metadata}]} in viewing order."),
    model: str = typer.Option(..., "--model", "-m", help="The model that writes attributes and intentions. "
                              + SPECS),
    out: Path = typer.Option(..., "--out", help="Output folder (trees.jsonl, items.jsonl); resumed if it exists."),
    judge: str | None = typer.Option(None, "--judge", help="Label the sampled items with this model's answers to the "
                                     "benchmark prompt (marked gold_source: judge); default: gold left empty."),
    per_session: int = typer.Option(4, "--per-session", min=1, help="Task instances sampled per session tree."),
    expand_per_step: int | None = typer.Option(None, "--expand-per-step", min=1,
                                               help="Expand at most this many nodes per step (default all: the "
                                               "paper's full tree)."),
    seed: Seed = 0,
    concurrency: Concurrency = 4,
    temperature: float = typer.Option(0.7, "--temperature", min=0.0, help="Writer model temperature."),
    n_gpu_layers: NGpuLayers = 0,
    n_ctx: NCtx = 8192,
    cache: UseCache = True,
    fresh: Fresh = False,
) -> None:
    """SessionIntentBench intention trees (paper §4.1–4.3) and task instances of its four tasks sampled from them.

    Example: `shopbench generate sessions --world W --out s.jsonl` then
    `shopbench generate session-intent --sessions s.jsonl --model llama-cpp:smollm2 --out sib/`
    """
    import asyncio

    from rich.console import Console

    from benchmarks.jsonl import DataFileError
    from evaluators.models import ModelSpecError
    from evaluators.pipelines import ModelSettings
    from evaluators.pipelines.session_intent import build_session_intent

    console = Console(stderr=True)
    if not sessions.is_file():
        console.print(f"[red]error:[/red] {sessions}: no such file")
        raise typer.Exit(2)
    writer = ModelSettings(spec=model, temperature=temperature, n_gpu_layers=n_gpu_layers, n_ctx=n_ctx,
                           cache=cache)
    judge_settings = ModelSettings(spec=judge, temperature=0.0, n_gpu_layers=n_gpu_layers, n_ctx=n_ctx,
                                   cache=cache) if judge else None
    try:
        report = asyncio.run(build_session_intent(
            sessions, out, writer, judge=judge_settings, per_session=per_session, expand_limit=expand_per_step,
            seed=seed, concurrency=concurrency, resume=not fresh))
    except (DataFileError, ModelSpecError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    except Exception as error:  # noqa: BLE001 - a provider's error, whatever its type, ends the run cleanly
        console.print(f"[red]error:[/red] a model call failed: {type(error).__name__}: {error}\n"
                      "Finished sessions are kept; run the same command again to resume.")
        raise typer.Exit(2) from None
    labels = f"{report.judged} labelled by {judge}" if judge else "gold left empty for annotation"
    console.print(f"{report.sessions} sessions ({report.resumed} resumed): {report.nodes} intention nodes, "
                  f"{report.items} task instances ({labels}) → {out}/trees.jsonl, {out}/items.jsonl")
    if report.incomplete:
        console.print(f"[yellow]{len(report.incomplete)} expansions got fewer intentions than asked[/yellow] "
                      f"(e.g. {report.incomplete[0]})")


@generate_app.command("sessions")
def sessions_(
    world: RequiredWorld,
    out: Path = typer.Option(..., "--out", help="Sessions JSONL to write."),
    count: int = typer.Option(20, "--count", min=1, help="Number of sessions."),
    seed: Seed = 0,
    max_products: int = typer.Option(50_000, "--max-products", min=10, help="Catalog lines read (a big catalog's "
                                     "first N)."),
) -> None:
    """Plausible browsing sessions (3–5 products) from a world's catalog, for trying `generate session-intent`."""
    from itertools import islice

    from rich.console import Console

    from benchmarks.jsonl import read_jsonl
    from benchmarks.session_intent.sessions import make_sessions
    from benchmarks.shoppingbench.schema import Product
    from evaluators.pipelines.journal import write_jsonl_atomic
    from mcp_server.shopping.world import CATALOG, World

    console = Console(stderr=True)
    try:
        opened = World.open(world)
        products = [Product.model_validate(record["product"])
                    for _, record in islice(read_jsonl(opened.root / CATALOG), max_products)]
        made = make_sessions(products, count, seed=seed)
    except (FileNotFoundError, ValueError) as error:
        console.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2) from None
    write_jsonl_atomic(out, made)
    console.print(f"{len(made)} sessions from {len(products):,} products of {opened.info.name} → {out}")


def register(app: typer.Typer) -> None:
    app.add_typer(generate_app, name="generate")
