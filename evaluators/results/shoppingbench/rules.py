"""ShoppingBench scoring rules, exactly as the reference code computes them (SPEC §1.4 and the quirks of §6).

Published numbers come from the reference scorer, quirks included, so this module reproduces it rather than
improving on it:
- the recommended string is split on "," with no trimming ("a, b" makes " b", an unknown id);
- product and knowledge tasks score the first id only; shop and voucher tasks match the i-th id to the i-th target,
  ignoring extra (and duplicate) ids; a missing or unknown id scores 0 on every field;
- an exact product_id match scores 1 outright; otherwise rule = hits / constraints over the title (one constraint per
  target title, cosine ≥ 0.5), the price, each service, and each SKU/attribute (k, v) pair, where pairs are looked up
  in the best single SKU option together with the attributes; unconstrained fields count as satisfied;
- knowledge: exact-id is a substring test of the target id in the first piece, while kw/title look that piece up
  exactly; kw = the answer is a substring of the title or description, title = cosine ≥ 0.8;
- budget uses benchmarks.shoppingbench.voucher.within_budget (the same arithmetic as the `calculate` tool).

Scoring is pure: products come from a mapping and title similarity from a callable, so the same code scores runs,
bare predictions, and hand-built test cases.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target
from benchmarks.shoppingbench.voucher import within_budget
from evaluators.results.shoppingbench.failure import categorize
from evaluators.results.shoppingbench.task_score import ProductMatch, TaskScore

TITLE_THRESHOLD = 0.5
KNOWLEDGE_TITLE_THRESHOLD = 0.8
FIELDS = ("title", "price", "service", "sku_attrs")

Similarity = Callable[[str, str], float]
"""Cosine similarity of two texts (Embedder.cosine)."""


def split_ids(recommended: str | None) -> list[str]:
    """The reference's split: on "," with no trimming; no recommendation gives no ids."""
    if recommended is None:
        return []
    return recommended.split(",")


def positions(task: ShoppingTask, recommended: str | None) -> list[str | None]:
    """The id scored against each target: the first id for product/knowledge tasks, the i-th id for the i-th target
    of shop/voucher tasks; None where the recommendation ran out."""
    ids = split_ids(recommended)
    return [ids[i] if i < len(ids) else None for i in range(len(task.targets))]


def ids_to_look_up(task: ShoppingTask, recommended: str | None) -> set[str]:
    return {i for i in positions(task, recommended) if i is not None}


def title_pairs(task: ShoppingTask, recommended: str | None, products: Mapping[str, Product]) -> list[tuple[str, str]]:
    """The (product title, target title) pairs scoring will embed, so a caller can encode a whole run in one batch."""
    pairs: list[tuple[str, str]] = []
    for target, product_id in zip(task.targets, positions(task, recommended), strict=True):
        product = products.get(product_id) if product_id is not None else None
        if product is not None and product.product_id != target.product_id:
            pairs.extend((product.title, title) for title in target.title)
    return pairs


def rule_score(product: Product, target: Target, similarity: Similarity, position: int = 0) -> ProductMatch:
    """The product relevance score of one recommended product against one target."""
    base: dict[str, Any] = dict(position=position, recommended_id=product.product_id, found=True,
                                shop_id=product.shop_id, list_price=product.price)
    if product.product_id == target.product_id:
        return ProductMatch(**base, exact=True, rule=1.0, title=1.0, price=1.0, service=1.0, sku_attrs=1.0)
    hits: dict[str, int] = dict.fromkeys(FIELDS, 0)
    totals: dict[str, int] = dict.fromkeys(FIELDS, 0)
    misses: list[str] = []

    for title in target.title:
        totals["title"] += 1
        cosine = similarity(product.title, title)
        if cosine >= TITLE_THRESHOLD:
            hits["title"] += 1
        else:
            misses.append(f"title similarity {cosine:.2f} < {TITLE_THRESHOLD}")

    for constraint in target.price or []:
        for mode, bounds in constraint.items():
            totals["price"] += 1
            if _price_ok(product.price, mode, bounds):
                hits["price"] += 1
            else:
                misses.append(f"price {product.price:g} not {mode} {_bounds_text(mode, bounds)}")

    for service in target.service or []:
        totals["service"] += 1
        if service in product.service:
            hits["service"] += 1
        else:
            misses.append(f"service {service!r} missing")

    required = [(k, v) for option in target.sku_options or [] for k, v in option.items()]
    required += [(k, v) for attribute in target.attributes or [] for k, values in attribute.items() for v in values]
    attribute_pairs = {(k, v) for k, values in product.attributes.items() for v in values}
    options: list[set[tuple[str, str]]] = [set()] + [set(option.items()) for option in product.sku_options.values()]
    best = max(options, key=lambda option: sum(pair in option or pair in attribute_pairs for pair in required))
    totals["sku_attrs"] = len(required)
    for pair in required:
        if pair in best or pair in attribute_pairs:
            hits["sku_attrs"] += 1
        else:
            misses.append(f"{pair[0]}: {pair[1]} not found")

    total = sum(totals.values())
    fields: dict[str, Any] = {f: hits[f] / totals[f] if totals[f] else 1.0 for f in FIELDS}
    rule = sum(hits.values()) / total if total else 1.0
    return ProductMatch(**base, exact=False, rule=rule, misses=misses, **fields)


def _price_ok(price: float, mode: str, bounds: list[float | None]) -> bool:
    low, high = (list(bounds) + [None, None])[:2]
    if mode == "less than":
        return high is None or price <= high
    if mode == "greater than":
        return low is None or price >= low
    if mode == "between":
        return (low is None or low <= price) and (high is None or price <= high)
    return False  # an unknown mode counts as a constraint no product meets, as in the reference


