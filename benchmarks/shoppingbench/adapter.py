"""ShoppingBench's registration: an agentic benchmark played with the sandbox tools in a world."""

from __future__ import annotations

from benchmarks.registry import BenchmarkSpec, register

SHOPPINGBENCH = register(
    BenchmarkSpec(
        name="shoppingbench",
        kind="agentic",
        loader="benchmarks.shoppingbench.tasks:load_task_set",
        item_schema="benchmarks.shoppingbench.schema:ShoppingTask",
        primary_metric="ASR",
        help="ShoppingBench, agentic shopping tasks in a world: search, product pages, web search, calculator",
        promptings=("native", "paper"),
        default_items="the world's generated task set",
        group="intent",
        overall="unweighted mean over intents (the paper's average)",
        compared_metrics=("ASR", "CAR"),
    )
)
