"""Tell-tale signs of assembled instructions, counted over generated worlds beside the official test set.

    .venv/bin/python perf/report_instruction_signs.py [--world DIR ...] [--examples N]

Prints, per sign (benchmarks/shoppingbench/worldgen/telltale.py: label-style fragments, lower-cased brands, doubled
words, repeated constraints, context sentences that do not fit, article errors), how many tasks show it and the
share, for the default world, each --world given (e.g. a 100k world built with `shopbench world generate`), and the
official test set (900 tasks, bundled). tests/test_instruction_signs.py holds the default world's counts at or
below the official set's. With --examples, prints that many instructions showing each sign.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.shoppingbench.schema import Product, ShoppingTask  # noqa: E402
from benchmarks.shoppingbench.worldgen.telltale import SIGNS, count_signs, task_signs  # noqa: E402
from mcp_server.shopping.world import World  # noqa: E402
from mcp_server.shopping.world_build import default_world  # noqa: E402


def generated(world: World) -> tuple[list[ShoppingTask], dict[str, Product]]:
    tasks = world.tasks("generated")
    return tasks, world.products.get(list(dict.fromkeys(t.product_id for task in tasks for t in task.targets)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", type=Path, action="append", default=[], help="another generated world folder")
    parser.add_argument("--examples", type=int, default=0, help="print this many instructions per sign")
    args = parser.parse_args()
    default = default_world()
    columns: list[tuple[str, list[ShoppingTask], dict[str, Product]]] = []
    for world in [default, *(World.open(path) for path in args.world)]:
        tasks, products = generated(world)
        label = f"{world.info.name} v{world.info.generator_version} ({world.info.products:,} products)"
        columns.append((label, tasks, products))
    columns.append(("official test set", default.tasks("official"), {}))
    counted = [count_signs(tasks, products) for _, tasks, products in columns]
    width = max(len(label) for label, _, _ in columns) + 2
    print(f"{'sign':22}" + "".join(f"{label:>{width}}" for label, _, _ in columns))
    for sign in SIGNS:
        print(f"{sign:22}" + "".join(f"{f'{c[sign]} ({c[sign] / n:.1%})':>{width}}" for c, n in counted))
    print(f"{'tasks':22}" + "".join(f"{n:>{width}}" for _, n in counted))
    if args.examples:
        for label, tasks, products in columns:
            for sign in SIGNS:
                shown = [t.query for t in tasks if sign in task_signs(t, products)][:args.examples]
                for query in shown:
                    print(f"\n[{label}] {sign}: {query}")


if __name__ == "__main__":
    main()
