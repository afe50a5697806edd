"""The scripted shopper behind the `heuristic` and `naive` baselines, and the task checker built on it.

`heuristic_script(instruction)` is a generator of tool calls: it reads only the instruction (through
reading.parse_item), searches with the words and filters the instruction states, pages through results, opens
product pages to check the stated details, and recommends the first product that meets everything stated. It sends
each call out and receives the observation back, so the same script drives a live episode (the baseline replays it
over the chat history) and the generator's check (`play` over the world's tools). `check_task` keeps a task only if
the script, playing it for real, ends on the gold products (or on products the scorer provably counts as them)
within the step limit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target
from benchmarks.shoppingbench.voucher import within_budget
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.phrasing import STOPWORDS
from benchmarks.shoppingbench.worldgen.reading import ItemSpec, parse_item, search_words, target_pairs
from benchmarks.shoppingbench.worldgen.sentences import split_items

MAX_STEPS = 30
PAGES = 5
PAGE_SIZE = 10
VOUCHER_SPLIT = "\n\nMy budget"
SAME_SHOP_VOUCHER = "only applies to the products from the same shop"
SHOP_HINT = re.compile(r"\b(one shop|one store|same shop|single seller|one seller|shops? that (?:sells?|offers?)|"
                       r"shops? offering)\b", re.IGNORECASE)
LINK_NOUNS = ("flavou?r", "scent", "colou?r", "sport", "material", "language", "animal", "instrument", "city",
              "country", "place", "year", "surname", "(?:first )?name", "element", "bird", "word", "university",
              "goddess", "god", "creature", "insect", "fruit", "flower", "tree", "team", "breed", "ship", "weapon",
              "planet", "character", "nickname", "term", "number", "island", "river", "mountain", "company",
              "ingredient")
"""What a knowledge task's purchase calls the answer ("…from a brand that shares this surname")."""
KNOWLEDGE_HINT = re.compile(rf"\b(?:that|this) (?:{'|'.join(LINK_NOUNS)})(?:'s)?\b", re.IGNORECASE)

Call = tuple[str, dict[str, Any]]
Script = Generator[Call, Any, None]


class Tools(Protocol):
    """A world's tools as the generator's check uses them: `call` gives exactly what an agent observes (error text
    for a refused call); `get` looks products up by id (for judging the script's picks, never for the script)."""

    def call(self, name: str, arguments: dict[str, Any]) -> Any: ...

    def get(self, ids: list[str]) -> dict[str, Product]: ...


# --- reading an instruction ------------------------------------------------------------------------------------------

@dataclass
class Reading:
    items: list[ItemSpec]
    raw_items: list[str]
    """Each named item's own text (what `naive` searches)."""
    same_shop: bool
    knowledge_question: str | None = None


def read_instruction(instruction: str) -> Reading:
    body, _, voucher = instruction.partition(VOUCHER_SPLIT)
    listed = split_items(body)
    if KNOWLEDGE_HINT.search(body) and "?" in body:
        question, _, purchase = body.partition("?")
        return Reading([parse_item(purchase)], [instruction], False, question.strip() + "?")
    raw = listed or [body.strip()]
    same_shop = SAME_SHOP_VOUCHER in voucher or bool(listed and SHOP_HINT.search(body) and not voucher)
    return Reading([parse_item(text) for text in raw], raw, same_shop)


# --- observations ----------------------------------------------------------------------------------------------------

def records_in(observation: Any, key: str = "product_id") -> list[dict[str, Any]]:
    """The dicts holding `key` anywhere in an observation (JSON text, a list, or a wrapper object), in order."""
    if isinstance(observation, str):
        try:
            observation = json.loads(observation)
        except ValueError:
            return []
    found: list[dict[str, Any]] = []
    if isinstance(observation, dict):
        if key in observation:
            return [observation]
        for value in observation.values():
            found.extend(records_in(value, key))
    elif isinstance(observation, list):
        for value in observation:
            found.extend(records_in(value, key))
    return found


def _stem(word: str) -> str:
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOPWORDS and len(w) > 1}


def card_ok(card: Mapping[str, Any], spec: ItemSpec) -> bool:
    """What a search result shows: the stated price and services, and a title sharing a word with the request."""
    price = float(card.get("price") or 0)
    if spec.price_min is not None and price < spec.price_min:
        return False
    if spec.price_max is not None and price > spec.price_max:
        return False
    if not set(spec.services) <= set(card.get("service") or []):
        return False
    return bool(_words(str(card.get("title", ""))) & _words(spec.words))


