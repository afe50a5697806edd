"""`shopbench compare RUN_A RUN_B`: is A better than B on the tasks both played? (paired difference, McNemar)"""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.options import Embedder, World


def register(app: typer.Typer) -> None:
    @app.command("compare")
    def compare(
        run_a: Path = typer.Argument(..., help="Run directory A."),
        run_b: Path = typer.Argument(..., help="Run directory B (same benchmark)."),
        json_out: Path | None = typer.Option(None, "--json", help="Also write the comparison as JSON to this file."),
        world: World = None,
        embedder: Embedder = None,
    ) -> None:
        """Paired comparison of two runs on the tasks both played.

        A − B per intent/task and overall with a paired bootstrap 95% interval, and the exact McNemar test for
        binary success; says how many tasks each run left out. Several epochs: each task's mean over epochs.

        Example: shopbench compare runs/model-a runs/model-b --json a-vs-b.json
        """
        from rich.console import Console

        from benchmarks.errors import Refusal
        from benchmarks.jsonl import write_json_atomic
        from evaluators.results.reports import load_runs
        from evaluators.results.reports.compare import compare as compare_runs
        from evaluators.results.scoring import ScoreOptions

        try:
            a, b = load_runs([run_a, run_b], ScoreOptions(world=world, embedder=embedder))
            comparison = compare_runs(a.result, b.result, a.label, b.label)
        except (Refusal, FileNotFoundError) as error:
            typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        console = Console()
        for renderable in comparison.render():
            console.print(renderable)
        if json_out is not None:
            write_json_atomic(json_out, comparison.to_json())
            typer.echo(f"comparison: {json_out}")
