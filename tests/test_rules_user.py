"""The rules user (mcp_server.shopping.conversation.rules_user): every constraint kind of the default world and of the
official set, asked in several phrasings, is answered from the profile; no answer reveals a constraint not asked
about, a product id or a title; unmappable questions are answered as such and counted; the same question gets the
same answer in another process."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.shoppingbench.conversation.profile import Constraint, UserProfile, item_label
from benchmarks.shoppingbench.conversation.wording import NO_PREFERENCE, NOT_UNDERSTOOD, UNSAYABLE, read_answer
from mcp_server.shopping.conversation.rules_user import QUESTIONS, RULES, RulesUser, rules
from tests._conversation import generated_tasks, official_tasks, profiles, secrets

TOPIC_QUESTIONS = {
    "the colour": ("What colour would you like?", "Any preferred color?", "Which shade are you after?"),
    "the size": ("What size do you need?", "How big should it be?", "Which size fits you?"),
    "the brand": ("Which brand do you prefer?", "Any particular brand?", "Who should the manufacturer be?"),
    "the material": ("What material do you want?", "Which fabric?", "What should it be made of?"),
    "the pattern or design": ("Which pattern do you like?", "Any design in mind?", "What style do you want?"),
    "the flavour or scent": ("Which flavour?", "Any scent you like?", "What taste do you prefer?"),
    "the model or compatibility": ("Which model is it for?", "What should it be compatible with?",
                                   "Which device do you have?"),
}
KIND_QUESTIONS = {
    "price": ("What's your budget?", "How much do you want to spend?", "What price range works for you?"),
    "shop": ("Should everything come from one shop?", "Does it matter which store?", "Same seller for all?"),
    "budget": ("What's your total budget?", "How much can you spend overall?", "What can you afford?"),
    "voucher": ("Do you have a voucher?", "Any coupon I should use?", "Is there a discount code?"),
}
SERVICE_QUESTIONS = {
    "COD": ("Do you need cash on delivery?", "Should it support COD?", "Will you pay on delivery?"),
    "freeShipping": ("Do you need free shipping?", "Does the shipping matter?", "Any delivery requirements?"),
    "official": ("Should it be from LazMall?", "Do you want an official store?", "Must it be authentic?"),
    "flashsale": ("Do you want a flash sale?", "Should it be on sale?", "Are you looking for deals?"),
}
UNMAPPABLE = ("What's the weather like today?", "asdf qwerty", "Who won the game last night?")


def questions_for(constraint: Constraint) -> tuple[str, ...]:
    """Three ways to ask about this constraint, by its topic (questions.toml) or, failing one, by its name."""
    if constraint.kind == "service":
        return SERVICE_QUESTIONS[constraint.value]
    if constraint.kind in KIND_QUESTIONS:
        return KIND_QUESTIONS[constraint.kind]
    for topic in rules().topics:
        if topic.holds(constraint) and topic.name in TOPIC_QUESTIONS:
            return TOPIC_QUESTIONS[topic.name]
    name = constraint.name
    return (f"What {name} would you like?", f"Do you have a preference for the {name}?", f"Any particular {name}?")


def about(question: str, profile: UserProfile, constraint: Constraint) -> str:
    """The question about the constraint's item when the task has several."""
    if constraint.item is None or len(profile.items) < 2:
        return question
    return f"{question[:-1]} for {item_label(profile.items, constraint.item)}?"


def whole(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(value.lower())}(?![\w-])")


def check_answer(task, user: RulesUser, constraint: Constraint, question: str, held: list[tuple]) -> None:
    """The answer discloses the constraint asked about, says what it discloses and nothing else held; `held` is
    (constraint, pattern of its value) for the profile's held constraints."""
    profile = user.profile
    answer = user.answer(question)
    turn, text = answer.turn, answer.text
    where = (task.task_id, constraint.key, question, text)
    assert turn.user == "rules" and turn.understood, where
    assert constraint.key in turn.asked_about and set(turn.disclosed) <= set(turn.asked_about), where
    assert [c.key for c in profile.constraints if c.key in turn.asked_about and c.sayable] == turn.disclosed, where
    if not constraint.sayable:  # a value holding the whole title is never said
        assert UNSAYABLE.format(name=constraint.name) in text, where
        return
    assert (constraint.name, constraint.value) in read_answer(text), where
    disclosed = [c for c in profile.constraints if c.key in turn.disclosed]
    if constraint.item is not None:  # a question about one item answers for it (and task-wide rules) only
        assert all(c.item in (None, constraint.item) for c in disclosed) or len(set(profile.items)) < len(
            profile.items), where
    said = {value for name, value in read_answer(text)}
    assert said == {c.value for c in disclosed}, where
    lowered = text.lower()
    assert not [secret for secret in secrets(task) if secret in lowered], where
    told = " ".join(f"{c.name} {c.value}".lower() for c in disclosed) + " " + " ".join(profile.items).lower()
    for other, pattern in held:
        if other.key not in turn.disclosed and other.value.lower() not in told:
            assert not pattern.search(lowered), (where, other)


