"""The shopper behind a task: every gold constraint of a ShoppingBench task as one `Constraint`, the few the opener
states and the rest held back until the agent asks (`profile_of`).

The gold is the task's own (`targets`: SKU options, attributes, services, price bounds; a shop task's one shop; a
voucher task's budget and voucher), so any task set of any world can be played as a conversation and scored exactly
as before. The opener names each wanted product by its kind only ("a polo shirt"), never by its id or title, plus
`stated` constraints chosen by salience (the one-shop rule, a brand, an option such as a colour or size before other
attributes, then services and prices; a voucher task's budget and voucher last), ties broken by a hash of the seed
so the choice is the same in every process. A fact the gold holds twice (an option and an attribute of one item with
the same name and value, as "tea bags: 50 bags") is one thing said: stating it states both.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from benchmarks.errors import BadInput
from benchmarks.shoppingbench.conversation.wording import SERVICE_NAMES, say, stable_index
from benchmarks.shoppingbench.schema import Product, ShoppingTask, Target, Voucher
from benchmarks.shoppingbench.worldgen.vocab import KINDS

if TYPE_CHECKING:
    import inflect

ConstraintKind = Literal["option", "attribute", "service", "price", "shop", "budget", "voucher"]


@dataclass(frozen=True)
class Constraint:
    """One gold constraint of a task, as the shopper holds it."""

    key: str
    """Stable within the task: "0.option.color_family", "1.attribute.brand", "0.price", "0.service.COD", "shop",
    "budget", "voucher" (a second constraint of the same key gets ".2")."""
    kind: ConstraintKind
    item: int | None
    """The target's index; None for task-wide ones (shop, budget, voucher)."""
    name: str
    """What it is about, in words: "colour", "brand", "price", "cash on delivery", "budget"."""
    value: str
    """The value as the catalog writes it ("as the picture", "xiaomi", "COD"), or the bound in words."""
    sayable: bool = True
    """False when the value holds the product's whole title (an official-set quirk: an attribute copying the title),
    which a shopper would not say: never stated, and answered without its value."""


@dataclass(frozen=True)
class UserProfile:
    """What the shopper of one task wants and which of it they said at the start."""

    task_id: str
    items: tuple[str, ...]
    """Each wanted product's kind in words, with its article: "a laptop backpack"."""
    stated: tuple[Constraint, ...]
    """Said in the opener."""
    held: tuple[Constraint, ...]
    """Held back: said only when asked."""
    opener: str
    """The agent's first message (the episode's instruction)."""
    knowledge_question: str | None = None
    """Knowledge tasks: the question, which stays in the opener."""

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """Every constraint, stated first."""
        return self.stated + self.held




@functools.cache
def english() -> inflect.engine:
    """inflect's engine, made on first use: importing inflect takes about a second (typeguard), which `serve` must
    not spend before it can answer."""
    import inflect

    return inflect.engine()
KEY_NAMES: dict[str, str] = {"color_family": "colour", "color": "colour", "fa_pattern": "pattern",
                             "light_color": "light colour", "country_origin_hb": "country of origin"}
"""Attribute and option keys whose words are not what a shopper calls them (others: the key with spaces)."""
SALIENCE: dict[str, int] = {"shop": 0, "brand": 1, "option": 2, "attribute": 3, "service": 4, "price": 5,
                            "budget": 6, "voucher": 7}
"""Which constraints an opener states first (lower first): what a shopper says up front."""
HEAD_NOUNS = ("watch", "earrings", "necklace", "pendant", "bracelet", "ring", "cable", "charger", "adapter", "case",
              "battery", "keyboard", "shirt", "dress", "hoodie", "jeans", "pants", "shorts", "sandals", "shoes",
              "boots", "sneakers", "slippers", "wallet", "backpack", "bag", "hat", "cap", "scarf", "gloves", "belt",
              "sunglasses", "filter", "strap", "bottle", "lamp", "mouse", "headphones", "earphones", "book")
"""Head nouns found in a real title when no category names the product's kind (a task file without its world)."""
NUMBER_WORDS = ("two", "three", "four", "five", "six")


def profile_of(task: ShoppingTask, products: Mapping[str, Product], *, stated: int = 1, seed: int = 0) -> UserProfile:
    """The shopper of `task`: its constraints, `stated` of them said in the opener. `products` are the targets'
    products (looked up in the world; a target missing there is named from its title). Deterministic in (task,
    stated, seed)."""
    if stated < 0:
        raise BadInput(f"stated must be 0 or more, not {stated}")
    constraints = constraints_of(task)
    said = frozenset(w for c in constraints for w in re.findall(r"[a-z][a-z'-]+", c.value.lower()))
    items = tuple(_with_article(kind_words(_product(target, products), task.query, said)) for target in task.targets)
    if task.intent == "web":
        return UserProfile(task.task_id, items, (), constraints, task.query, knowledge_question=task.query)
    ranked = sorted((c for c in constraints if c.sayable),
                    key=lambda c: (SALIENCE["brand" if c.name == "brand" else c.kind], _tie(seed, task.task_id, c.key)))
    said_once = {_fact(c) for c in distinct_facts(ranked)[:stated]}  # a fact two constraints hold is said once
    chosen = {c.key for c in constraints if c.sayable and _fact(c) in said_once}
    opener = _opener(task, items, distinct_facts([c for c in constraints if c.key in chosen]), seed)
    return UserProfile(task.task_id, items, tuple(c for c in constraints if c.key in chosen),
                       tuple(c for c in constraints if c.key not in chosen), opener)