def pairs_ok(page: Mapping[str, Any], pairs: Iterable[tuple[str, str]]) -> bool:
    """Every stated detail is on the product page: in its attributes or, all together, in one of its SKU options
    (the scorer's rule: the best single option together with the attributes)."""
    pairs = list(pairs)
    if not pairs:
        return True
    attributes = {(k, v) for k, values in (page.get("attributes") or {}).items() for v in values}
    options = [set()] + [set(o.items()) for o in (page.get("sku_options") or {}).values()]
    return any(all(p in attributes or p in option for p in pairs) for option in options)


# --- the script ------------------------------------------------------------------------------------------------------

@dataclass
class _Budget:
    left: int


def heuristic_script(instruction: str, max_steps: int = MAX_STEPS) -> Script:
    """Tool calls of the scripted shopper; send it each observation. Ends with recommend_product (when it found
    something) and terminate."""
    reading = read_instruction(instruction)
    budget = _Budget(max_steps - 2)
    picks: list[str] | None
    if reading.knowledge_question is not None:
        pick = yield from _knowledge(reading, budget)
        picks = [pick] if pick else None
    elif reading.same_shop and len(reading.items) > 1:
        picks = yield from _one_shop(reading.items, budget)
    else:
        picks = []
        for spec in reading.items:
            found = yield from _first_match(spec, budget)
            if found is None:
                picks = None
                break
            picks.append(found["product_id"])
    if picks:
        yield "recommend_product", {"product_ids": ",".join(picks)}
    yield "terminate", {"status": "success" if picks else "failure"}


def _queries(spec: ItemSpec) -> list[str]:
    values = " ".join(v for _, v in spec.pairs)
    first = search_words(f"{spec.words} {values}")
    return list(dict.fromkeys(q for q in (first, spec.words) if q))


def _find_args(query: str, page: int, spec: ItemSpec, shop_id: str | None) -> dict[str, Any]:
    arguments: dict[str, Any] = {"q": query, "page": page}
    if spec.price_filter:
        arguments["price"] = spec.price_filter
    if spec.services:
        arguments["service"] = ",".join(spec.services)
    if shop_id:
        arguments["shop_id"] = shop_id
    return arguments


def _matches(spec: ItemSpec, budget: _Budget, shop_id: str | None = None,
             pages: int = PAGES) -> Generator[Call, Any, list[dict[str, Any]]]:
    """Candidates meeting everything stated, page by page; stops at the first page that has some."""
    seen: set[str] = set()
    for query in _queries(spec):
        for page in range(1, pages + 1):
            if budget.left < (2 if spec.pairs else 1):
                return []
            budget.left -= 1
            cards = records_in((yield "find_product", _find_args(query, page, spec, shop_id)))
            fresh = [c for c in cards if c["product_id"] not in seen and card_ok(c, spec)]
            seen.update(c["product_id"] for c in cards)
            if fresh and spec.pairs:
                budget.left -= 1
                pages_seen = records_in((yield "view_product_information",
                                         {"product_ids": ",".join(c["product_id"] for c in fresh)}))
                fresh = [p for p in pages_seen if pairs_ok(p, spec.pairs)]
            if fresh:
                return fresh
            if len(cards) < PAGE_SIZE:
                break
    return []


def _first_match(spec: ItemSpec, budget: _Budget) -> Generator[Call, Any, dict[str, Any] | None]:
    found = yield from _matches(spec, budget)
    return found[0] if found else None


def _one_shop(items: list[ItemSpec], budget: _Budget) -> Generator[Call, Any, list[str] | None]:
    """For each shop selling a match of the first item, look for the other items in that shop alone; when none of
    those shops has them all, the shops selling a match of the next item, and so on."""
    tried: set[str] = set()
    for lead, lead_spec in enumerate(items):
        for candidate in (yield from _matches(lead_spec, budget)):
            shop = str(candidate.get("shop_id"))
            if shop in tried:
                continue
            tried.add(shop)
            picks = {lead: candidate["product_id"]}
            for position, spec in enumerate(items):
                if position == lead:
                    continue
                found = yield from _matches(spec, budget, shop_id=shop, pages=1)
                if not found:
                    break
                picks[position] = found[0]["product_id"]
            else:
                return [picks[position] for position in range(len(items))]
    return None


