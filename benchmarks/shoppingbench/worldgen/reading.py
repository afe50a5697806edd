"""Reading an item's text back into the constraints it states.

Every clause phrasing.py writes has a fixed lead ("in size", "made by", "priced above") and its value ends where the
next clause's lead begins, so `parse_item` recovers exactly the constraints that were written: the task generator
keeps a task only if `parse_item(text)` gives back its target's constraints (`stated_exactly`), and the `heuristic`
baseline reads instructions through the same parser, i.e. through nothing but the instruction's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from benchmarks.shoppingbench.schema import PriceConstraint, Target
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.phrasing import (
    AFTER,
    BEFORE,
    COLOR_FIRST,
    NUMBER,
    STOPWORDS,
    VALUE,
    agreeing,
    written,
)
from benchmarks.shoppingbench.worldgen.wording import (
    BETWEEN,
    CONTEXTS,
    GREATER_THAN,
    GREATER_THAN_STRICT,
    KEY_TEMPLATES,
    LESS_THAN,
    LESS_THAN_STRICT,
    LIST_MARKS,
    NATURAL,
    OPENERS,
    PURCHASE_LEADS,
    SECOND_SENTENCE,
    SECOND_SENTENCE_PLURAL,
    SERVICE_NOUNS,
    SERVICE_PHRASES,
    SHOP_CLOSINGS,
    SHOP_OPENERS,
    SPARE_TEMPLATES,
    VOUCHER_OPENERS,
)

# --- the clause grammar's patterns ---------------------------------------------------------------------------------

def _pattern(template: str) -> re.Pattern[str]:
    escaped = re.escape(template).replace(r"a\ \{v\}", r"an?\ \{v\}")
    for name in ("v", "l", "h"):
        escaped = escaped.replace(re.escape("{" + name + "}"), f"(?P<{name}>{NUMBER if name != 'v' else VALUE})")
    return re.compile(BEFORE + escaped + AFTER, re.IGNORECASE)


def _literal(template: str) -> str:
    """A form's longest fixed piece, lower-cased: the reader runs no pattern whose piece is not in the text."""
    return max((piece.strip() for piece in re.split(r"\{[vlh]\}", template)), key=len).lower()


def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A fixed phrase wherever it stands as whole words (before the noun or after it)."""
    return re.compile(r"(?<![\w-])" + re.escape(phrase) + r"(?![\w-])", re.IGNORECASE)


def _both(form: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((form, agreeing(form))))


def _longest_first(forms: tuple[str, ...]) -> list[str]:
    return sorted(dict.fromkeys(forms), key=len, reverse=True)


PRICE_PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    [("between", _pattern(t), _literal(t)) for t in _longest_first(BETWEEN)]
    + [("less than", _pattern(t), _literal(t)) for t in _longest_first(LESS_THAN + LESS_THAN_STRICT)]
    + [("greater than", _pattern(t), _literal(t)) for t in _longest_first(GREATER_THAN + GREATER_THAN_STRICT)])
"""The longer form first: "with a price above" is cut whole, not as "above"."""
SERVICE_PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(sorted(
    ((service, _phrase_pattern(form), form.lower()) for table in (SERVICE_PHRASES, SERVICE_NOUNS)
     for service, phrases in table.items() for phrase in phrases for form in _both(phrase)),
    key=lambda item: -len(item[1].pattern)))
NATURAL_PATTERNS: tuple[tuple[tuple[str, str], re.Pattern[str], str], ...] = tuple(
    (pair, _phrase_pattern(form), form.lower())
    for pair, phrase in sorted(NATURAL.items(), key=lambda item: -len(item[1])) for form in _both(phrase))
PAIR_PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(sorted(
    ((key, _pattern(form), _literal(form)) for key, templates in KEY_TEMPLATES.items()
     for template in templates + SPARE_TEMPLATES.get(key, ())
     for form in _both(template)), key=lambda item: -len(item[1].pattern)))
"""Longest first, so "in the color {v}" is tried before "in {v}"."""


# --- reading an item back ------------------------------------------------------------------------------------------

@dataclass
class ItemSpec:
    """What an instruction says about one wanted product."""

    text: str
    words: str
    """The instruction's own words naming the product (clauses and filler removed)."""
    price_min: float | None = None
    price_max: float | None = None
    price_mode: str | None = None
    services: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def price_filter(self) -> str | None:
        """The stated bounds as the search tool's "low-high" price argument."""
        if self.price_min is None and self.price_max is None:
            return None
        low = "" if self.price_min is None else f"{self.price_min:g}"
        high = "" if self.price_max is None else f"{self.price_max:g}"
        return f"{low}-{high}"

    def price_constraint(self) -> PriceConstraint | None:
        if self.price_mode == "less than":
            return {"less than": [0, self.price_max]}
        if self.price_mode == "greater than":
            return {"greater than": [self.price_min, None]}
        if self.price_mode == "between":
            return {"between": [self.price_min, self.price_max]}
        return None


