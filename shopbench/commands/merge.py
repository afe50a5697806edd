"""`shopbench merge`: join shard runs into one run directory."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("merge")
    def merge(
        runs: list[Path] = typer.Argument(..., help="Run directories to join (e.g. the shards of one run)."),
        out: Path = typer.Option(..., "--out", help="New run directory for the merged run."),
    ) -> None:
        """Join runs of the same configuration (e.g. `--shard 1/2` and `--shard 2/2`) into one run directory.

        Refuses runs whose model, parameters, prompts, task set or world differ, and any episode finished twice.
        """
        from evaluators.harness.manifest import ManifestMismatch
        from evaluators.harness.merge import MergeError, merge_runs

        try:
            result = merge_runs(list(runs), out)
        except (ManifestMismatch, MergeError, FileNotFoundError) as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"merged {result.episodes} episodes into {result.out}")
        if result.unfinished:
            typer.echo(f"{len(result.unfinished)} unfinished episode(s) left out (rerun them with --resume): "
                       + ", ".join(result.unfinished[:5]), err=True)
