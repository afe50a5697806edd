"""Whole instructions from items in words: several sentence and paragraph shapes per intent, and the reverse
(`split_items`), which finds each named item's text again.

One item: one sentence ("Looking for ..."), or the product and then its details ("... Preferably in size large,
with free shipping."). Several: one sentence of them all ("Find shops offering both a ... and a ...", "I'm looking
for a ..., a ... (in size large, with free shipping), and a ..."), an inline numbered list, "First, ... Second, ...
Third, ...", a line per item, "... Also, I need ...", or "a ..., and also a ...". A sentence of context comes first
only when every product fits one context group (wording.CONTEXTS), chosen by the products' categories.
"""

from __future__ import annotations

import random
import re

from benchmarks.shoppingbench.schema import Intent, Product
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.phrasing import Item, agreeing, join_clauses
from benchmarks.shoppingbench.worldgen.reading import parse_item
from benchmarks.shoppingbench.worldgen.wording import (
    CONTEXTS,
    GROUP_WORDS,
    INLINE_LAST,
    INLINE_LEADS,
    ITEM_VERBS,
    JOINED_LEADS,
    LAST_INLINE_RATE,
    LAST_ORDINALS,
    NEXT_ORDINALS,
    OPENERS,
    ORDINALS,
    SECOND_SENTENCE,
    SECOND_SENTENCE_PLURAL,
    SHOP_CLOSINGS,
    SHOP_OPENERS,
    SHOP_VERBS,
    VOUCHER_ITEM_OPENERS,
    VOUCHER_OPENERS,
)

CONTEXT_RATE = 0.01
"""The official set gives almost no context; a fitting sentence now and then."""
INLINE_RATE = 0.5
"""Several items with a `verb`: this share run on in sentences ("I'm looking for ... Also, I want ..."), as most
official voucher instructions do; the rest in any of the six shapes."""
ONE_SENTENCE_RATE = 0.9
"""One item: said in one sentence, else the product and then its details in a second sentence."""
NO_STOP_RATE = 0.04
"""One item said without a closing full stop now and then (9 of the official set's 250 product requests)."""


SHAPES = (0, 1, 2, 3, 5)
SHAPE_WEIGHTS = {2: (0.3, 1.5, 0.2, 1, 6), 3: (0.4, 6, 0.3, 1.5, 0), 4: (1.2, 5, 1, 1, 0)}
"""Shapes of several items by their number, weighted as the official shop requests use them: two items mostly in one
sentence (76 of 89), three or four mostly "First, ... Second, ... Lastly, ..." (48 of 86, 35 of 75), a numbered list
now and then for four (18 of 75); never a list joined with semicolons after a colon."""
MAX_LISTED_CLAUSES = 4
"""An item with more details than this is never put in a one-sentence list."""
ONE_SENTENCE_LIST = {"shop": {2: 0.9, 3: 0.6, 4: 0.4}, "voucher": {2: 0.0, 3: 0.45, 4: 0.45}}
"""How often several items that allow it are said in one sentence: "Find shops offering both a ... and a ..." (63 of
the official 89 two-item shop requests), "I'm looking for a ..., a ..., and a ..." (about half the official three-
and four-item voucher requests, a third of the shop ones; generator v7 never did)."""
NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}
FIRST_VERBS = ("I want", "I need", "I'm looking for")
"""The first item's verb when the opener is a sentence of its own ("Find a shop offering these items. I want ...")."""


def context_group(category: str) -> str | None:
    """The context group of a category path ("Groceries > Beverages > Coffee" → "pantry"); None: none fits."""
    for word, group in GROUP_WORDS:
        if word in category:
            return group
    return None


def context(products: list[Product], rng: random.Random) -> str:
    """A sentence of context fitting every product, or none."""
    groups = {context_group(p.category) for p in products}
    if len(groups) != 1 or None in groups or rng.random() >= CONTEXT_RATE:
        return ""
    return rng.choice(CONTEXTS[groups.pop()]) + " "  # type: ignore[index]


def weighted(choices: dict[str, int], rng: random.Random) -> str:
    return rng.choices(list(choices), weights=list(choices.values()))[0]


def one_item(item: Item, rng: random.Random, openers: dict[str, int] = OPENERS) -> str:
    opener = weighted(openers, rng)
    if rng.random() >= ONE_SENTENCE_RATE and item.clauses:
        leads: tuple[str, ...] = SECOND_SENTENCE_PLURAL if item.plural else SECOND_SENTENCE
        if item.clauses[0].startswith("that "):  # "Please show only options that ...", not "Preferably that ..."
            leads = tuple(lead for lead in leads if lead.endswith(("options", "ones")))
        lead = rng.choice(leads)
        clauses = [agreeing(c) for c in item.clauses] if lead.endswith(("options", "ones")) else item.clauses
        return f"{opener} {item.phrase}. {lead} {join_clauses(clauses, rng)}."
    return f"{opener} {item.text(rng)}" + ("" if rng.random() < NO_STOP_RATE else ".")


