"""Task generator for the product, shop and voucher intents (SPEC §1.2), in the users' own words.

Constraints are first drawn as the reference generator draws them (title always; one SKU option, each attribute key
with one value, each service and one price mode each with probability ½; price bounds int(p ± uniform(0, p));
voucher tasks carry no price; a price bounded from below or on both sides, as in the official set), limited to
details a shopper can state (phrasing.sayable). The instruction then names the product in a shopper's words
(phrasing.product_phrase) and states every constraint as people do. A task is kept
only if
- it states its constraints exactly: reading the instruction back (heuristic.read_instruction) gives the target's
  constraints, no more and no fewer;
- it is solvable from the instruction alone: the scripted `heuristic` shopper, playing it against the world's real
  tools, ends on the gold products within 30 steps (heuristic.check_task);
- the gold is the right answer: when the heuristic stops on a rival (for a voucher task, a dearer copy that breaks
  the budget), or the first hit of the raw instruction is a product of the same kind meeting everything stated (and
  within budget), the task gains a constraint the gold meets and that rival does not (a price bound between the two
  prices, a service, a detail of the product page, an SKU option), and is written and checked again; a copy of the
  gold that nothing stated can rule out ends the attempt.
"""

from __future__ import annotations

import math
import random
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from benchmarks.jsonl import read_jsonl, write_jsonl
from benchmarks.shoppingbench.schema import (
    TASK_FILES,
    Intent,
    PriceConstraint,
    Product,
    ShoppingTask,
    Target,
    Voucher,
    product_contents,
    task_id_for,
)
from benchmarks.shoppingbench.voucher import quote, within_budget
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.heuristic import (
    MAX_STEPS,
    Tools,
    equivalent,
    heuristic_script,
    meets,
    pairs_ok,
    play,
    read_instruction,
    records_in,
)
from benchmarks.shoppingbench.worldgen.phrasing import NounPhrase, item_words, nameable, noun_phrase, sayable
from benchmarks.shoppingbench.worldgen.reading import stated_exactly, target_pairs
from benchmarks.shoppingbench.worldgen.sentences import compose

ATTEMPTS_PER_TASK = 25
SHARPEN_ROUNDS = 6
WRITE_TRIES = 3
SKU_RATE = 0.5
ATTRIBUTE_RATE = 0.5
"""The reference's rates."""
GREATER_THAN_SHARE = 0.65
"""The official set's price constraints: 471 "greater than" and 254 "between", never "less than" alone (a shopper's
"under 500 PHP" would read as generated)."""


# --- constraints (official rules) --------------------------------------------------------------------------------

def draw_target(product: Product, rng: random.Random, *, with_price: bool = True) -> Target:
    """The constraints a task states about one product, drawn by the official rules."""
    target = Target(product_id=product.product_id, title=[product.title])
    options = [product.sku_options[k] for k in sorted(product.sku_options, key=int)]
    if options and rng.random() < SKU_RATE:
        option = rng.choice(options)
        if all(sayable(k, v) for k, v in option.items()):
            target.sku_options = [dict(option)]
    option = target.sku_options[0] if target.sku_options else {}
    # A multi-valued attribute that is also an SKU dimension (a measure) takes the chosen option's value, so the
    # task never asks for "115pcs" and "45pcs" of one product at once.
    attributes = []
    for key, values in product.attributes.items():
        if values and rng.random() < ATTRIBUTE_RATE:
            value = option[key] if option.get(key) in values else rng.choice(values)
            if sayable(key, value):
                attributes.append({key: [value]})
    target.attributes = attributes or None
    services = [s for s in product.service if rng.random() < 0.5]
    target.service = services or None
    if with_price and rng.random() < 0.5:
        target.price = [_price_constraint(product.price, rng)]
    return target


def _price_constraint(price: float, rng: random.Random) -> PriceConstraint:
    low = int(price - rng.uniform(0, price))
    high = max(int(price + rng.uniform(0, price)), math.ceil(price))
    if rng.random() < GREATER_THAN_SHARE:
        return {"greater than": [low, None]}
    return {"between": [low, high]}


# --- telling the gold from a rival -------------------------------------------------------------------------------

ROUND_STEPS = (100, 50, 10, 5, 1)