def _bounds_text(mode: str, bounds: list[float | None]) -> str:
    low, high = (list(bounds) + [None, None])[:2]
    return {"less than": f"{high}", "greater than": f"{low}"}.get(mode, f"{low}–{high}")


def _missing(position: int, product_id: str | None) -> ProductMatch:
    why = "no id at this position" if product_id is None else f"unknown product id {product_id!r}"
    return ProductMatch(position=position, recommended_id=product_id, found=False, exact=False, rule=0.0, title=0.0,
                        price=0.0, service=0.0, sku_attrs=0.0, misses=[why])


def score_task(
    task: ShoppingTask,
    recommended: str | None,
    products: Mapping[str, Product],
    similarity: Similarity,
    *,
    episode_id: str | None = None,
    epoch: int = 0,
) -> TaskScore:
    """Score one task given the last recommend_product string and the products its ids resolve to."""
    if task.intent == "web":
        score = _score_knowledge(task, recommended, products, similarity)
    else:
        score = _score_shopping(task, recommended, products, similarity)
    score.episode_id, score.epoch = episode_id, epoch
    score.failures = categorize(score)
    score.explanation = explain(score)
    return score


def _score_shopping(
    task: ShoppingTask, recommended: str | None, products: Mapping[str, Product], similarity: Similarity
) -> TaskScore:
    matches = []
    for position, (target, product_id) in enumerate(zip(task.targets, positions(task, recommended), strict=True)):
        product = products.get(product_id) if product_id is not None else None
        if product is None:
            matches.append(_missing(position, product_id))
        else:
            match = rule_score(product, target, similarity, position)
            match.recommended_id = product_id
            matches.append(match)
    n = len(task.targets)
    found = [m for m in matches if m.found]
    all_found = len(found) == n
    fields = {f: sum(getattr(m, f) for m in matches) / n for f in ("rule", *FIELDS)}
    shop = budget = None
    if task.intent == "shop":
        shop = 1.0 if all_found and len({m.shop_id for m in found}) == 1 else 0.0
    if task.intent == "voucher":
        assert task.voucher is not None, f"voucher task {task.task_id} has no voucher"
        prices = [m.list_price or 0.0 for m in found]
        budget = 1.0 if all_found and within_budget(prices, [m.shop_id or "" for m in found], task.voucher) else 0.0
    success = fields["rule"] >= 1 and shop in (None, 1.0) and budget in (None, 1.0)
    return TaskScore(
        task_id=task.task_id, task_set=task.task_set, intent=task.intent, task_index=task.task_index,
        answer=recommended, value=float(success), success=success,
        exact_id=sum(m.exact for m in matches) / n, resolved=len(found) / n,
        shop=shop, budget=budget, matches=matches, **fields,
    )


def _score_knowledge(
    task: ShoppingTask, recommended: str | None, products: Mapping[str, Product], similarity: Similarity
) -> TaskScore:
    target = task.targets[0]
    first = positions(task, recommended)[0]
    product = products.get(first) if first is not None else None
    exact_id = 1.0 if first is not None and target.product_id in first else 0.0
    if product is None:
        kw = title = 0.0
        matches = [_missing(0, first)]
    else:
        misses: list[str] = []
        if product.product_id == target.product_id:
            kw = title = 1.0
        else:
            answer = (task.knowledge_attribute or "").lower()
            kw = 1.0 if answer in product.title.lower() or answer in product.description.lower() else 0.0
            if not kw:
                misses.append(f"the answer {task.knowledge_attribute!r} is not in the title or description")
            cosine = similarity(product.title, target.title[0])
            title = 1.0 if cosine >= KNOWLEDGE_TITLE_THRESHOLD else 0.0
            if not title:
                misses.append(f"title similarity {cosine:.2f} < {KNOWLEDGE_TITLE_THRESHOLD}")
        matches = [ProductMatch(
            position=0, recommended_id=first, found=True, exact=product.product_id == target.product_id,
            rule=(kw + title) / 2, title=title, price=1.0, service=1.0, sku_attrs=1.0, misses=misses,
            shop_id=product.shop_id, list_price=product.price,
        )]
    rule = (kw + title) / 2
    success = rule >= 1
    return TaskScore(
        task_id=task.task_id, task_set=task.task_set, intent=task.intent, task_index=task.task_index,
        answer=recommended, value=float(success), success=success, rule=rule, exact_id=exact_id,
        resolved=1.0 if product is not None else 0.0, title=title, price=None, service=None, sku_attrs=None,
        kw=kw, matches=matches,
    )


def explain(score: TaskScore) -> str:
    """One readable line: what passed, what failed and why."""
    if score.answer is None:
        return "no recommend_product call"
    head = "success" if score.success else "failure"
    parts = [f"{head}: rule {score.rule:.2f}"]
    if score.shop is not None:
        parts.append("one shop" if score.shop else "not all from one shop (or a product is missing)")
    if score.budget is not None:
        parts.append("within budget" if score.budget else "over budget (or a product is missing)")
    if score.kw is not None:
        parts.append(f"kw {score.kw:g}, title {score.title:g}")
    for match in score.matches:
        if match.misses:
            parts.append(f"#{match.position + 1}: " + "; ".join(match.misses))
    return " · ".join(parts)


ScoreField = Literal["rule", "title", "price", "service", "sku_attrs", "shop", "budget", "kw"]
PREDICTION_FIELDS: tuple[ScoreField, ...] = ("rule", "title", "price", "service", "sku_attrs", "shop", "budget", "kw")
"""The per-prediction fields of `shopbench score --predictions` output, in order."""
