"""`shopbench export sft`: training samples from the successful episodes of a run (trajectory distillation)."""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.options import Embedder, World

export_app = typer.Typer(help="Export runs for other tools.", no_args_is_help=True)


@export_app.command("sft")
def sft(
    run_dir: Path = typer.Argument(..., help="Run directory."),
    out: Path = typer.Option(..., "--out", help="JSONL file to write."),
    fmt: str = typer.Option("trl", "--format", help="trl (messages + tools, TRL's SFTTrainer) | prompt-completion "
                            "(TRL) | openai (chat fine-tuning JSONL; metadata in OUT.meta.jsonl)"),
    world: World = None,
    embedder: Embedder = None,
) -> None:
    """One sample per step of each successful episode: system prompt, tools and the history as the model saw it →
    the reasoning and the next tool call. Prints how many episodes and steps were kept and why the rest were not."""
    from benchmarks.errors import Refusal
    from evaluators.integrations.export_sft import FORMATS, export_sft, is_format
    from evaluators.results.scoring import ScoreOptions

    if not is_format(fmt):
        raise typer.BadParameter(f"--format must be one of {', '.join(FORMATS)}")
    try:
        options = ScoreOptions(world=world, embedder=embedder)
        summary = export_sft(run_dir, out, options=options, fmt=fmt)
    except (Refusal, FileNotFoundError) as error:
        typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from None
    typer.echo(summary.line())


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