def sharpen(target: Target, gold: Product, rival: Product, rng: random.Random, *,
            with_price: bool = True) -> Target | None:
    """The target with one more constraint that the gold meets and the rival does not; None when none exists."""
    ways = []
    if with_price and rival.price != gold.price:
        bounded = _price_bound(target, gold.price, rival.price)
        if bounded is not None:
            ways.append(target.model_copy(update={"price": [bounded]}))
    for service in gold.service:
        if service not in rival.service and service not in (target.service or []):
            ways.append(target.model_copy(update={"service": [*(target.service or []), service]}))
    stated = target_pairs(target)
    stated_keys = {k for k, _ in stated}
    rival_page = rival.model_dump()
    for key, values in gold.attributes.items():
        if len(values) == 1 and key not in stated_keys and sayable(key, values[0]) \
                and not pairs_ok(rival_page, stated | {(key, values[0])}):
            ways.append(target.model_copy(update={"attributes": [*(target.attributes or []), {key: [values[0]]}]}))
    if not target.sku_options:
        for option in gold.sku_options.values():
            pairs = set(option.items())
            if all(sayable(k, v) for k, v in pairs) and not any(k in stated_keys for k in option) \
                    and pairs_ok(gold.model_dump(), stated | pairs) and not pairs_ok(rival_page, stated | pairs):
                ways.append(target.model_copy(update={"sku_options": [dict(option)]}))
    return rng.choice(ways) if ways else None


def _price_bound(target: Target, price: float, rival: float) -> PriceConstraint | None:
    """The stated price range narrowed to a round bound between the gold's price and the rival's."""
    (mode, (low, high)), = (target.price or [{"none": [None, None]}])[0].items()
    low = low if mode in ("greater than", "between") else None
    high = high if mode in ("less than", "between") else None
    if rival > price:
        bound = next((b for step in ROUND_STEPS if price <= (b := math.ceil(rival / step) * step - step) < rival),
                     None)
        if bound is None or (high is not None and high <= bound):
            return None
        high = bound
    else:
        bound = next((b for step in ROUND_STEPS if rival < (b := math.floor(rival / step) * step + step) <= price),
                     None)
        if bound is None or (low is not None and low >= bound):
            return None
        low = bound
    if high is not None:  # bounded from above: from below too (half the price), as the official set bounds prices
        return {"between": [low if low is not None else int(price / 2), high]}
    return {"greater than": [low, None]}


# --- writing and checking a task ---------------------------------------------------------------------------------

def build_task(intent: Intent, chosen: list[Product], targets: list[Target], rng: random.Random, tools: Tools,
               voucher: Voucher | None = None) -> tuple[str, list[Target]] | None:
    """(query, targets) once the instruction states its constraints exactly, the heuristic solves it and no rival
    of the same kind meets everything stated ahead of the gold; None when that cannot be reached."""
    targets = list(targets)
    phrases = [noun_phrase(p, rng) for p in chosen]  # once: the rivals found are the same product's each round
    for _ in range(SHARPEN_ROUNDS):
        query = _write(intent, chosen, targets, phrases, rng, voucher)
        if query is None:
            return None
        task = ShoppingTask(task_id="check", task_set="check", intent=intent, task_index=0, query=query,
                            targets=targets, voucher=voucher)
        played = play(heuristic_script(query), tools.call)
        wrong = _first_wrong(task, played.recommended, chosen, tools)
        if wrong is None and played.steps <= MAX_STEPS:
            wrong = _naive_rival(query, chosen, targets, tools, voucher)
            if wrong is None:
                return query, targets
        if wrong is None:
            return None
        position, rival = wrong
        sharper = None if rival is None else sharpen(targets[position], chosen[position], rival, rng,
                                                     with_price=intent != "voucher")
        if sharper is None and rival is not None and rival.title == chosen[position].title:
            return None  # a copy of the gold that no stated detail rules out: other words find it again
        if sharper is None and (rival is None or intent != "product"):
            # nothing found, or (several products) nothing tells this one from its rival: name them in other words
            phrases = [noun_phrase(p, rng) for p in chosen]
            continue
        if sharper is None:
            return None
        targets[position] = sharper
    return None


