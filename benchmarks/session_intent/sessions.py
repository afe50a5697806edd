"""Plausible browsing sessions from a ShoppingBench catalog, to try the intention-tree pipeline on (`shopbench generate
sessions --world DIR`).

SessionIntentBench's sessions come from Amazon-M2, which is not available here. These are synthetic: a shopper starts
at a random product and, at each step, looks at a similar product of the same category (another brand, size or
price), moves to another category of the same department, or — less often — wanders to another department. The mix
mirrors the three exploration choices of the benchmark's Task 4. Lengths are 3–5 products, mostly 3, as in the
paper's Table 1. Everything derives from the seed.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from benchmarks.errors import BadInput
from benchmarks.shoppingbench.schema import Product

LENGTH_WEIGHTS = {3: 0.65, 4: 0.26, 5: 0.09}
"""Session lengths of the paper's test split (Table 1: 4752 / 1902 / 530)."""
MOVES = {"same category": 0.55, "same department": 0.3, "elsewhere": 0.15}


def session_product(product: Product) -> dict[str, Any]:
    """What a session line holds of a product: the title and the metadata a shopper would see."""
    record: dict[str, Any] = {"title": product.title, "product_id": product.product_id,
                              "category": product.category.split(" > ")[-1] if product.category else "",
                              "price": product.price}
    if product.brand:
        record["brand"] = product.brand
    attributes = {key.replace("_", " "): ", ".join(values) for key, values in product.attributes.items() if values}
    if attributes:
        record["attributes"] = attributes
    return record


def make_sessions(products: Sequence[Product], count: int, *, seed: int = 0,
                  lengths: dict[int, float] | None = None) -> list[dict[str, Any]]:
    """`count` sessions of distinct products, each `{"session_id", "products": [...]}`."""
    if len(products) < 10:
        raise BadInput(f"a catalog of {len(products)} products is too small to draw sessions from (need 10)")
    rng = random.Random(seed)
    by_category: dict[str, list[Product]] = defaultdict(list)
    by_department: dict[str, list[Product]] = defaultdict(list)
    for product in products:
        by_category[product.category].append(product)
        by_department[product.category.split(" > ")[0]].append(product)
    weights = lengths or LENGTH_WEIGHTS
    sessions = []
    for number in range(count):
        length = rng.choices(list(weights), weights=list(weights.values()))[0]
        current = rng.choice(products)
        chosen = [current]
        while len(chosen) < length:
            pool: Sequence[Product]
            move = rng.choices(list(MOVES), weights=list(MOVES.values()))[0]
            department = current.category.split(" > ")[0]
            if move == "same category":
                pool = by_category[current.category]
            elif move == "same department":
                pool = [p for p in by_department[department] if p.category != current.category]
            else:
                pool = products
            picked = [p for p in (rng.choice(pool) for _ in range(8)) if p not in chosen] if pool else []
            if not picked:
                picked = [p for p in (rng.choice(products) for _ in range(8)) if p not in chosen]
            if picked:
                current = picked[0]
                chosen.append(current)
        sessions.append({"session_id": f"s{seed}-{number + 1:05d}",
                         "products": [session_product(p) for p in chosen]})
    return sessions
