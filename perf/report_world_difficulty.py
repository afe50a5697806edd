"""How hard the default world is: oracle, naive and heuristic through the real run and score path, and how often
the raw instruction alone puts the gold on page 1 of find_product.

    .venv/bin/python perf/report_world_difficulty.py [--world DIR] [--limit N] [--concurrency N]

Prints, per intent: the oracle's ASR (must be 1.0 everywhere), the heuristic's success on the checked tasks (every
generated task is checked, so it must be 1.0), the naive baseline's ASR (target ≤ 0.15 overall), and the share of
tasks whose raw instruction finds a gold product on page 1 (target ≤ 35%; 100% with the v1 generator). Each model
is played with `run_benchmark` (the code behind `shopbench run shoppingbench`) and scored with `score_run` (behind
`shopbench score`), so the figures are what users get. The machine load is printed with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.shoppingbench.schema import INTENTS, ShoppingTask  # noqa: E402
from benchmarks.shoppingbench.worldgen.heuristic import read_instruction, records_in  # noqa: E402
from mcp_server.shopping.world import World  # noqa: E402
from mcp_server.shopping.world_build import WorldTools, default_world  # noqa: E402

TARGETS = {"oracle": "1.0 on every intent", "heuristic": "1.0 (all checked tasks)", "naive": "<= 0.15 overall"}


def run_and_score(model: str, world: World, out: Path, limit: int | None, concurrency: int) -> dict[str, float]:
    """ASR per intent and overall, from a real run scored by the real scorer."""
    from evaluators.harness.run import RunConfig, run_benchmark
    from evaluators.results.scoring import score_run

    config = RunConfig(benchmark="shoppingbench", model=model, world=world.root, out=out / model, limit=limit,
                       concurrency=concurrency, cache=False)
    asyncio.run(run_benchmark(config))
    rows = score_run(out / model).metric_rows()
    return {row.group: row.value for row in rows if row.metric == "ASR" and row.value is not None}


def page_one(world: World, tasks: list[ShoppingTask]) -> tuple[dict[str, float], dict[str, float]]:
    """Per intent: the share of tasks whose raw instruction puts a gold product on page 1 of find_product, and (for
    several items) the share of named items whose own text puts its gold on page 1."""
    tools = WorldTools(world.products)
    whole: dict[str, list[bool]] = defaultdict(list)
    items: dict[str, list[bool]] = defaultdict(list)
    for task in tasks:
        gold = {t.product_id for t in task.targets}
        hits = {r["product_id"] for r in records_in(tools.call("find_product", {"q": task.query, "page": 1}))}
        whole[task.intent].append(bool(gold & hits))
        whole["overall"].append(bool(gold & hits))
        reading = read_instruction(task.query)
        if len(task.targets) > 1:
            for target, text in zip(task.targets, reading.raw_items, strict=False):
                found = {r["product_id"] for r in records_in(tools.call("find_product", {"q": text, "page": 1}))}
                items[task.intent].append(target.product_id in found)
    share = {k: sum(v) / len(v) for k, v in whole.items()}
    return share, {k: sum(v) / len(v) for k, v in items.items() if v}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", type=Path, default=None, help="world folder (default: the default world)")
    parser.add_argument("--limit", type=int, default=None, help="at most this many tasks per intent")
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    world = World.open(args.world) if args.world else default_world()
    tasks = world.tasks("generated")
    if args.limit:
        tasks = [t for intent in INTENTS for t in [t for t in tasks if t.intent == intent][:args.limit]]
    print(f"world {world.info.name} (generator v{world.info.generator_version}, {world.info.products:,} products, "
          f"{len(tasks)} tasks); load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="difficulty-") as tmp:
        for model in ("oracle", "heuristic", "naive"):
            started = time.perf_counter()
            results[model] = run_and_score(model, world, Path(tmp), args.limit, args.concurrency)
            print(f"  ran {model} in {time.perf_counter() - started:.1f} s (load {os.getloadavg()[0]:.2f})")
    whole, per_item = page_one(world, tasks)
    groups = [*INTENTS, "overall"]
    print(f"\n{'':34}" + "".join(f"{g:>10}" for g in groups) + "   target")
    for model in ("oracle", "heuristic", "naive"):
        row = results[model]
        print(f"{model + ' ASR':34}" + "".join(f"{row.get(g, float('nan')):>10.3f}" for g in groups)
              + f"   {TARGETS[model]}")
    print(f"{'raw instruction: gold on page 1':34}" + "".join(f"{whole.get(g, float('nan')):>10.1%}" for g in groups)
          + "   <= 35% overall")
    print(f"{'  each named item: gold on page 1':34}"
          + "".join(f"{per_item[g]:>10.1%}" if g in per_item else f"{'':>10}" for g in groups) + "   (shop, voucher)")
    ok = (all(results["oracle"].get(g) == 1.0 for g in groups) and results["heuristic"].get("overall") == 1.0
          and results["naive"].get("overall", 1.0) <= 0.15 and whole["overall"] <= 0.35)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}; all targets met: {ok}")


if __name__ == "__main__":
    main()
