"""`shopbench report`: compare runs in a Markdown/HTML report with plots."""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.options import Baseline, Embedder, World


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        runs: list[Path] = typer.Argument(..., help="Run directories to compare."),
        out: Path = typer.Option(Path("report"), "--out", help="Folder for report.md, report.html and the plots."),
        baseline: Baseline = None,
        all_pairs: bool = typer.Option(False, "--all-pairs", help="Also compare every pair of runs, as a matrix."),
        world: World = None,
        embedder: Embedder = None,
    ) -> None:
        """A leaderboard, one figure per metric with every run, each run against a baseline; per-group rates with
        intervals, failure categories, tokens and cost; humans vs models when given.

        Exits 1 when some episode files could not be read (each is named, with its line; the report says so too).

        Example: shopbench report runs/gpt-4.1 runs/qwen3 runs/human-ana --baseline runs/gpt-4.1 --all-pairs
        """
        from benchmarks.errors import Refusal
        from evaluators.results.episodes import unreadable_lines
        from evaluators.results.reports import load_runs, write_report
        from evaluators.results.scoring import ScoreOptions

        try:
            scored = load_runs(runs, ScoreOptions(world=world, embedder=embedder))
            files = write_report(scored, out, baseline=baseline, pairs=all_pairs)
        except (Refusal, OSError) as error:
            typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        typer.echo(f"report: {files.markdown} and {files.html}")
        for plot in files.plots:
            typer.echo(f"plot: {plot}")
        unread = [line for run in scored
                  for line in unreadable_lines(run.run_dir, run.result.unreadable, run.result.episode_files)]
        if unread:
            typer.secho("error: " + "\n".join(unread), fg=typer.colors.RED, err=True)
            raise typer.Exit(1)
