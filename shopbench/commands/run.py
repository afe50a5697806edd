"""`shopbench run <benchmark>`: run a model or baseline on a benchmark into a run directory.

`run_app` is the `run` command group; other benchmarks add their subcommand to it from their own command module
(`from shopbench.commands.run import run_app` then `@run_app.command("intentionqa")`).
"""

from __future__ import annotations

from pathlib import Path

import typer

run_app = typer.Typer(
    name="run",
    help="Run a model or baseline on a benchmark (results go to a run directory; score it with `shopbench score`).",
    no_args_is_help=True,
)

MODEL_HELP = (
    "Model spec: llama-cpp:<file.gguf|smollm2>, openai:<model>, anthropic:<model>, "
    "openai-compatible:<base url>#<model>, random, or oracle (uses gold answers)."
)


def register(app: typer.Typer) -> None:
    app.add_typer(run_app, name="run")


@run_app.command("shoppingbench")
def shoppingbench(
    model: str = typer.Option(..., "--model", "-m", help=MODEL_HELP),
    world: Path | None = typer.Option(None, "--world", help="World folder (default: the default world)."),
    tasks: str | None = typer.Option(None, "--tasks", help="Task set of the world (default: generated; or official)."),
    intent: list[str] | None = typer.Option(None, "--intent", help="product, shop, voucher or web (repeatable)."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="At most N tasks per intent."),
    task_id: list[str] | None = typer.Option(None, "--task-id", help="Only these task ids (repeatable)."),
    epochs: int = typer.Option(1, "--epochs", min=1, help="Play every task K times (pass^k)."),
    concurrency: int = typer.Option(1, "--concurrency", "-c", min=1, help="Episodes played at once."),
    out: Path | None = typer.Option(None, "--out", help="Run directory (default runs/shoppingbench-<model>-<time>)."),
    resume: bool = typer.Option(False, "--resume", help="Continue a killed run in --out: finished episodes are kept."),
    shard: str | None = typer.Option(None, "--shard", help="Play shard i of n (1-based, e.g. 2/4); join with merge."),
    protocol: str = typer.Option("native", "--protocol", help="native (tool calling) or paper (<think>/<tool_call>)."),
    max_steps: int = typer.Option(30, "--max-steps", min=1, help="Steps per episode (reference: 30)."),
    temperature: float = typer.Option(0.0, "--temperature", help="Sampling temperature (reference: 0)."),
    max_tokens: int = typer.Option(1024, "--max-tokens", min=1, help="Tokens per model reply."),
    seed: int = typer.Option(0, "--seed", help="Seed for sampling and baselines (epoch k uses seed + k)."),
    n_gpu_layers: int = typer.Option(0, "--n-gpu-layers", help="llama-cpp: layers on the GPU (-1 all; CUDA build)."),
    n_ctx: int = typer.Option(8192, "--n-ctx", min=512, help="llama-cpp: context window in tokens."),
    timeout: float = typer.Option(120.0, "--timeout", help="API backends: seconds per request before a retry."),
    server: str | None = typer.Option(None, "--server", help="Play against a running `shopbench serve` at this URL."),
    server_token: str | None = typer.Option(None, "--server-token", envvar="SHOPBENCH_TOKEN",
                                            help="Bearer token for --server."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
    cache_path: Path | None = typer.Option(None, "--cache", help="Response cache file "
                                           "(default $SHOPBENCH_HOME/cache/responses.sqlite)."),
    prices: Path | None = typer.Option(None, "--prices", envvar="SHOPBENCH_PRICES",
                                       help="Price table (JSON/TOML, USD per 1M tokens) extending the defaults."),
) -> None:
    """Play ShoppingBench tasks with a model through the MCP sandbox.

    Examples: `shopbench run shoppingbench --model llama-cpp:smollm2 --limit 2 --max-steps 6` ·
    `shopbench run shoppingbench --model openai:gpt-4.1 --concurrency 8 --out runs/gpt41` ·
    `shopbench run shoppingbench --model oracle --intent voucher`
    """
    import asyncio
    import logging

    from rich.console import Console

    from evaluators.agent.shoppingbench_run import ShoppingRunConfig, run_shoppingbench
    from evaluators.models.base import ModelSpecError
    from evaluators.runs.manifest import ManifestMismatch
    from evaluators.runs.orchestrate import RunDirError
    from evaluators.runs.progress import RichProgress

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    console = Console(stderr=True)
    if resume and out is None:
        raise typer.BadParameter("--resume needs --out (the run directory to continue)", param_hint="--resume")
    config = ShoppingRunConfig(
        model=model, world=world, task_set=tasks, intents=tuple(intent) if intent else ShoppingRunConfig.intents,
        limit=limit, task_ids=task_id, epochs=epochs, concurrency=concurrency, out=out, resume=resume, shard=shard,
        protocol=protocol, max_steps=max_steps, temperature=temperature, max_tokens=max_tokens, seed=seed,
        n_gpu_layers=n_gpu_layers, n_ctx=n_ctx, timeout_s=timeout, server_url=server, server_token=server_token,
        cache=not no_cache, cache_path=cache_path, prices=prices,
    )
    try:
        result = asyncio.run(run_shoppingbench(config, RichProgress(f"shoppingbench · {model}", console)))
    except (ModelSpecError, ManifestMismatch, RunDirError, ValueError, KeyError, FileNotFoundError) as error:
        console.print(f"[red]error:[/red] {str(error).strip(chr(39))}")
        raise typer.Exit(2) from None
    summary = result.summary
    console.print(f"run: {result.run_dir}  ·  {summary.completed} played, {summary.skipped} resumed, "
                  f"{len(summary.failed)} failed of {summary.total}")
    for episode_id, message in list(summary.failed.items())[:5]:
        console.print(f"[red]failed[/red] {episode_id}: {message}")
    console.print(f"score it: shopbench score {result.run_dir}")
    if summary.failed:
        raise typer.Exit(1)