def several_items(items: list[Item], opener: str, rng: random.Random, closing: str = "", verb: str = "",
                  listing: str = "", list_rate: float = 0.0) -> str:
    """Several items in one of seven shapes; `opener` is a sentence without its full stop, `verb` (if any) what the
    run-on shapes put before the first item ("I'm looking for a ... . Also, ..."), `listing` what leads one sentence
    of them all ("Find shops offering both a ... and a ...", "... a ..., a ..., and a ..."), said at `list_rate`
    where each item has few clauses and the list reads back item by item."""
    if listing and rng.random() < list_rate and all(len(item.clauses) <= MAX_LISTED_CLAUSES for item in items):
        named = [_in_list(item, rng) for item in items]
        body = (f"{listing} both {named[0]} and {named[1]}." if len(items) == 2
                else f"{listing} {', '.join(named[:-1])}, and {named[-1]}.")
        if _one_sentence_list(body) == named:  # else an "and" or a comma in an item's name would blur the list
            return f"{body} {closing}".strip()
    texts = [item.text(rng) for item in items]
    shape = rng.choice((3, 3, 5)) if verb and rng.random() < INLINE_RATE else rng.choices(
        SHAPES, SHAPE_WEIGHTS[min(len(texts), 4)])[0]
    if shape == 5 and len(texts) > 2:  # one sentence holds two items at most
        shape = 3
    if shape == 0:
        listed = "; ".join(f"({n}) {text}" for n, text in enumerate(texts, start=1))
        body = f"{opener}: {listed}."
    elif shape == 1:
        body = f"{opener}. " + " ".join(f"{mark} {text}." for mark, text in zip(_marks(len(texts), rng), texts,
                                                                                 strict=True))
    elif shape == 2:
        body = f"{opener}:\n" + "\n".join(f"({n}) {text}{';' if n < len(texts) else '.'}"
                                          for n, text in enumerate(texts, start=1))
    elif shape == 3:
        leads = _distinct(INLINE_LEADS, len(texts) - 1, rng)
        if len(texts) > 2 and rng.random() < LAST_INLINE_RATE:
            leads[-1] = rng.choice(INLINE_LAST)
        first = f"{verb} {texts[0]}" if verb else f"{opener}. {rng.choice(FIRST_VERBS)} {texts[0]}"
        body = f"{first}." + "".join(f" {lead} {text}." for lead, text in zip(
            leads, texts[1:], strict=True))
    else:
        body = f"{verb or opener + ':'} {texts[0]}{rng.choice((', ', ' '))}{rng.choice(JOINED_LEADS)} {texts[1]}."
    return f"{body}\n{closing}" if closing and shape == 2 else f"{body} {closing}".strip()


def _in_list(item: Item, rng: random.Random) -> str:
    """An item inside a one-sentence list: one clause after its name, several in brackets ("a red jersey (in size
    large, with free shipping)"), as the official set writes them, so the list's own commas and "and" stay clear."""
    if len(item.clauses) < 2:
        return item.text(rng)
    return f"{item.phrase} ({join_clauses(item.clauses, rng)})"


def _distinct(weights: dict[str, int], count: int, rng: random.Random) -> list[str]:
    """`count` different leads drawn by weight (no "Also, ... Also, ...")."""
    left = dict(weights)
    drawn = []
    for _ in range(count):
        drawn.append(weighted(left, rng))
        del left[drawn[-1]]
    return drawn


def _marks(count: int, rng: random.Random) -> list[str]:
    """"First, ... Second, ... Third, ...", the last of four mostly "Lastly," (the official set ends 46 of its
    three-item lists "Third," and 31 of its four-item ones "Lastly,"); now and then "Next," or "Then," inside and a
    verb after a mark ("Next, I need ...")."""
    marks = ["First,"]
    for position in range(1, count):
        if position == count - 1 and count > 3 and rng.random() < 0.8:
            marks.append(rng.choice(LAST_ORDINALS))
        else:
            marks.append(rng.choice(NEXT_ORDINALS) if rng.random() < 0.1 else ORDINALS[position])
    if rng.random() < 0.4:
        return [f"{mark} {rng.choice(ITEM_VERBS)}" for mark in marks]
    return marks


