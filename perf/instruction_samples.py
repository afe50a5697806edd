"""Generated instructions beside official ones: the docs page of examples and the blind reader's mix.

    .venv/bin/python perf/instruction_samples.py [--seed N] [--out docs]
    .venv/bin/python perf/instruction_samples.py --intents web --per-intent 10 --suffix knowledge --seed N

Writes, from the default world (generator version printed) and the bundled official test set:
- docs/instruction-examples.md: per intent, five generated instructions and five official ones;
- docs/blind-mix/mix.md: 20 generated and 20 official instructions (five per intent each), shuffled, numbered,
  unlabeled, for a reader who has not seen either set to judge (which are written by a program, how natural each is);
- docs/blind-mix/answer-key.md: which number is which (keep it from the reader).
With --intents (and --per-intent, --suffix) only the mix of those intents, as mix-SUFFIX.md and
answer-key-SUFFIX.md: a closer look where a whole mix leaves few items of one intent.
The draw is seeded, so the same world and seed give the same files.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.shoppingbench.schema import INTENTS, ShoppingTask  # noqa: E402
from mcp_server.shopping.world import World  # noqa: E402
from mcp_server.shopping.world_build import default_world  # noqa: E402

PER_INTENT = 5
INTENT_NAMES = {"product": "Product finder", "shop": "Multi-product seller", "voucher": "Coupon & budget",
                "web": "Knowledge"}


def draw(tasks: list[ShoppingTask], rng: random.Random, kinds: Callable[[ShoppingTask], set[str]],
         intents: tuple[str, ...] = INTENTS, per_intent: int = PER_INTENT) -> dict[str, list[ShoppingTask]]:
    """`per_intent` tasks per intent, no two of the whole draw asking for the same kind of product (a reader would
    spot a repeated product, not the writing)."""
    seen: set[str] = set()
    drawn: dict[str, list[ShoppingTask]] = {}
    for intent in intents:
        pool = [t for t in tasks if t.intent == intent]
        rng.shuffle(pool)
        drawn[intent] = []
        for task in pool:
            if len(drawn[intent]) == per_intent:
                break
            if not kinds(task) & seen:
                seen |= kinds(task)
                drawn[intent].append(task)
    return drawn


def product_kinds(world: World) -> Callable[[ShoppingTask], set[str]]:
    """A task's kinds of product: each target's catalog category where the world holds it, else its title."""
    def kinds(task: ShoppingTask) -> set[str]:
        found = world.products.get(t.product_id for t in task.targets)
        return {found[t.product_id].category if t.product_id in found else (t.title or [t.product_id])[0]
                for t in task.targets}
    return kinds


def quoted(query: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in query.splitlines())


def examples_page(version: str, generated: dict[str, list[ShoppingTask]],
                  official: dict[str, list[ShoppingTask]]) -> str:
    lines = ["# Generated instructions beside official ones", "",
             f"Five instructions per intent from the default world (generator version {version}, seed 0; no two of the"
             " drawn tasks ask for the same kind of product) and five "
             "from the official ShoppingBench test set, drawn at random by `perf/instruction_samples.py` (which also "
             "writes the blind reader's mix in `docs/blind-mix/`). `perf/report_instruction_signs.py` counts the "
             "tell-tale signs of assembled text over both sets.", ""]
    for intent in INTENTS:
        lines += [f"## {INTENT_NAMES[intent]} (`{intent}`)", "", "### Generated", ""]
        lines += [quoted(t.query) + "\n" for t in generated[intent]]
        lines += ["### Official", ""]
        lines += [quoted(t.query) + "\n" for t in official[intent]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs")
    parser.add_argument("--intents", nargs="+", choices=INTENTS, default=list(INTENTS))
    parser.add_argument("--per-intent", type=int, default=PER_INTENT)
    parser.add_argument("--suffix", default="", help="names the mix and key files (mix-SUFFIX.md)")
    args = parser.parse_args()
    world = default_world()
    rng = random.Random(args.seed)
    kinds = product_kinds(world)
    intents = tuple(args.intents)
    generated = draw(world.tasks("generated"), rng, kinds, intents, args.per_intent)
    official = draw(world.tasks("official"), rng, kinds, intents, args.per_intent)
    if intents == INTENTS and args.per_intent == PER_INTENT:
        (args.out / "instruction-examples.md").write_text(
            examples_page(world.info.generator_version, generated, official), encoding="utf-8")
    mixed = [("generated", t) for ts in generated.values() for t in ts]
    mixed += [("official", t) for ts in official.values() for t in ts]
    rng.shuffle(mixed)
    folder = args.out / "blind-mix"
    folder.mkdir(parents=True, exist_ok=True)
    suffix = f"-{args.suffix}" if args.suffix else ""
    mix = [f"# {len(mixed)} shopping instructions", "",
           "Some of these were written by people with a language model's help, some assembled by a program. For each "
           "number, say which you think it is, and rate how natural it reads from 1 (clearly not) to 5 (as a "
           "shopper would write it).", ""]
    for number, (_, task) in enumerate(mixed, start=1):
        mix += [f"## {number}", "", quoted(task.query), ""]
    (folder / f"mix{suffix}.md").write_text("\n".join(mix), encoding="utf-8")
    key = [f"# Answer key to mix{suffix}.md", "",
           f"Generator version {world.info.generator_version}, seed {args.seed}.", "",
           "| # | source | intent | task |", "|---|---|---|---|"]
    key += [f"| {n} | {source} | {task.intent} | {task.task_id} |" for n, (source, task) in enumerate(mixed, start=1)]
    (folder / f"answer-key{suffix}.md").write_text("\n".join(key) + "\n", encoding="utf-8")
    print(f"wrote {folder / f'mix{suffix}.md'}, {folder / f'answer-key{suffix}.md'}")


if __name__ == "__main__":
    main()