@pytest.fixture(scope="module", params=["generated", "official"])
def task_profiles(request, default_world):
    tasks = generated_tasks(default_world) if request.param == "generated" else official_tasks()
    return profiles(tasks, stated=0)


def test_every_constraint_kind_asked_in_several_phrasings_is_answered_from_the_profile(task_profiles) -> None:
    kinds: set[str] = set()
    for task, profile in task_profiles:
        user = RulesUser(profile)
        held = [(c, whole(c.value)) for c in profile.held if len(c.value) > 3]
        for constraint in profile.held:
            if constraint.kind in ("option", "attribute") and constraint.name.isdigit():
                continue  # a key that is a bare number names nothing a shopper could ask about
            guess = (f"Should the {constraint.name} be {constraint.value}?",) if constraint.kind in (
                "option", "attribute") and constraint.sayable and len(constraint.value) > 2 else ()
            for question in (*questions_for(constraint), *guess):  # three ways, and by its value
                check_answer(task, user, constraint, about(question, profile, constraint), held)
            kinds.add(constraint.kind)
    assert kinds == {"option", "attribute", "service", "price", "shop", "budget", "voucher"}


def test_unasked_topics_get_no_preference_and_unmappable_questions_are_counted(task_profiles) -> None:
    for _, profile in task_profiles[::7]:
        user = RulesUser(profile)
        for question in UNMAPPABLE:
            answer = user.answer(question)
            assert answer.text == NOT_UNDERSTOOD and not answer.turn.understood and not answer.turn.disclosed
        colour = next(topic for topic in rules().topics if topic.name == "the colour")
        if not any(colour.holds(c) for c in profile.constraints):
            answer = user.answer("What colour do you want?")
            assert answer.text == NO_PREFERENCE.format(topic="the colour") and answer.turn.understood
            assert answer.turn.disclosed == []


def test_a_general_question_names_aspects_never_values(task_profiles) -> None:
    for task, profile in task_profiles[::5]:
        answer = RulesUser(profile).answer("Anything else I should know about what you want?")
        assert answer.turn.understood and answer.turn.disclosed == [] and read_answer(answer.text) == []
        for constraint in profile.held:
            value = constraint.value.lower()
            if len(value) > 3 and value not in " ".join(profile.items).lower():
                assert not re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", answer.text.lower()), task.task_id


ANSWERS_SCRIPT = """
import hashlib, json, sys
from tests._conversation import official_tasks, profiles
from mcp_server.shopping.conversation.rules_user import RulesUser
questions = json.loads(sys.argv[1])
digest = hashlib.sha256()
for task, profile in profiles(official_tasks()[::9], stated=1, seed=3):
    user = RulesUser(profile)
    for question in questions:
        answer = user.answer(question)
        digest.update((profile.opener + answer.text + answer.turn.model_dump_json()).encode())
print(digest.hexdigest(), hash("probe"))
"""


