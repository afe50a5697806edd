"""Task generator for the product, shop and voucher intents, following the official rules (SPEC §1.2).

Constraints are drawn as the reference generator draws them (title always; one SKU option, each attribute key with
one value, each service and one price mode each with probability ½; price bounds int(p ± uniform(0, p))). The query
is written from templates in a shopper's words. A task is kept only if it is solvable: every target comes back from
the injected `finder` for a search built from what the query says (with the filters the query states), and for a
voucher task the targets' basket is within budget under voucher.py's rules.
"""

from __future__ import annotations

import math
import random
import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

from benchmarks.jsonl import read_jsonl, write_jsonl
from benchmarks.shoppingbench.schema import (
    TASK_FILES,
    Intent,
    PriceConstraint,
    Product,
    ShoppingTask,
    Target,
    Voucher,
    task_id_for,
)
from benchmarks.shoppingbench.voucher import quote, within_budget

Finder = Callable[[str, dict], Iterable[str]]
"""(search text, filters) -> the product ids find_product shows over its five pages, best first (may be lazy).
Filters: price_min, price_max, services, shop_id."""

SERVICE_WORDS = {
    "official": "sold by an official store",
    "freeShipping": "with free shipping",
    "COD": "with cash on delivery",
    "flashsale": "on a flash sale",
}
OPENERS = ("I'm looking for", "Show me", "Find me", "Looking for", "Can you find", "I want to buy", "I need")
SHOP_OPENERS = ("Find a shop that sells", "Looking for a shop that offers", "I want one store with")
COLOR_KEYS = ("color_family", "light_color", "color")
MAX_QUERY_TITLE_WORDS = 10
ATTEMPTS_PER_TASK = 25


# --- constraints (official rules) --------------------------------------------------------------------------------

def draw_target(product: Product, rng: random.Random, *, with_price: bool = True) -> Target:
    """The constraints a task states about one product, drawn by the official rules."""
    target = Target(product_id=product.product_id, title=[product.title])
    if product.sku_options and rng.random() < 0.5:
        target.sku_options = [dict(rng.choice([product.sku_options[k] for k in sorted(product.sku_options,
                                                                                         key=int)]))]
    option = target.sku_options[0] if target.sku_options else {}
    # A multi-valued attribute that is also an SKU dimension (a measure) takes the chosen option's value, so the
    # task never asks for "115pcs" and "45pcs" of one product at once.
    attributes = [{key: [option[key] if option.get(key) in values else rng.choice(values)]}
                  for key, values in product.attributes.items() if values and rng.random() < 0.5]
    target.attributes = attributes or None
    services = [s for s in product.service if rng.random() < 0.5]
    target.service = services or None
    if with_price and rng.random() < 0.5:
        target.price = [_price_constraint(product.price, rng)]
    return target


def _price_constraint(price: float, rng: random.Random) -> PriceConstraint:
    low = int(price - rng.uniform(0, price))
    high = max(int(price + rng.uniform(0, price)), math.ceil(price))
    mode = rng.choice(("greater than", "between", "less than"))
    if mode == "greater than":
        return {"greater than": [low, None]}
    if mode == "between":
        return {"between": [low, high]}
    return {"less than": [0, high]}


def price_filters(target: Target) -> dict:
    """The find_product filters a shopper would set from the target's stated price and services."""
    filters: dict = {}
    for constraint in target.price or []:
        (mode, (low, high)), = constraint.items()
        if mode in ("greater than", "between"):
            filters["price_min"] = low
        if mode in ("less than", "between"):
            filters["price_max"] = high
    if target.service:
        filters["services"] = tuple(target.service)
    return filters


# --- words -------------------------------------------------------------------------------------------------------

def product_phrase(product: Product) -> str:
    """How a shopper names the product: its title, shortened, for two products in five without the brand (chosen by
    the product id, so the search a task was checked with can be rebuilt from the task alone)."""
    title = re.sub(r"[\(\[（【].*?[\)\]）】]", " ", product.title)
    words = title.split()
    drop_brand = zlib.crc32(product.product_id.encode()) % 5 < 2
    if product.brand and words and words[0].lower() == product.brand.split()[0].lower() and drop_brand:
        words = words[len(product.brand.split()):] or words
    return " ".join(words[:MAX_QUERY_TITLE_WORDS])


def search_for(target: Target, product: Product) -> tuple[str, dict]:
    """The find_product search (text, filters) built from what a task says about the target: the check that
    decided the task was solvable, rebuildable by anyone holding the task and the catalog."""
    return describe(target, product)[1], price_filters(target)


