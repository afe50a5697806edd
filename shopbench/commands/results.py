"""`shopbench results`: the scoreboard of runs, humans and models in one table."""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.options import Baseline, World


def register(app: typer.Typer) -> None:
    @app.command("results")
    def results(
        runs: list[Path] = typer.Argument(..., help="Run directories to score and compare."),
        baseline: Baseline = None,
        world: World = None,
    ) -> None:
        """A leaderboard per benchmark (runs ranked by the primary metric), then the scoreboard: per-intent/task rates
        with 95% bootstrap intervals, humans and models together, and each run paired against the baseline.

        Example: shopbench results runs/gpt-4.1 runs/human-ana runs/human-ben
        """
        from benchmarks.jsonl import DataFileError
        from mcp_server.trajectory import read_manifest
        from shopbench_tui.results import ResultsApp

        for run in runs:
            try:
                read_manifest(run)
            except (DataFileError, OSError) as error:
                typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
                raise typer.Exit(2) from None
        ResultsApp(runs, world=world, baseline=baseline).run()
