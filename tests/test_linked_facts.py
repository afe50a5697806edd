"""The knowledge facts of generator v7: each is stated by its own document and never by its question, each purchase
refers to the answer as the heuristic reads it, each answer is something a listing's title carries, and the default
world's knowledge tasks tie product to fact in all the ways the official set does, not mostly by colour."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from benchmarks.shoppingbench.schema import ShoppingTask
from benchmarks.shoppingbench.worldgen.brand_facts import BRAND_FACTS
from benchmarks.shoppingbench.worldgen.heuristic import KNOWLEDGE_HINT, read_instruction
from benchmarks.shoppingbench.worldgen.knowledge import FAMILY_SHARES, THEMED_KEYS
from benchmarks.shoppingbench.worldgen.obscure_facts import can_obscure, obscure_fact
from benchmarks.shoppingbench.worldgen.place_facts import NAMES, ORIGINS, PLACE_FACTS, PLACES, YEARS
from benchmarks.shoppingbench.worldgen.real_facts import FACTS, Fact
from benchmarks.shoppingbench.worldgen.vocab import KINDS

LINKED = BRAND_FACTS + PLACE_FACTS


def _names(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, flags=re.IGNORECASE) is not None


@pytest.mark.parametrize("fact", FACTS + LINKED, ids=lambda f: f"{f.key}:{f.value}:{f.title}")
def test_a_fact_is_stated_by_its_document_and_not_by_its_question(fact: Fact):
    assert _names(fact.statement, fact.value)
    assert fact.questions and all(q.endswith("?") and q.count("?") == 1 for q in fact.questions)  # read_instruction
    assert not any(_names(q, fact.value) for q in fact.questions)


@pytest.mark.parametrize("fact", LINKED, ids=lambda f: f"{f.key}:{f.value}:{f.title}")
def test_a_linked_purchase_names_the_product_and_refers_to_the_answer(fact: Fact):
    assert fact.purchases
    for purchase in fact.purchases:
        assert "{phrase}" in purchase and not _names(purchase, fact.value)
        query = f"{fact.questions[0]} {purchase.format(phrase='a travel mug')}"
        assert KNOWLEDGE_HINT.search(query), purchase
        assert read_instruction(query).knowledge_question == fact.questions[0]


def test_every_brand_answer_is_a_catalog_brand_and_every_themed_value_a_fact():
    brands = {brand for kind in KINDS for brand in kind.brands}
    for fact in BRAND_FACTS:
        assert any(_names(brand, fact.value) for brand in brands), fact.value
    offered = {key: set(values) for kind in KINDS for key, values in kind.title_attrs.items() if key in THEMED_KEYS}
    assert offered == {"place": set(PLACES), "origin": set(ORIGINS), "year": set(YEARS), "name": set(NAMES)}
    assert {f.key for f in PLACE_FACTS} == set(THEMED_KEYS)


def test_one_question_has_one_answer():
    answers: dict[str, set[str]] = {}
    for fact in FACTS + LINKED:
        for question in fact.questions:
            answers.setdefault(question.lower(), set()).add(fact.value)
    assert {q: a for q, a in answers.items() if len(a) > 1} == {}


def _family(task: ShoppingTask) -> str:
    """How a knowledge task ties its product to the answer: the brand, a themed title value, or an attribute."""
    answer, product = (task.knowledge_attribute or "").lower(), task.knowledge_product
    assert product is not None
    if answer in product.brand.lower():
        return "brand"
    return next((key for key in THEMED_KEYS if product.attributes.get(key) == [answer]), "attribute")


def test_the_default_worlds_knowledge_tasks_tie_product_and_fact_in_every_way(default_world):
    real = {q for f in FACTS + LINKED for q in f.questions}
    web = [t for t in default_world.tasks("generated") if t.intent == "web"]
    families = Counter(_family(t) for t in web)
    assert set(FAMILY_SHARES) == set(families), families
    assert max(families.values()) <= len(web) // 2, families  # colours and flavours no longer most of them
    asked = [t.query.partition("?")[0] + "?" for t in web]
    assert len(set(asked)) == len(asked)  # no question twice, as in the official set
    made_up = [t for t, q in zip(web, asked, strict=True) if q not in real]
    assert all(_family(t) != "attribute" for t in made_up)  # an attribute's made-up entity only past the real facts
    assert len(web) // 4 <= len(made_up) <= len(web) * 3 // 5  # obscure award trivia beside real facts


def test_an_obscure_fact_states_its_answer_once_and_its_rivals_never():
    rng, awarded = random.Random(0), set[str]()
    obscured = [f for f in LINKED if can_obscure(f)]
    assert {f.key for f in obscured} == {"brand", *THEMED_KEYS}
    for real in obscured:
        fact, rivals = obscure_fact(real, rng, awarded)
        assert (fact.key, fact.value, fact.purchases) == (real.key, real.value, real.purchases)
        assert _names(fact.statement, fact.value) and not _names(fact.questions[0], fact.value)
        assert fact.questions[0].count("?") == 1 and fact.questions[0].endswith("?")
        assert rivals and not any(_names(statement, fact.value) for _, statement in rivals)
    assert len(awarded) == 2 * len(obscured)  # no award and year, no laureate twice in a world