def constraints_of(task: ShoppingTask) -> tuple[Constraint, ...]:
    """Every gold constraint of the task, in the order the gold lists them (target by target, then task-wide)."""
    found: list[Constraint] = []
    keys: set[str] = set()

    def add(key: str, kind: ConstraintKind, item: int | None, name: str, value: str) -> None:
        unique, count = key, 1
        while unique in keys:
            count += 1
            unique = f"{key}.{count}"
        keys.add(unique)
        titles = [] if item is None else [title.lower() for title in task.targets[item].title if title]
        found.append(Constraint(unique, kind, item, name, value,
                                sayable=not any(title in value.lower() for title in titles)))

    for index, target in enumerate(task.targets if task.intent != "web" else []):
        for option in target.sku_options or []:
            for key, value in option.items():
                add(f"{index}.option.{key}", "option", index, key_name(key), value)
        for attribute in target.attributes or []:
            for key, values in attribute.items():
                for value in values:
                    add(f"{index}.attribute.{key}", "attribute", index, key_name(key), value)
        for service in target.service or []:
            add(f"{index}.service.{service}", "service", index, SERVICE_NAMES.get(service, service), service)
        for bound in target.price or []:
            for mode, (low, high, *_) in ((m, [*b, None, None]) for m, b in bound.items()):
                add(f"{index}.price", "price", index, "price", price_words(mode, low, high))
    if task.intent == "shop":
        add("shop", "shop", None, "shop", "one shop")
    if task.voucher is not None:
        add("budget", "budget", None, "budget", f"{task.voucher.budget:g} PHP")
        add("voucher", "voucher", None, "voucher", voucher_words(task.voucher))
    return tuple(found)


def key_name(key: str) -> str:
    """An attribute or option key as a shopper names it: "colour" for color_family, "ring size" for ring_size."""
    return KEY_NAMES.get(key, key.replace("_", " ").strip())


def price_words(mode: str, low: float | None, high: float | None) -> str:
    """A price bound in words, as the scorer reads it (bounds included)."""
    if mode == "less than":
        return f"at most {high or 0:g} PHP"
    if mode == "greater than":
        return f"at least {low or 0:g} PHP"
    return f"between {low or 0:g} and {high or 0:g} PHP"


def voucher_words(voucher: Voucher) -> str:
    """The voucher's rules in words, everything the `calculate` tool needs."""
    scope = "it applies to all products" if voucher.voucher_type == "platform" else \
        "it only applies to products from the same shop"
    if voucher.discount_type == "fixed":
        discount = f"a fixed discount of {voucher.face_value or 0:g} PHP"
    else:
        discount = f"a {round((voucher.discount or 0) * 100)}% discount"
        discount += f" capped at {voucher.cap:g} PHP" if voucher.cap is not None else ""
    return f"{scope}, it is valid only when the total is over {voucher.threshold:g} PHP, and it gives {discount}"


def kind_words(product: Product, query: str = "", said: frozenset[str] = frozenset()) -> str:
    """The product's kind in words (`_kind_words`), one word shorter when that would be its whole title."""
    words = _kind_words(product, query, said)
    if " ".join(words.split()) == " ".join(product.title.lower().split()):
        return words.split(" ", 1)[1] if " " in words else "item"
    return words


def _kind_words(product: Product, query: str, said: frozenset[str]) -> str:
    """The product's kind, as a shopper names it without brand or details: the generated kind's noun found in its
    title ("polo shirt"), else the category's last level ("tea bags"); for a product known by its title only (a task
    file without its world), the longest run of title words the task's `query` also uses, none of them a word of a
    constraint's value (`said`), else a head noun of the title, else "item"."""
    for kind in KINDS:
        if kind.category == product.category and product.brand in kind.brands:
            nouns = sorted(kind.nouns, key=len, reverse=True)
            noun = next((n for n in nouns if n.lower() in product.title.lower()), kind.nouns[0])
            return noun.lower()
    if product.category:
        leaf = product.category.split(" > ")[-1].split("&")[0].split(",")[0].strip().lower()
        if leaf:
            return leaf
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]+", product.title)]
    return _run_in_query(words, query, said) or next(
        (w for w in words if w in HEAD_NOUNS or f"{w}s" in HEAD_NOUNS), "item")


def _run_in_query(words: list[str], query: str, said: frozenset[str]) -> str:
    """The longest run (up to three words, the last of a longer run) of title words the query says too."""
    asked = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]+", query)}
    best: list[str] = []
    run: list[str] = []
    for word in [*words, ""]:
        if word and len(word) > 2 and word in asked and word not in said and word not in FILLER:
            run.append(word)
            continue
        if len(run) > len(best):
            best = run
        run = []
    return " ".join(best[-3:])