def compose(intent: Intent, items: list[Item], products: list[Product], rng: random.Random,
            voucher_text: str = "") -> str:
    """The whole instruction: context (when it fits), the request in one of its shapes, the voucher's rules."""
    lead = context(products, rng)
    if intent == "shop":
        opener = weighted(SHOP_OPENERS, rng).format(n=NUMBER_WORDS.get(len(items), ""))
        closing = rng.choice(SHOP_CLOSINGS) if rng.random() < 0.25 else ""
        return one_currency(lead + several_items(items, opener, rng, closing, listing=weighted(SHOP_VERBS, rng),
                                                 list_rate=ONE_SENTENCE_LIST["shop"].get(len(items), 0.0)))
    openers = OPENERS if intent == "product" else VOUCHER_ITEM_OPENERS
    if len(items) == 1:
        request = one_item(items[0], rng, openers)
    else:
        verb = weighted(openers, rng)
        request = several_items(items, rng.choice(VOUCHER_OPENERS), rng, verb=verb, listing=verb,
                                list_rate=ONE_SENTENCE_LIST["voucher"].get(len(items), 0.0))
    return one_currency(lead + request) + (f"\n\n{voucher_text}" if voucher_text else "")


def one_currency(text: str) -> str:
    """One currency word per request, the first one said ("PHP" or "pesos"): the official product and voucher
    requests never mix them (issue 30, round 4)."""
    first = re.search(r"\b(PHP|pesos)\b", text)
    if first is None:
        return text
    other = "pesos" if first.group(1) == "PHP" else "PHP"
    return re.sub(rf"\b{other}\b", first.group(1), text)


# --- reading the shapes back ---------------------------------------------------------------------------------------

NUMBERED = re.compile(r"\(\d\)\s*")
ORDINAL = re.compile(r"(?:^|(?<=[.:\n] ))(?:" + "|".join(re.escape(m) for m in ORDINALS + NEXT_ORDINALS
                                                          + LAST_ORDINALS) + r")\s")
INLINE = re.compile(r"(?<=\. )(?:" + "|".join(re.escape(m) for m in sorted((*INLINE_LEADS, *INLINE_LAST), key=len,
                                                                              reverse=True)) + r")\s")
LISTING = re.compile(r"^\s*(?:" + "|".join(re.escape(v) for v in sorted({*SHOP_VERBS, *OPENERS, *VOUCHER_ITEM_OPENERS},
                                                                        key=len, reverse=True)) + r")\s+")
COMMA_LIST = re.compile(r", (?:and )?")
BOTH_AND = re.compile(r"(?<!\d) and ")
JOINED = re.compile(r",? (?:" + "|".join(re.escape(m) for m in JOINED_LEADS) + r") ")
LISTED = re.compile(r"; (?:and )?")
ITEM_VERB = re.compile(r"^(?:" + "|".join(re.escape(v) for v in ITEM_VERBS) + r")\s+", re.IGNORECASE)
SENTENCE_END = re.compile(r"[.;](?:\s|$)|\n")


def split_items(body: str) -> list[str]:
    """Each named item's text when the body names several (by number, ordinal, "I also need", a list after a colon,
    "and also", "both ... and ..." or "..., and ..."), else []."""
    for marker in (NUMBERED, ORDINAL):
        parts = marker.split(body)
        if len(parts) > 2:
            return [_first_sentence(part) for part in parts[1:]]
    parts = INLINE.split(body)
    if len(parts) > 1:
        opening = [s for s in SENTENCE_END.split(parts[0]) if s.strip()]
        return [_first_sentence(part) for part in (opening[-1], *parts[1:])]
    _, colon, listed = body.partition(": ")
    for marker in (LISTED, JOINED):
        parts = marker.split(listed if colon else body)
        if len(parts) > 1:
            return [_first_sentence(part) for part in parts]
    return _one_sentence_list(body)


def _one_sentence_list(body: str) -> list[str]:
    """The items of "... both A and B." (the one "and" outside brackets, a price's "between 5 and 9" aside, with a
    product named on each side) or "... A, B, and C." (a product named between every two commas outside brackets:
    not a clause's list of services), else []."""
    for sentence in SENTENCE_END.split(body):
        _, both, pair = sentence.partition(" both ")
        if both:
            splits = [(pair[:at].strip(), pair[end:].strip()) for at, end in _outside_brackets(pair, BOTH_AND)]
            named = [list(split) for split in splits if all(map(_names_product, split))]
            if len(named) == 1:
                return named[0]
        commas = _outside_brackets(sentence, COMMA_LIST)
        if any(sentence[at:end] == ", and " for at, end in commas):
            bounds = [0, *(i for span in commas for i in span), len(sentence)]
            parts = [LISTING.sub("", sentence[a:b]).strip() for a, b in zip(bounds[::2], bounds[1::2], strict=True)]
            if all(map(_names_product, parts)):
                return parts
    return []


def _outside_brackets(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
    """Where `pattern` matches outside brackets: an item's own clauses in brackets keep their commas and "and"."""
    return [(m.start(), m.end()) for m in pattern.finditer(text)
            if text.count("(", 0, m.start()) == text.count(")", 0, m.start())]


def _names_product(text: str) -> bool:
    return bool(parse_item(text).words)


def _first_sentence(text: str) -> str:
    sentence = re.sub(r"\s+and$", "", SENTENCE_END.split(text.strip())[0].strip())
    return ITEM_VERB.sub("", sentence)


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
