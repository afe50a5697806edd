"""A task's shopper (benchmarks.shoppingbench.conversation.profile_of): every gold constraint is exactly one
Constraint, stated or held; the opener says the product kinds and the stated ones only, never an id or a title; the
same task, stated count and seed give the same profile."""

from __future__ import annotations

import re

import pytest

from benchmarks.shoppingbench.conversation.profile import constraints_of, profile_of
from benchmarks.shoppingbench.conversation.wording import read_answer, say
from benchmarks.shoppingbench.schema import ShoppingTask
from tests._conversation import generated_tasks, official_tasks, profiles, secrets


def gold_count(task: ShoppingTask) -> int:
    """The task's constraints counted from its gold, as the scorer counts them."""
    if task.intent == "web":
        return 0
    count = sum(len(option) for target in task.targets for option in target.sku_options or [])
    count += sum(len(values) for target in task.targets for attribute in target.attributes or []
                 for values in attribute.values())
    count += sum(len(target.service or []) + sum(len(bound) for bound in target.price or [])
                 for target in task.targets)
    return count + (task.intent == "shop") + 2 * (task.voucher is not None)


@pytest.fixture(scope="module", params=["generated", "official"])
def task_set(request, default_world):
    return generated_tasks(default_world) if request.param == "generated" else official_tasks()


@pytest.mark.parametrize("stated", [0, 1, 3])
def test_every_constraint_is_one_constraint_stated_or_held(task_set, stated: int) -> None:
    kinds = set()
    for task, profile in profiles(task_set, stated=stated):
        everything = profile.stated + profile.held
        keys = [constraint.key for constraint in everything]
        assert len(keys) == len(set(keys)) == gold_count(task), task.task_id
        assert set(everything) == set(constraints_of(task))
        facts = {(c.item, c.name, c.value) for c in everything if c.sayable}
        said = {(c.item, c.name, c.value) for c in profile.stated}
        expected = 0 if task.intent == "web" else min(stated, len(facts))
        assert len(said) == expected, task.task_id  # an option and its attribute twin are one thing said
        assert not [c for c in profile.held if (c.item, c.name, c.value) in said], task.task_id
        assert len(profile.items) == len(task.targets)
        kinds |= {constraint.kind for constraint in everything}
    assert kinds == {"option", "attribute", "service", "price", "shop", "budget", "voucher"}


def test_the_opener_names_kinds_and_stated_constraints_never_ids_or_titles(task_set) -> None:
    for task, profile in profiles(task_set, stated=1):
        opener = profile.opener.lower()
        if task.intent == "web":
            assert profile.opener == task.query and profile.knowledge_question == task.query
            continue
        assert not [secret for secret in secrets(task) if secret in opener], task.task_id
        for item in profile.items:
            assert item.split(" ", 1)[1].lower() in opener
        for constraint in profile.stated:
            if constraint.kind != "shop":
                said_as = constraint.name if constraint.kind == "service" else constraint.value
                assert said_as.lower() in opener, (task.task_id, constraint)
        said = " ".join(profile.items).lower() + " " + " ".join(c.value.lower() for c in profile.stated)
        for constraint in profile.held:  # a held value is not in the opener (unless the kind's words hold it)
            value = constraint.value.lower()
            if len(value) > 3 and value not in said:
                assert not re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", opener), (task.task_id, constraint)


def test_salience_and_what_each_intent_holds_back(task_set) -> None:
    for task, profile in profiles(task_set, stated=1):
        if task.intent == "shop":
            assert [c.kind for c in profile.stated] == ["shop"] and "from one shop" in profile.opener
        if task.intent == "voucher" and len(profile.held) + len(profile.stated) > 2:
            assert {c.key for c in profile.held} >= {"budget", "voucher"}, task.task_id
        if task.intent == "product":
            brand = [c for c in profile.held + profile.stated if c.name == "brand"]
            if brand:
                assert profile.stated == (brand[0],) or profile.stated[0].name == "brand"


def test_the_same_task_stated_and_seed_give_the_same_profile(default_world) -> None:
    tasks = generated_tasks(default_world)
    first = [profile for _, profile in profiles(tasks, stated=2, seed=7)]
    assert first == [profile for _, profile in profiles(tasks, stated=2, seed=7)]
    other = [profile for _, profile in profiles(tasks, stated=2, seed=8)]
    assert any(a.stated != b.stated for a, b in zip(first, other, strict=True))  # the seed breaks salience ties


def test_each_constraint_said_in_every_variant_reads_back(task_set) -> None:
    for _, profile in profiles(task_set):
        for constraint in profile.stated + profile.held:
            for variant in range(3):
                assert read_answer(say(constraint, variant)) == [(constraint.name, constraint.value)]


def test_a_negative_stated_count_is_refused() -> None:
    task, products = official_tasks()[0]
    with pytest.raises(ValueError, match="stated must be 0 or more"):
        profile_of(task, products, stated=-1)