FILLER = frozenset(("and", "the", "for", "with", "from", "new", "set", "pcs", "free", "original", "high", "quality",
                    "sale", "best", "hot", "top", "size", "color", "colour"))
"""Title words that never name a kind."""


def _product(target: Target, products: Mapping[str, Product]) -> Product:
    product = products.get(target.product_id)
    if product is not None:
        return product
    return Product(product_id=target.product_id, shop_id="", title=target.title[0] if target.title else "", price=0)


def _with_article(words: str) -> str:
    """"a polo shirt", "an LED strip light", "some tea bags", "some ground coffee" (a plural or mass kind takes
    "some"; an acronym is written and read as one)."""
    words = " ".join(word.upper() if word in ACRONYMS else word for word in words.split())
    head = words.split(" ")[-1].lower()
    if english().singular_noun(head) or head in PLURAL_OR_MASS:
        return f"some {words}"
    if words.split(" ")[0].lower() in ACRONYMS:
        return f"{'an' if words[0] in 'AEFHILMNORSX' else 'a'} {words}"
    return english().a(words)


ACRONYMS = frozenset(("led", "usb", "tpu", "rgb", "pc", "abs", "lcd", "hdmi", "ssd", "hdd", "uv"))
PLURAL_OR_MASS = frozenset(("jeans", "pants", "shorts", "sunglasses", "headphones", "earphones", "coffee", "rice",
                            "tea", "sugar", "honey", "milk", "oil", "powder", "perfume", "cologne", "paste", "sauce",
                            "flour", "juice", "shampoo", "conditioner", "soap", "chocolate", "cereal", "food"))
"""Kinds that take "some": plurals inflect does not see as such, and mass nouns."""


def _fact(constraint: Constraint) -> tuple[int | None, str, str]:
    """What a constraint says: an option and an attribute of one item with the same name and value say one thing."""
    return constraint.item, constraint.name, constraint.value


def distinct_facts(constraints: list[Constraint]) -> list[Constraint]:
    """The constraints, each fact said once (by the first constraint saying it)."""
    seen: set[tuple[int | None, str, str]] = set()
    kept = []
    for constraint in constraints:
        if _fact(constraint) not in seen:
            seen.add(_fact(constraint))
            kept.append(constraint)
    return kept


def _tie(seed: int, task_id: str, key: str) -> str:
    """The order of equally salient constraints: a hash of the seed, task and key (the same in every process)."""
    return hashlib.sha256(f"{seed}\0{task_id}\0{key}".encode()).hexdigest()


OPENERS = ("I need {items}.", "I'm looking for {items}.", "Can you help me find {items}?")
SHOP_OPENERS = ("I'm after {count} things{shop}: {items}.", "I need {count} things{shop}: {items}.")
VOUCHER_OPENERS = ("I'm shopping for {items}.", "I want to buy {items}.")


def _opener(task: ShoppingTask, items: tuple[str, ...], stated: list[Constraint], seed: int) -> str:
    """The shopper's first message: the product kinds, then each stated constraint in a shopper's words."""
    pick = stable_index(f"{seed}\0{task.task_id}\0opener", 2)
    listed = items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"
    if task.intent == "shop":
        count = NUMBER_WORDS[len(items) - 2] if 2 <= len(items) <= 6 else str(len(items))
        from_one_shop = " from one shop" if any(c.kind == "shop" for c in stated) else ""
        lead = SHOP_OPENERS[pick % len(SHOP_OPENERS)].format(count=count, shop=from_one_shop, items=listed)
    elif task.intent == "voucher":
        lead = VOUCHER_OPENERS[pick % len(VOUCHER_OPENERS)].format(items=listed)
    else:
        lead = OPENERS[pick % len(OPENERS)].format(items=listed)
    sentences = [lead]
    for constraint in stated:
        if constraint.kind == "shop":
            continue
        sentence = say(constraint, stable_index(f"{seed}\0{task.task_id}\0{constraint.key}", 3))
        sentences.append(about_item(sentence, items, constraint.item))
    return " ".join(sentences)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def item_label(items: tuple[str, ...], item: int) -> str:
    """How the shopper refers to one of the items: "the ring", or "the second case" when several share a kind."""
    kind = items[item].split(" ", 1)[1]
    if sum(other.split(" ", 1)[1] == kind for other in items) > 1:
        return f"the {ORDINALS[item] if item < len(ORDINALS) else f'#{item + 1}'} {kind}"
    return f"the {kind}"


def about_item(sentence: str, items: tuple[str, ...], item: int | None) -> str:
    """A sentence about one of several items, led by which one ("For the ring: the size should be adjustable.")."""
    if item is None or len(items) < 2:
        return sentence
    first = sentence.split(" ", 1)[0]
    lowered = sentence if first == "I" or first.startswith("I'") else sentence[0].lower() + sentence[1:]
    return f"For {item_label(items, item)}: {lowered}"