def describe(target: Target, product: Product) -> tuple[str, str]:
    """(words naming the product and its stated constraints, the search text a shopper would type)."""
    phrase = product_phrase(product)
    clauses, search_words = [], [phrase]
    for option in target.sku_options or []:
        clauses.append(", ".join(_option_words(key, value) for key, value in option.items()))
        search_words.extend(option.values())
    stated = {(k, v) for option in target.sku_options or [] for k, v in option.items()}
    for attribute in target.attributes or []:
        for key, values in attribute.items():
            if (key, values[0]) not in stated:
                clauses.append(_attribute_words(key, values[0]))
                search_words.append(values[0])
    clauses.extend(SERVICE_WORDS[s] for s in target.service or [])
    for constraint in target.price or []:
        clauses.append(_price_words(constraint))
    text = phrase if not clauses else f"{phrase}, " + ", ".join(clauses)
    return text, " ".join(search_words)


def _option_words(key: str, value: str) -> str:
    if key in COLOR_KEYS:
        return f"in {value}"
    if key == "size":
        return f"in size {value}"
    return f"{key.replace('_', ' ')} {value}"


def _attribute_words(key: str, value: str) -> str:
    if key.endswith("material"):
        return f"made of {value}"
    if key == "brand":
        return f"from the brand {value}"
    return f"{key.replace('_', ' ')}: {value}"


def _price_words(constraint: PriceConstraint) -> str:
    (mode, (low, high)), = constraint.items()
    if mode == "greater than":
        return f"priced above {low:g} pesos"
    if mode == "between":
        return f"priced between {low:g} and {high:g} pesos"
    return f"under {high:g} pesos"


def _found(finder: Finder, search: str, filters: dict, product_id: str) -> bool:
    return product_id in finder(search, filters)


# --- product intent ----------------------------------------------------------------------------------------------

def product_tasks(products: list[Product], count: int, rng: random.Random, finder: Finder) -> list[tuple[str, list]]:
    """Product-finder tasks: (query, [target])."""
    tasks: list[tuple[str, list]] = []
    used: set[str] = set()
    for _ in range(count * ATTEMPTS_PER_TASK):
        if len(tasks) == count:
            break
        product = rng.choice(products)
        if product.product_id in used:
            continue
        target = draw_target(product, rng)
        text, search = describe(target, product)
        if not _found(finder, search, price_filters(target), product.product_id):
            continue
        used.add(product.product_id)
        tasks.append((f"{rng.choice(OPENERS)} {text}.", [target]))
    return tasks


# --- shop intent -------------------------------------------------------------------------------------------------

def shop_tasks(products: list[Product], count: int, rng: random.Random, finder: Finder) -> list[tuple[str, list]]:
    """Multi-product seller tasks: 2–4 targets from one shop, named in order."""
    shops = _by_shop(products, minimum=2)
    tasks: list[tuple[str, list]] = []
    for _ in range(count * ATTEMPTS_PER_TASK):
        if len(tasks) == count or not shops:
            break
        items = shops[rng.choice(sorted(shops))]
        chosen = rng.sample(items, rng.randint(2, min(4, len(items))))
        described = []
        for product in chosen:
            target = draw_target(product, rng)
            text, search = describe(target, product)
            if not _found(finder, search, price_filters(target), product.product_id):
                break
            described.append((target, text))
        else:
            items_text = "; ".join(f"({n}) {text}" for n, (_, text) in enumerate(described, start=1))
            query = f"{rng.choice(SHOP_OPENERS)} these items: {items_text}. The shop should sell all these products."
            tasks.append((query, [t for t, _ in described]))
    return tasks


def _by_shop(products: Iterable[Product], minimum: int) -> dict[str, list[Product]]:
    """Shops with at least `minimum` products of distinct titles (one product per title)."""
    shops: dict[str, dict[str, Product]] = defaultdict(dict)
    for product in products:
        shops[product.shop_id].setdefault(product.title, product)
    return {shop: list(items.values()) for shop, items in shops.items() if len(items) >= minimum}


# --- voucher intent ----------------------------------------------------------------------------------------------

def voucher_tasks(products: list[Product], count: int, rng: random.Random,
                  finder: Finder) -> list[tuple[str, list, Voucher]]:
    """Coupon & budget tasks: 1–4 targets, no price constraints, a platform or shop voucher and a budget."""
    shops = _by_shop(products, minimum=1)
    tasks: list[tuple[str, list, Voucher]] = []
    for _ in range(count * ATTEMPTS_PER_TASK):
        if len(tasks) == count:
            break
        voucher_type = rng.choice(("platform", "shop"))
        size = rng.randint(1, 4)
        if voucher_type == "shop":
            items = shops[rng.choice(sorted(shops))]
            if len(items) < size:
                continue
            chosen = rng.sample(items, size)
        else:
            chosen = rng.sample(products, size)
        prices = [p.price for p in chosen]
        shop_ids = [p.shop_id for p in chosen]
        if sum(prices) < 100 or len({p.product_id for p in chosen}) < size:
            continue
        voucher = draw_voucher(prices, shop_ids, voucher_type, rng)
        if not within_budget(prices, shop_ids, voucher):
            continue
        described = []
        for product in chosen:
            target = draw_target(product, rng, with_price=False)
            text, search = describe(target, product)
            if not _found(finder, search, price_filters(target), product.product_id):
                break
            described.append((target, text))
        else:
            items_text = _join_items([text for _, text in described])
            query = f"{rng.choice(OPENERS)} {items_text}.\n\n{voucher_text(voucher)}"
            tasks.append((query, [t for t, _ in described], voucher))
    return tasks