def _write(intent: Intent, chosen: list[Product], targets: list[Target], phrases: list[NounPhrase],
           rng: random.Random, voucher: Voucher | None) -> str | None:
    for _ in range(WRITE_TRIES):
        items = [item_words(t, p, rng, phrase) for t, p, phrase in zip(targets, chosen, phrases, strict=True)]
        query = compose(intent, items, chosen, rng, voucher_text(voucher) if voucher else "")
        reading = read_instruction(query)
        if len(reading.items) == len(targets) and all(
                stated_exactly(t, spec) for t, spec in zip(targets, reading.items, strict=True)) \
                and not any(t.product_id in query for t in targets):
            return query
    return None


def _first_wrong(task: ShoppingTask, recommended: str | None, chosen: list[Product],
                 tools: Tools) -> tuple[int, Product | None] | None:
    """The first position whose pick the scorer would not provably accept (None: all provably accepted)."""
    if recommended is None:
        return 0, None
    ids = recommended.split(",")
    if len(ids) < len(task.targets):
        return len(ids), None
    found = tools.get(ids[:len(task.targets)])
    for position, (target, gold) in enumerate(zip(task.targets, chosen, strict=True)):
        pick = found.get(ids[position])
        if pick is None or not equivalent(pick, gold, target, task.intent):
            return position, pick
    picks = [found[i] for i in ids[:len(task.targets)]]
    if task.intent == "shop" and len({p.shop_id for p in picks}) != 1:
        return 0, None
    if task.voucher is not None and not within_budget([p.price for p in picks], [p.shop_id for p in picks],
                                                      task.voucher):
        # over budget: the pick dearest above its gold is the rival a stated detail must rule out
        excess, position = max((pick.price - gold.price, position)
                               for position, (pick, gold) in enumerate(zip(picks, chosen, strict=True)))
        return (position, picks[position]) if excess > 0 else (0, None)
    return None


def _naive_rival(query: str, chosen: list[Product], targets: list[Target], tools: Tools,
                 voucher: Voucher | None = None) -> tuple[int, Product] | None:
    """A product of the gold's kind that the raw text of an item puts first and that meets everything stated (and,
    in the gold's place, keeps a voucher task's basket within budget: a dearer copy is no answer)."""
    reading = read_instruction(query)
    for position, text in enumerate(reading.raw_items[:len(targets)]):
        cards = records_in(tools.call("find_product", {"q": text, "page": 1}))
        if not cards or cards[0]["product_id"] == chosen[position].product_id:
            continue
        first = tools.get([str(cards[0]["product_id"])]).get(str(cards[0]["product_id"]))
        if first is None or first.category != chosen[position].category or not meets(first, targets[position]):
            continue
        basket = [*chosen[:position], first, *chosen[position + 1:]]
        if voucher is None or within_budget([p.price for p in basket], [p.shop_id for p in basket], voucher):
            return position, first
    return None


# --- competition -------------------------------------------------------------------------------------------------

MIN_TWINS = 12
PER_TITLE = 2
ENOUGH_CONTESTED = 500
"""A target needs at least this many other listings with the same text (title, options and details: resellers at
other prices, with other services), which only the stated price and services tell apart."""


def contested(products: list[Product], minimum: int = MIN_TWINS) -> list[Product]:
    """The products with at least `minimum` listings of the same text: only those make targets, so every task's
    gold has rivals the search cannot tell from it (and, in its family, others of another brand, size or colour)."""
    listings = Counter(product_contents(p) for p in products)
    return [p for p in products if listings[product_contents(p)] > minimum and nameable(p)]


# --- difficulty ----------------------------------------------------------------------------------------------------

PAGE_ONE_SHARE = 0.33
"""At most this share of an intent's tasks may say their products so plainly that the whole instruction, searched as
it stands, puts a gold product on page 1 (the difficulty bound is 35% overall: left to the draw, a shop task finds
one of its several golds there about half the time, and version 8's default world drew 35.5% in all)."""


class PageOneQuota:
    """Counts the tasks whose raw instruction finds a gold product on page 1; refuses those over the share."""

    def __init__(self, tools: Tools, count: int) -> None:
        self.tools = tools
        self.left = int(PAGE_ONE_SHARE * count)

    def takes(self, query: str, targets: list[Target]) -> bool:
        gold = {t.product_id for t in targets}
        if not gold & {r["product_id"] for r in records_in(self.tools.call("find_product", {"q": query, "page": 1}))}:
            return True
        self.left -= 1
        return self.left >= 0


# --- product intent ----------------------------------------------------------------------------------------------