def parse_item(text: str) -> ItemSpec:
    """The constraints one item's text states, and the words left that name the product. The words around a request
    go first, so "Looking for a jersey" is not read as the clause "for a {instrument}"."""
    spec = _parse_item(text)
    return replace(spec, services=list(spec.services), pairs=list(spec.pairs))


@lru_cache(maxsize=8192)
def _parse_item(text: str) -> ItemSpec:
    """parse_item, remembered: the generator reads each draft of an instruction three times (the read-back check,
    the heuristic's play, the naive rival's search)."""
    rest = FILLER.sub(" ", text)
    spec = ItemSpec(text=text, words="")

    def cut(match: re.Match[str], group: int = 0) -> None:
        nonlocal rest
        rest = rest[:match.start(group)].rstrip() + " | " + rest[match.end(group):].lstrip()

    if color := COLOR_FIRST.search(rest):
        spec.pairs.append(("color_family", written("color_family", color.group(1))))
        cut(color, 1)

    for mode, pattern, literal in PRICE_PATTERNS:
        match = pattern.search(rest) if literal in rest.lower() else None
        if match and spec.price_mode is None:
            groups = match.groupdict()
            spec.price_mode = mode
            spec.price_min = float(groups["l"]) if groups.get("l") else None
            spec.price_max = float(groups["h"]) if groups.get("h") else None
            cut(match)
    for service, pattern, literal in SERVICE_PATTERNS:
        match = pattern.search(rest) if literal in rest.lower() else None
        if match:
            if service not in spec.services:
                spec.services.append(service)
            cut(match)
    for pair, pattern, literal in NATURAL_PATTERNS:
        match = pattern.search(rest) if literal in rest.lower() else None
        if match:
            spec.pairs.append(pair)
            cut(match)
    while True:
        lower = rest.lower()
        found = [(key, match) for key, pattern, literal in PAIR_PATTERNS
                 if literal in lower and (match := pattern.search(rest))]
        if not found:
            break
        key, first = min(found, key=lambda item: (item[1].start(), -len(item[1].group(0))))
        spec.pairs.append((key, written(key, first.group("v"))))
        cut(first)
    spec.words = search_words(rest)
    return spec


SAID_AROUND = (tuple(OPENERS) + SECOND_SENTENCE + SECOND_SENTENCE_PLURAL + SHOP_CLOSINGS
               + tuple(opener.format(n=n) for opener in SHOP_OPENERS for n in ("two", "three", "four"))
               + VOUCHER_OPENERS + LIST_MARKS + PURCHASE_LEADS
               + tuple(c for group in CONTEXTS.values() for c in group) + ("Hi", "Hello", "Please"))
FILLER = re.compile(r"(?<![\w'])(" + "|".join(re.escape(p.rstrip("?!.,"))
                                               for p in sorted(set(SAID_AROUND), key=len, reverse=True))
                    + r")(?![\w'])", re.IGNORECASE)


def search_words(text: str) -> str:
    """What a shopper would type into the search box: the naming words, without filler and stopwords."""
    text = FILLER.sub(" ", text)
    words = re.findall(r"[\w'&+.:/-]+", text.lower())
    kept = [w.strip(".:") for w in words if w.strip(".:") and w.strip(".:") not in STOPWORDS]
    return " ".join(dict.fromkeys(kept))


def target_pairs(target: Target) -> set[tuple[str, str]]:
    pairs = {(k, v) for option in target.sku_options or [] for k, v in option.items()}
    return pairs | {(k, v) for attribute in target.attributes or [] for k, values in attribute.items() for v in values}


def stated_exactly(target: Target, spec: ItemSpec) -> bool:
    """The text states every constraint of the target and nothing else: price, services, every SKU/attribute pair."""
    price = target.price[0] if target.price else None
    return (price == spec.price_constraint() and set(target.service or []) == set(spec.services)
            and len(spec.services) == len(target.service or []) and target_pairs(target) == set(spec.pairs)
            and len(spec.pairs) == len(target_pairs(target)))


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
