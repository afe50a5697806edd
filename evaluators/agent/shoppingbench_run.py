"""ShoppingBench runs through the one run pipeline (evaluators.runs.run), with the ShoppingBench-shaped config the
demo and perf/bench_harness.py use. New code calls `run_benchmark(RunConfig(benchmark="shoppingbench", ...))`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.runs.orchestrate import ProgressSink
from evaluators.runs.run import RunConfig, RunResult, run_benchmark


@dataclass
class ShoppingRunConfig:
    model: str
    world: Path | None = None
    task_set: str | None = None
    intents: tuple[str, ...] | None = None
    limit: int | None = None
    """At most this many tasks per intent (the first ones, in task-file order)."""
    task_ids: list[str] | None = None
    epochs: int = 1
    concurrency: int = 1
    out: Path | None = None
    resume: bool = False
    shard: str | None = None
    protocol: str = "native"
    max_steps: int = 30
    temperature: float = 0.0
    max_tokens: int = 1024
    top_p: float | None = None
    seed: int = 0
    n_gpu_layers: int = 0
    n_ctx: int = 8192
    timeout_s: float = 120.0
    server_url: str | None = None
    server_token: str | None = None
    cache: bool = True
    cache_path: Path | None = None
    prices: Path | None = None
    extra_notes: dict[str, Any] = field(default_factory=dict)


async def run_shoppingbench(config: ShoppingRunConfig, progress: ProgressSink | None = None) -> RunResult:
    fields = {name: getattr(config, name) for name in config.__dataclass_fields__}
    return await run_benchmark(RunConfig(benchmark="shoppingbench", **fields), progress)