def draw_voucher(prices: list[float], shop_ids: list[str], voucher_type: str, rng: random.Random) -> Voucher:
    """A voucher by the official rules; price after voucher and budget come from voucher.quote."""
    total = sum(prices)
    threshold = round(rng.uniform(0.1 * total, 0.9 * total))
    if rng.random() < 0.5:
        face = round(rng.uniform(0.1 * threshold, 0.5 * threshold))
        voucher = Voucher(voucher_type=voucher_type, threshold=threshold, discount_type="fixed", face_value=face,
                          budget=0)
    else:
        discount = round(rng.uniform(0.1, 0.5), 2)
        cap = round(rng.uniform(threshold * discount, threshold))
        voucher = Voucher(voucher_type=voucher_type, threshold=threshold, discount_type="percentage",
                          discount=discount, cap=cap, budget=0)
    after = quote(prices, shop_ids, voucher).total_after_voucher
    base = math.ceil(after)
    budget = base + rng.randint(0, math.ceil(0.1 * base))
    return voucher.model_copy(update={"price_after_voucher": after, "budget": budget})


def voucher_text(voucher: Voucher) -> str:
    """The official ending of a voucher query."""
    scope = ("The voucher applies to all products." if voucher.voucher_type == "platform"
             else "The voucher only applies to the products from the same shop.")
    if voucher.discount_type == "fixed":
        discount = f"It provides a fixed discount of `{voucher.face_value:g}`."
    else:
        discount = (f"It provides a percentage discount of `{round((voucher.discount or 0) * 100)}%` "
                    f"with a cap of `{voucher.cap:g}`.")
    return (f"My budget is only `{voucher.budget:g}`, but I have a voucher with the following rules:\n1. {scope}\n"
            f"2. It is valid only when the total price of the products exceeds `{voucher.threshold:g}`.\n3. {discount}")


def _join_items(texts: list[str]) -> str:
    if len(texts) == 1:
        return texts[0]
    return "; ".join(texts[:-1]) + f"; and also {texts[-1]}"


# --- assembling a task set -----------------------------------------------------------------------------------------

def assemble(intent: Intent, rows: list[tuple], task_set: str) -> list[ShoppingTask]:
    tasks = []
    for index, row in enumerate(rows):
        query, targets = row[0], row[1]
        voucher = row[2] if intent == "voucher" else None
        if any(t.product_id in query for t in targets):
            raise AssertionError("a generated query names a product id")
        tasks.append(ShoppingTask(task_id=task_id_for(intent, index), task_set=task_set, intent=intent,
                                  task_index=index, query=query, targets=targets, voucher=voucher))
    return tasks


def generate_tasks(products: list[Product], *, seed: int, per_intent: int, finder: Finder,
                   task_set: str = "generated") -> dict[Intent, list[ShoppingTask]]:
    """Product, shop and voucher task sets (knowledge tasks come with their corpus from knowledge.py)."""
    return {
        "product": assemble("product", product_tasks(products, per_intent, random.Random(seed * 4 + 1), finder),
                            task_set),
        "shop": assemble("shop", shop_tasks(products, per_intent, random.Random(seed * 4 + 2), finder), task_set),
        "voucher": assemble("voucher", voucher_tasks(products, per_intent, random.Random(seed * 4 + 3), finder),
                            task_set),
    }


def write_task_set(folder: Path, tasks: dict[Intent, list[ShoppingTask]]) -> None:
    """Official task files, one per intent, named as in the official release."""
    folder.mkdir(parents=True, exist_ok=True)
    for intent, items in tasks.items():
        write_jsonl(folder / TASK_FILES[intent], [task.to_official() for task in items])


def sample_products(catalog: Path, n_products: int, limit: int, seed: int) -> list[Product]:
    """Every product of a seeded subset of shops, about `limit` products in all, read in one streaming pass.

    Whole shops are kept (not single products) so shop and shop-voucher tasks find several items per shop.
    """
    keep_one_in = max(1, n_products // limit)
    products = []
    for _, record in read_jsonl(catalog):
        shop_id = record["product"]["shop_id"]
        if keep_one_in == 1 or zlib.crc32(f"{seed}:{shop_id}".encode()) % keep_one_in == 0:
            products.append(Product.model_validate(record["product"]))
    return products