def _knowledge(reading: Reading, budget: _Budget) -> Generator[Call, Any, str | None]:
    """Look the fact up, then page through the product search for a title that carries a word of the fact the
    instruction does not say (on a page with several, the one naming the most of the product's words)."""
    budget.left -= 1
    documents = records_in((yield "web_search", {"q": reading.knowledge_question, "max_results": 5}), "content")
    if not documents:
        return None
    content = str(documents[0].get("content", ""))
    fact = _words(content)
    said = _words(reading.items[0].text) | _words(reading.knowledge_question or "")
    spec = reading.items[0]
    news = " ".join(w for w in re.findall(r"[a-z]+", content.lower()) if _stem(w) in fact - said)
    for query in dict.fromkeys((spec.words, f"{spec.words} {news}")):
        for page in range(1, PAGES + 1):
            if budget.left < 1:
                return None
            budget.left -= 1
            cards = records_in((yield "find_product", {"q": query, "page": page}))
            wanted = _words(spec.words)
            fitting = [(len(title & wanted), -rank, str(card["product_id"])) for rank, card in enumerate(cards)
                       if (title := _words(str(card.get("title", "")))) & wanted and (title - said) & fact]
            if fitting:
                return max(fitting)[2]  # the listing naming the most of what was said, the first among equals
            if len(cards) < PAGE_SIZE:
                break
    return None


def naive_script(instruction: str) -> Script:
    """`naive`: search the raw text of each named item (the whole instruction for one item) and recommend the first
    hit of each."""
    reading = read_instruction(instruction)
    picks = []
    for text in reading.raw_items:
        cards = records_in((yield "find_product", {"q": text, "page": 1}))
        if cards:
            picks.append(str(cards[0]["product_id"]))
    if picks:
        yield "recommend_product", {"product_ids": ",".join(picks)}
    yield "terminate", {"status": "success" if picks else "failure"}


# --- playing a script against tools, and judging the outcome ---------------------------------------------------------

@dataclass
class Played:
    recommended: str | None
    steps: int
    calls: list[Call] = field(default_factory=list)


def play(script: Script, call: Callable[[str, dict[str, Any]], Any], max_steps: int = MAX_STEPS) -> Played:
    """Run a script against a tool function, as the agent loop would (at most `max_steps` calls)."""
    played = Played(None, 0)
    try:
        name, arguments = next(script)
        while played.steps < max_steps:
            played.steps += 1
            played.calls.append((name, arguments))
            observation = call(name, arguments)
            if name == "recommend_product":
                played.recommended = arguments["product_ids"]
            if name == "terminate":
                break
            name, arguments = script.send(observation)
    except StopIteration:
        pass
    return played


def meets(product: Product, target: Target) -> bool:
    """The product meets every constraint the target states except the title (price, services, SKU/attributes)."""
    for constraint in target.price or []:
        (mode, (low, high)), = constraint.items()
        if mode in ("greater than", "between") and low is not None and product.price < low:
            return False
        if mode in ("less than", "between") and high is not None and product.price > high:
            return False
    if not set(target.service or []) <= set(product.service):
        return False
    return pairs_ok(product.model_dump(), target_pairs(target))


def equivalent(product: Product, gold: Product, target: Target, intent: str) -> bool:
    """The scorer provably counts `product` as the target: the gold itself, or the same title (cosine 1) meeting
    every stated constraint (a knowledge task: the same title, which carries the answer)."""
    if product.product_id == gold.product_id:
        return True
    if product.title != gold.title:
        return False
    return intent == "web" or meets(product, target)


def judge(task: ShoppingTask, recommended: str | None, tools: Tools) -> str | None:
    """None when the recommendation provably succeeds under the scorer, else why not."""
    if recommended is None:
        return "no recommendation"
    ids = recommended.split(",")
    if len(ids) < len(task.targets):
        return "fewer products than targets"
    ids = ids[:len(task.targets)] if task.intent in ("shop", "voucher") else ids[:1]
    found = tools.get(list(dict.fromkeys(ids + [t.product_id for t in task.targets])))
    picks = [found.get(i) for i in ids]
    for position, (target, pick) in enumerate(zip(task.targets, picks, strict=True)):
        if pick is None or not equivalent(pick, found[target.product_id], target, task.intent):
            return f"item {position + 1}: picked {ids[position]}"
    chosen = [p for p in picks if p is not None]
    if task.intent == "shop" and len({p.shop_id for p in chosen}) != 1:
        return "not one shop"
    if task.intent == "voucher" and task.voucher is not None and not within_budget(
            [p.price for p in chosen], [p.shop_id for p in chosen], task.voucher):
        return "over budget"
    return None


def check_task(task: ShoppingTask, tools: Tools) -> tuple[bool, Played]:
    """The heuristic, playing the task for real, ends on the gold products within the step limit."""
    played = play(heuristic_script(task.query), tools.call)
    return judge(task, played.recommended, tools) is None and played.steps <= MAX_STEPS, played


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