def test_the_same_question_gets_the_same_answer_in_another_process() -> None:
    questions = [*KIND_QUESTIONS["price"], *TOPIC_QUESTIONS["the colour"], *UNMAPPABLE, "Anything else?",
                 "What size for the second one?"]
    here = hashlib.sha256()
    for _, profile in profiles(official_tasks()[::9], stated=1, seed=3):
        user = RulesUser(profile)
        for question in questions:
            answer = user.answer(question)
            here.update((profile.opener + answer.text + answer.turn.model_dump_json()).encode())
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # a process hashing str unlike this one
    result = subprocess.run([sys.executable, "-c", ANSWERS_SCRIPT, json.dumps(questions)], capture_output=True,
                            text=True, check=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": seed})
    digest, probe = result.stdout.split()
    assert int(probe) != hash("probe") and digest == here.hexdigest()


def test_the_source_records_its_rules() -> None:
    assert RULES.name == "rules"
    assert RULES.parameters() == {"user_rules_sha256": rules().digest} and len(rules().digest) == 64


def test_a_question_about_one_of_several_items_is_answered_for_that_item() -> None:
    def price(item: int, value: str) -> Constraint:
        return Constraint(f"{item}.price", "price", item, "price", value)

    two = UserProfile("shop-x", ("a sunscreen lotion", "a moisturizer"), (),
                      (price(0, "at least 10 PHP"), price(1, "at most 20 PHP")), "I need two things.")
    cases = UserProfile("shop-y", ("a case", "a case"), (), (price(0, "at least 1 PHP"), price(1, "at most 2 PHP")),
                        "I need two cases.")
    for profile, question, keys in (
        (two, "What's your budget?", ["0.price", "1.price"]),
        (two, "What's your budget for the moisturizer?", ["1.price"]),
        (two, "What's your budget for the sunscreen?", ["0.price"]),
        (two, "And the price of the second one?", ["1.price"]),
        (cases, "What's your budget for the second case?", ["1.price"]),
        (cases, "What should the first case cost?", ["0.price"]),
    ):
        answer = RulesUser(profile).answer(question)
        assert answer.turn.disclosed == keys, (question, answer.text)


def test_a_topic_word_in_an_items_kind_does_not_narrow_a_question_meant_for_every_item() -> None:
    def detail(item: int, key: str, value: str) -> Constraint:
        return Constraint(f"{item}.option.{key}", "option", item, key.replace("_", " "), value)

    balls = UserProfile("voucher-x", ("an official size ball", "a seat cover", "a shower gel"), (),
                        (detail(1, "color_family", "smoke"), detail(2, "set_pieces", "5pcs")), "I need three things.")
    power = UserProfile("shop-x", ("a shockproof cover", "a micro USB cable", "a power bank"), (),
                        (detail(0, "material", "tpu"), detail(1, "max_power", "20w"),
                         detail(2, "battery_capacity", "20000mah")), "I need three things.")
    for profile, question, keys in (
        (balls, "Which brand, colour and size would you like?", ["1.option.color_family", "2.option.set_pieces"]),
        (balls, "Which size for the official size ball?", []),
        (power, "What about the material and the max power?", ["0.option.material", "1.option.max_power"]),
        (power, "What capacity should the power bank have?", ["2.option.battery_capacity"]),
    ):
        answer = RulesUser(profile).answer(question)
        assert answer.turn.disclosed == keys, (question, answer.text)


def test_a_broken_questions_file_is_one_line_naming_it(tmp_path) -> None:
    good = QUESTIONS.read_text(encoding="utf-8")
    for name, text, said in (("toml", "general = [", "not valid TOML"),
                             ("key", good.replace('name = "the colour"\n', ""), "lacks 'name'"),
                             ("regex", good.replace("'hues?'", "'hues?('"), "not a regular expression")):
        path = tmp_path / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=said) as raised:
            rules(path)
        assert str(path) in str(raised.value) and "\n" not in str(raised.value)


FUZZ_WORDS = ["what", "colour", "size", "the", "second", "budget", "for", "brand", "cash", "shop", "voucher",
              "anything", "else", "?", "(", "[", "\\", "*", "mm", "ring", "case", "50", "bags", "lazmall", "free",
              "shipping", "one", "sale"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(FUZZ_WORDS), max_size=12), noise=st.text(max_size=20),
       index=st.integers(min_value=0, max_value=10_000))
def test_any_question_is_answered_and_says_only_what_it_discloses(words, noise, index, default_world) -> None:
    every = fuzz_profiles(default_world)
    _, profile = every[index % len(every)]
    question = " ".join(words) + noise
    answer = RulesUser(profile).answer(question)
    again = RulesUser(profile).answer(question)
    assert (answer.text, answer.turn) == (again.text, again.turn)
    said = {value for _, value in read_answer(answer.text)}
    assert said == {c.value for c in profile.constraints if c.key in answer.turn.disclosed}
    assert answer.turn.understood or (answer.text == NOT_UNDERSTOOD and not answer.turn.asked_about)


@cache
def fuzz_profiles(world) -> list:
    """Every generated task's profile and a fifth of the official ones', all held back."""
    return profiles(generated_tasks(world), stated=0) + profiles(official_tasks()[::5], stated=0)