def product_tasks(products: list[Product], count: int, rng: random.Random, tools: Tools) -> list[tuple[str, list]]:
    """Product-finder tasks: (query, [target]), at most PER_TITLE of them about listings of one title."""
    tasks: list[tuple[str, list]] = []
    used: set[str] = set()
    per_title: Counter[str] = Counter()
    quota = PageOneQuota(tools, count)
    for _ in range(count * ATTEMPTS_PER_TASK):
        if len(tasks) == count:
            break
        product = rng.choice(products)
        if product.product_id in used or per_title[product.title] >= PER_TITLE:
            continue
        target = draw_target(product, rng)
        if not (target_pairs(target) or target.service or target.price):
            continue  # a product request states something beyond the product's name, as every official one does
        built = build_task("product", [product], [target], rng, tools)
        if built is not None and quota.takes(*built):
            used.add(product.product_id)
            per_title[product.title] += 1
            tasks.append(built)
    return tasks


# --- item counts -------------------------------------------------------------------------------------------------

SHOP_SIZES = {2: 89, 3: 86, 4: 75}
"""How many items a shop task asks, as the official set's 250 do."""


def _next_size(made: list[int], count: int, weights: dict[int, int], rng: random.Random) -> int:
    """An item count still short of its share of `count` (`weights`, given the item counts of the tasks `made`),
    so that larger baskets, which fail the budget or the read-back more often, still reach their share."""
    total = sum(weights.values())
    short = [max(0.0, count * w / total - made.count(size)) for size, w in weights.items()]
    # never stuck on a count that keeps failing (+0.1), and little more of a count that has its share already
    return rng.choices(list(weights), weights=[s + 0.1 for s in short])[0]


# --- shop intent -------------------------------------------------------------------------------------------------

def shop_tasks(products: list[Product], count: int, rng: random.Random, tools: Tools,
               hot: set[str] | None = None) -> list[tuple[str, list]]:
    """Multi-product seller tasks: 2–4 targets in the official shares (SHOP_SIZES), named in order, from one shop
    carrying that many titles, at least one of them in `hot` (the contested products; None: any)."""
    shops = _by_shop(products, minimum=2)
    if hot is not None:
        shops = {shop: items for shop, items in shops.items() if any(p.product_id in hot for p in items)}
    carrying = {size: sorted(s for s, items in shops.items() if len(items) >= size) for size in SHOP_SIZES}
    tasks: list[tuple[str, list]] = []
    quota = PageOneQuota(tools, count)
    for _ in range(count * ATTEMPTS_PER_TASK):
        if len(tasks) == count or not shops:
            break
        size = _next_size([len(t[1]) for t in tasks], count, SHOP_SIZES, rng)
        if not carrying[size]:
            continue
        chosen = _related(shops[rng.choice(carrying[size])], size, rng, hot)
        if hot is not None and not any(p.product_id in hot for p in chosen):
            continue
        built = build_task("shop", chosen, [draw_target(p, rng) for p in chosen], rng, tools)
        if built is not None and quota.takes(*built):
            tasks.append(built)
    return tasks


def _related(items: list[Product], size: int, rng: random.Random, hot: set[str] | None) -> list[Product]:
    """`size` of a shop's items, one drawn first (a contested one where there is one) and then those of its department
    before any other: an official shop request mostly asks things that go together (baby clothes, aircon parts), and a
    general store's drill beside its sunscreen and bricks gave the generated ones away (blind round 13)."""
    first = rng.choice([p for p in items if hot is None or p.product_id in hot] or items)
    department = first.category.split(" > ")[0]
    rest = [p for p in items if p is not first]
    rng.shuffle(rest)
    rest.sort(key=lambda p: p.category.split(" > ")[0] != department)
    return [first, *rest[:size - 1]]


def _by_shop(products: Iterable[Product], minimum: int) -> dict[str, list[Product]]:
    """Shops with at least `minimum` products of distinct titles (one product per title)."""
    shops: dict[str, dict[str, Product]] = defaultdict(dict)
    for product in products:
        shops[product.shop_id].setdefault(product.title, product)
    return {shop: list(items.values()) for shop, items in shops.items() if len(items) >= minimum}


# --- voucher intent ----------------------------------------------------------------------------------------------

