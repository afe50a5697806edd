"""`shopbench score`: score a run directory, or bare predictions from another harness, and print the table."""

from __future__ import annotations

from pathlib import Path

import typer

from benchmarks.registry import benchmark_names
from shopbench.options import Embedder, Items, Prompting, World


def register(app: typer.Typer) -> None:
    @app.command("score")
    def score(
        run_dir: Path | None = typer.Argument(None, help="Run directory (manifest.json + episodes/)."),
        json_out: Path | None = typer.Option(None, "--json", help="Write the full scores as JSON to this file."),
        world: World = None,
        embedder: Embedder = None,
        benchmark: str | None = typer.Option(
            None, "--benchmark", help=f"Score --predictions for this benchmark ({', '.join(benchmark_names())})."
        ),
        predictions: Path | None = typer.Option(None, "--predictions", help="Predictions JSONL from any harness."),
        catalog: Path | None = typer.Option(None, "--catalog", help="ShoppingBench: catalog JSONL the ids refer to."),
        items: Items = None,
        prompting: Prompting = None,
        agent: str | None = typer.Option(
            None, "--agent", help="A run folder holding several agents' episodes: score this one (KIND:NAME or NAME)."
        ),
    ) -> None:
        """Score a run directory (any player: model, MCP client, human), or --predictions with --benchmark.

        Exits 1 when some episode files could not be read (each is named, with its line), after scoring the rest.
        """
        from rich.console import Console

        from benchmarks.errors import Refusal
        from benchmarks.jsonl import write_json_atomic
        from evaluators.results.episodes import unreadable_lines
        from evaluators.results.reports.readers import reader_for
        from evaluators.results.scoring import ScoreOptions, get_scorer, score_run

        if json_out is not None and json_out.is_dir():
            typer.secho(f"error: --json {json_out}: is a directory; give a file name", fg=typer.colors.RED, err=True)
            raise typer.Exit(2)
        options = ScoreOptions(world=world, embedder=embedder, catalog=catalog, items=items, prompting=prompting,
                               agent=agent)
        try:
            if predictions is not None:
                if benchmark is None:
                    raise typer.BadParameter("--predictions needs --benchmark NAME")
                if run_dir is not None:
                    raise typer.BadParameter("give either RUN_DIR or --predictions, not both")
                if agent is not None:
                    raise typer.BadParameter("--agent picks one agent's episodes of a RUN_DIR, not of --predictions")
                result = get_scorer(benchmark).score_predictions(predictions, options)
            elif run_dir is not None:
                result = score_run(run_dir, options)
            else:
                raise typer.BadParameter("give a RUN_DIR, or --benchmark NAME --predictions FILE")
        except (Refusal, OSError) as error:
            typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        console = Console()
        for renderable in reader_for(result).render(result):
            console.print(renderable)
        if json_out is not None:
            try:
                write_json_atomic(json_out, result.to_json())  # a temporary file renamed over OUT: never half written
            except OSError as error:
                typer.secho(f"error: cannot write {json_out}: {error}", fg=typer.colors.RED, err=True)
                raise typer.Exit(1) from None
            console.print(f"scores written to {json_out}")
        if run_dir is not None and (unread := unreadable_lines(run_dir, result.unreadable, result.episode_files)):
            typer.secho("error: " + "\n".join(unread), fg=typer.colors.RED, err=True)
            raise typer.Exit(1)
