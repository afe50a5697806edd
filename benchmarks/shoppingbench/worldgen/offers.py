"""How an item's services and price bound are said: in the official set's words (wording.SERVICE_PHRASES, the
price forms), drawn so that an item takes one "with" at most, as official instructions do (never "with cash on
delivery, with free shipping, with a price above ...")."""

from __future__ import annotations

import random

from benchmarks.shoppingbench.schema import PriceConstraint
from benchmarks.shoppingbench.worldgen import source_digest
from benchmarks.shoppingbench.worldgen.wording import (
    BETWEEN,
    GREATER_THAN,
    GREATER_THAN_STRICT,
    LESS_THAN,
    LESS_THAN_STRICT,
    SERVICE_NOUNS,
    SERVICE_PHRASES,
)


def price_clause(constraint: PriceConstraint, price: float, rng: random.Random, *, with_said: bool = False) -> str:
    """A price bound in words; "under"/"above" only where the product's price is strictly inside the bound; not
    "with a price ..." after another "with" (`with_said`)."""
    (mode, (low, high)), = constraint.items()
    forms: tuple[str, ...]
    if mode == "less than":
        forms = LESS_THAN_STRICT if high is not None and high > price else LESS_THAN
    elif mode == "greater than":  # "at least", "or more" only where the price sits on the bound (never official)
        forms = GREATER_THAN_STRICT if low is not None and low < price else GREATER_THAN
    else:
        forms = BETWEEN
    return rng.choice(without_with(forms) if with_said else forms).format(l=_number(low), h=_number(high))


def _number(value: float | None) -> str:
    return f"{value or 0:g}"


def service_clauses(services: list[str], rng: random.Random, *, with_said: bool = False) -> list[str]:
    """Each service in its own words, or (two or more, most often) all after one "with": "with free delivery and
    cash on delivery". One "with" per item at most (`with_said`: a detail already began with it): the official
    set never strings "with X, with Y"."""
    said_with = [with_said]
    leads: list[str] = []

    def said(service: str, table: dict[str, tuple[str, ...]]) -> str:
        forms = table[service]
        if "COD" in services and service != "COD":  # not "free delivery and cash on delivery"
            forms = tuple(f for f in forms if "delivery" not in f) or forms
        if said_with[0]:
            forms = without_with(forms)
        forms = tuple(f for f in forms if f.split(" ")[0] not in leads) or forms  # not "available ..." twice
        form = rng.choice(forms)
        said_with[0] = said_with[0] or form.startswith("with ")
        leads.append(form.split(" ")[0])
        return form

    if len(services) < 2 or rng.random() < 0.4:
        return [said(s, SERVICE_PHRASES) for s in services]
    nouns = [said(s, SERVICE_NOUNS) for s in services]
    lead = rng.choice(("that comes with ", "available with ")) if with_said else "with "
    return [lead + ", ".join(nouns[:-1]) + (" and " if len(nouns) == 2 else rng.choice((" and ", ", and ")))
            + nouns[-1]]


def without_with(forms: tuple[str, ...]) -> tuple[str, ...]:
    """The forms that do not begin with "with" (all of them if none)."""
    return tuple(f for f in forms if not f.startswith("with ")) or forms


SOURCE_DIGEST = source_digest(__file__)
"""This module's source as imported (mcp_server.world.generator_fingerprint combines them)."""