VOUCHER_SIZES = {1: 22, 2: 70, 3: 80, 4: 78}
"""How many items a voucher task asks, as the official set's 250 do (single flat requests read as generated, issue 30
round 4). A basket of four is kept about 1 time in 15 (each item must be found and its pick stay within budget), so
fewer than 78 in 250 are made: 29 of 100 in the 5k world, 20 in the 100k world."""


def voucher_tasks(products: list[Product], count: int, rng: random.Random, tools: Tools,
                  hot: set[str] | None = None) -> list[tuple[str, list, Voucher]]:
    """Coupon & budget tasks: 1–4 targets, no price constraints, a platform or shop voucher and a budget; at least
    one target in `hot` (the contested products; None: any)."""
    shops = _by_shop(products, minimum=1)
    tasks: list[tuple[str, list, Voucher]] = []
    quota = PageOneQuota(tools, count)
    for _ in range(count * ATTEMPTS_PER_TASK * 2):  # baskets of three or four fail more often
        if len(tasks) == count:
            break
        voucher_type: Literal["platform", "shop"] = rng.choice(("platform", "shop"))
        size = _next_size([len(t[1]) for t in tasks], count, VOUCHER_SIZES, rng)
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
        if hot is not None and not any(p.product_id in hot for p in chosen):
            continue
        voucher = draw_voucher(prices, shop_ids, voucher_type, rng)
        if not within_budget(prices, shop_ids, voucher) or _gives_away(voucher):
            continue
        targets = [draw_target(p, rng, with_price=False) for p in chosen]
        built = build_task("voucher", chosen, targets, rng, tools, voucher)
        if built is not None and quota.takes(*built):
            tasks.append((*built, voucher))
    return tasks


def draw_voucher(prices: list[float], shop_ids: list[str], voucher_type: Literal["platform", "shop"],
                 rng: random.Random) -> Voucher:
    """A voucher by the official rules; price after voucher and budget come from voucher.quote."""
    total = sum(prices)
    threshold = round(rng.uniform(0.1 * total, 0.9 * total))
    if rng.random() < 0.5:
        face = round(rng.uniform(0.1 * threshold, 0.5 * threshold))
        voucher = Voucher(voucher_type=voucher_type, threshold=threshold, discount_type="fixed", face_value=face,
                          budget=0)
    else:
        discount = round(rng.uniform(0.1, 0.5), 2)
        cap = min(round(threshold * discount * rng.uniform(1.0, 3.0)), round(0.95 * threshold))  # not 20% up to all
        voucher = Voucher(voucher_type=voucher_type, threshold=threshold, discount_type="percentage",
                          discount=discount, cap=cap, budget=0)
    after = quote(prices, shop_ids, voucher).total_after_voucher
    base = math.ceil(after)
    budget = base + rng.randint(0, math.ceil(0.1 * base))
    return voucher.model_copy(update={"price_after_voucher": after, "budget": budget})


def _gives_away(voucher: Voucher) -> bool:
    """A number the query states (threshold, discount, cap, budget) equals the discounted total, the answer."""
    answer = f"{voucher.price_after_voucher:g}"
    stated = (voucher.threshold, voucher.face_value, voucher.cap, voucher.budget)
    return any(value is not None and f"{value:g}" == answer for value in stated)


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


def generate_tasks(products: list[Product], *, seed: int, per_intent: int, tools: Tools,
                   task_set: str = "generated") -> dict[Intent, list[ShoppingTask]]:
    """Product, shop and voucher task sets (knowledge tasks come with their corpus from knowledge.py). Every target
    is a contested product; in a small world (fewer than ENOUGH_CONTESTED of them), every shop or voucher task has
    at least one."""
    hot = contested(products)
    if len(hot) >= ENOUGH_CONTESTED:
        pool, hot_ids = hot, None
    else:  # a small world: shop and voucher tasks need only one contested target
        pool, hot_ids = products, {p.product_id for p in hot}
    return {
        "product": assemble("product", product_tasks(hot, per_intent, random.Random(seed * 4 + 1), tools), task_set),
        "shop": assemble("shop", shop_tasks(pool, per_intent, random.Random(seed * 4 + 2), tools, hot_ids),
                         task_set),
        "voucher": assemble("voucher", voucher_tasks(pool, per_intent, random.Random(seed * 4 + 3), tools, hot_ids),
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


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
