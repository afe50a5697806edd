"""The knowledge facts of generator v7: each is stated by its own document and never by its question, each purchase
refers to the answer as the heuristic reads it, each answer is something a listing's title carries, and the default
world's knowledge tasks tie product to fact in all the ways the official set does, not mostly by colour."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from benchmarks.shoppingbench.worldgen.brand_facts import BRAND_FACTS
from benchmarks.shoppingbench.worldgen.heuristic import KNOWLEDGE_HINT, read_instruction
from benchmarks.shoppingbench.worldgen.knowledge import FAMILY_SHARES, THEMED_KEYS
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


def test_the_default_worlds_knowledge_tasks_tie_product_and_fact_in_every_way(default_world):
    family = {q: "attribute" for f in FACTS for q in f.questions}
    family |= {q: "brand" for f in BRAND_FACTS for q in f.questions}
    family |= {q: f.key for f in PLACE_FACTS for q in f.questions}
    web = [t for t in default_world.tasks("generated") if t.intent == "web"]
    counts = Counter(family.get(t.query.partition("?")[0] + "?", "made-up") for t in web)
    assert set(FAMILY_SHARES) <= set(counts), counts
    assert max(counts.values()) <= len(web) // 2, counts  # colours and flavours no longer most of them
    assert counts["made-up"] <= len(web) // 10, counts
