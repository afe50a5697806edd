"""`shopbench replay`: browse a run's episodes step by step in the terminal."""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.options import World


def register(app: typer.Typer) -> None:
    @app.command("replay")
    def replay(
        runs: list[Path] = typer.Argument(..., help="Run directories (manifest.json + episodes/). Give two runs to "
                                          "compare episodes of the same task side by side (key c)."),
        task: str | None = typer.Option(None, "--task", help="Show only this task's episodes (opens it if one)."),
        world: World = None,
        score: bool = typer.Option(True, "--score/--no-score", help="Score the runs in the background."),
    ) -> None:
        """Replay trajectories step by step, with scores; two runs side by side.

        Episodes with intent, success and score; each step's thought, arguments and observation; the score
        breakdown.

        Example: shopbench replay runs/gpt-4.1 runs/human-ana --task shop-0007
        """
        from benchmarks.jsonl import DataFileError
        from shopbench_tui.replay import ReplayApp

        for run in runs:
            if not run.is_dir():
                raise typer.BadParameter(f"{run}: no such run directory", param_hint="RUNS")
        try:
            app = ReplayApp(runs, task=task, score=score, world=world)  # indexes the runs: a bad manifest fails here
        except (DataFileError, OSError) as error:
            typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        app.run()
