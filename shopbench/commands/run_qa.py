"""`shopbench run shopping-mmlu|intentionqa|session-intent`: the question benchmarks' subcommands of `shopbench run`.

They join the `run` group of shopbench/commands/run.py (this module is listed after it in COMMAND_MODULES) and call
evaluators.qa.run_qa. Questions go straight to the model, without tools.
"""

from __future__ import annotations

from pathlib import Path

import typer

from shopbench.commands.run import MODEL_HELP, run_app

QA_BENCHMARKS = {
    "shopping-mmlu": ("zero-shot, few-shot (with --shots 1 or 5)", "the bundled samples (not the benchmark)"),
    "intentionqa": ("zero-shot, cot, cot-sc", "the bundled benchmark, both tasks"),
    "session-intent": ("zero-shot, few-shot (the paper's 5 shots), cot", "the bundled samples (not the benchmark)"),
}


def register(app: typer.Typer) -> None:
    for benchmark, (promptings, default_items) in QA_BENCHMARKS.items():
        run_app.command(benchmark)(_command(benchmark, promptings, default_items))


def _command(benchmark: str, promptings: str, default_items: str):
    def command(
        model: str = typer.Option(..., "--model", "-m", help=MODEL_HELP + " Also: majority (reads gold labels)."),
        items: Path | None = typer.Option(None, "--items", help=f"Items file or folder (default: {default_items})."),
        prompting: str | None = typer.Option(None, "--prompting", help=f"{promptings} (default: the first)."),
        shots: int = typer.Option(0, "--shots", min=0, help="Few-shot demonstrations."),
        limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N items."),
        concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Questions in flight at once."),
        out: Path | None = typer.Option(None, "--out", help="Run directory (default runs/<benchmark>-<model>-<time>)."),
        resume: bool = typer.Option(False, "--resume", help="Continue the run in --out; failed items are re-asked."),
        seed: int = typer.Option(0, "--seed", help="Seed for sampling, few-shot draws and the random baseline."),
        n_gpu_layers: int = typer.Option(0, "--n-gpu-layers", help="llama-cpp: layers on the GPU (-1 all)."),
        n_ctx: int = typer.Option(8192, "--n-ctx", min=512, help="llama-cpp: context window in tokens."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
    ) -> None:
        import asyncio
        import logging

        from rich.console import Console

        from benchmarks.jsonl import DataFileError
        from evaluators.models.base import ModelSpecError
        from evaluators.qa.runner import QARunConfig, run_qa
        from evaluators.runs.manifest import ManifestMismatch
        from evaluators.runs.orchestrate import RunDirError
        from evaluators.runs.progress import RichProgress

        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        console = Console(stderr=True)
        if resume and out is None:
            raise typer.BadParameter("--resume needs --out (the run directory to continue)", param_hint="--resume")
        config = QARunConfig(
            benchmark=benchmark, model=model, items=items, prompting=prompting, shots=shots, limit=limit,
            concurrency=concurrency, out=out, resume=resume, seed=seed, cache=not no_cache,
            model_options={"n_gpu_layers": n_gpu_layers, "n_ctx": n_ctx},
        )
        try:
            result = asyncio.run(run_qa(config, RichProgress(f"{benchmark} · {model}", console)))
        except (DataFileError, ModelSpecError, ManifestMismatch, RunDirError, ValueError, FileNotFoundError) as error:
            console.print(f"[red]error:[/red] {error}")
            raise typer.Exit(2) from None
        summary = result.summary
        console.print(f"run: {result.run_dir}  ·  {summary.completed} answered, {summary.skipped} resumed, "
                      f"{len(summary.failed)} failed of {summary.total}")
        for episode_id, message in list(summary.failed.items())[:5]:
            console.print(f"[red]failed[/red] {episode_id}: {message}")
        console.print(f"score it: shopbench score {result.run_dir}")
        if summary.failed:
            raise typer.Exit(1)

    command.__doc__ = (
        f"Ask a model the {benchmark} questions (no tools) and record one episode per item.\n\n"
        f"Example: `shopbench run {benchmark} --model random` · "
        f"`shopbench run {benchmark} --model llama-cpp:smollm2 --limit 3`"
    )
    return command
