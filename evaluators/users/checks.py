"""Checking a simulated shopper's answer against its profile, so a simulator's mistake is not scored as the agent's.

An answer is read for the profile's values (written as the catalog writes them, so a value is found by its words,
or, for a price, budget or voucher, by its numbers). A value said only inside words the answer may say (the name of
the product it is about, "the basketball jersey"; a value asked about that holds it, "sterling silver" for a held
colour "silver") is not revealed. These mistakes make a simulator error:

- it says a value that holds the product's whole title (which no shopper says, and which names the gold);
- it reveals a held-back constraint the question did not ask about (and no earlier answer gave);
- it contradicts the profile: it states another value for a constraint the profile holds (read back through the
  rules user's sentence templates, `wording.read_answer`), claims no preference about a constraint asked about that
  the profile holds, or names other numbers for an asked price or budget than the profile's;
- it answers a question about a constraint the profile holds without giving its value ("Red, please." for a colour
  held as "as the picture": another value in free words, or none): the agent would act on a wish the shopper does
  not have. A service asked about is given by a yes ("Yes, please." to "Do you need cash on delivery?").

What the question asked about comes from the rules user's question → constraint mapping (the same data the
deterministic simulator answers from), so both simulators are held to one reading of the question.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from benchmarks.shoppingbench.conversation.wording import read_answer
from mcp_server.shopping.conversation.rules_user import RulesUser

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import Constraint, UserProfile

BOUNDS = frozenset({"price", "budget", "voucher"})
"""Constraint kinds whose value is a bound in words, given when its numbers are."""
_WORD = re.compile(r"[^\W_]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_YES = re.compile(r"\s*(yes|yeah|yep|sure|definitely|absolutely|of course|please|i do|i need|i want|i'd like)\b")
_NO_PREFERENCE = re.compile(
    r"\b(no (particular |real |specific )?preference|(do not|don't|dont) (mind|care)|doesn't matter|does not matter|"
    r"whatever|any (is|will be) fine|anything is fine)\b")


@dataclass(frozen=True)
class AnswerCheck:
    disclosed: list[str]
    """Keys of the held constraints whose values the answer gives."""
    error: str | None
    """The simulator's mistake, in one sentence; None when the answer keeps to its profile."""


def question_reader(profile: UserProfile) -> RulesUser:
    """One episode's reader of questions: the rules user of its profile (built once: it works out per profile what
    does not depend on the question)."""
    return RulesUser(profile)


def read_question(reader: RulesUser, question: str) -> tuple[list[str], bool]:
    """The keys of the constraints the question asks about, and whether it asks about anything a shopper decides (a
    general "anything else?" does, asking about no key), as the rules user reads it (questions.toml)."""
    turn = reader.answer(question).turn
    return turn.asked_about, turn.understood


def _words(text: str) -> str:
    """Lower case, runs of anything but letters and digits as one space, padded: phrases match on word bounds."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


def _numbers(text: str) -> set[float]:
    return {float(number.replace(",", ".")) for number in _NUMBER.findall(text)}


def mentions(text: str, value: str, *, by_numbers: bool = False) -> bool:
    """Whether `text` gives `value`: its words as a phrase, or with `by_numbers` (a bound in words) all of its
    numbers."""
    numbers = _numbers(value) if by_numbers else set()
    if numbers:
        return numbers <= _numbers(text)
    phrase = _words(value)
    return phrase.strip() != "" and phrase in _words(text)


def gives(text: str, constraint: Constraint) -> bool:
    """Whether `text` gives the constraint: its value, or for a service (whose value is a catalog flag) its name."""
    if mentions(text, constraint.value, by_numbers=constraint.kind in BOUNDS):
        return True
    return constraint.kind == "service" and mentions(text, constraint.name)


def _hiding(phrases: list[str], constraint: Constraint) -> list[str]:
    """The phrases to take out before looking for the constraint's value: all but those inside it (taking "silver"
    out of "sterling silver" would hide a revealed material), the value itself included (said already)."""
    value = _words(constraint.value)
    return [phrase for phrase in phrases if _words(phrase) == value or _words(phrase) not in value]


def _without(text: str, phrases: Collection[str]) -> str:
    """The answer's words with these phrases taken out (longest first)."""
    words = _words(text)
    for phrase in sorted((_words(p) for p in phrases), key=len, reverse=True):
        if phrase.strip():
            words = words.replace(phrase, " ")
    return words


def answers(text: str, constraint: Constraint, asked: Collection[str]) -> bool:
    """Whether `text` gives the constraint, counting a yes to a question about a service."""
    if gives(text, constraint):
        return True
    return constraint.kind == "service" and constraint.key in asked and _YES.match(text.lower()) is not None


def disclosed_keys(profile: UserProfile, text: str, asked: Collection[str] = ()) -> list[str]:
    """The held constraints `text` gives (as an answer to a question about `asked`), in the profile's order."""
    return [constraint.key for constraint in profile.held if answers(text, constraint, asked)]


def check_answer(profile: UserProfile, text: str, asked: Collection[str], known: Collection[str] = ()) -> AnswerCheck:
    """Check one answer: `asked` are the keys the question asked about, `known` the held keys earlier answers gave
    (saying them again reveals nothing)."""
    disclosed = disclosed_keys(profile, text, asked)
    constraints = {constraint.key: constraint for constraint in (*profile.stated, *profile.held)}
    for constraint in constraints.values():
        if not constraint.sayable and mentions(text, constraint.value):
            return AnswerCheck(disclosed, f"said the product's title as its {constraint.name}")
    allowed = [constraints[key] for key in (*asked, *known) if key in constraints] + list(profile.stated)
    sayable = [item.split(" ", 1)[-1] for item in profile.items] + [c.value for c in allowed]
    for key in disclosed:
        constraint = constraints[key]
        if key in asked or key in known or not gives(_without(text, _hiding(sayable, constraint)), constraint):
            continue  # asked, or said only inside the products' names and the values it may say
        return AnswerCheck(disclosed, f"revealed {_label(constraint)} ({constraint.value!r}), which the question "
                                      "did not ask about")
    for name, value in read_answer(text):
        same = [c for c in constraints.values() if _words(c.name) == _words(name) and c.kind != "service"]
        if same and not any(mentions(value, c.value, by_numbers=c.kind in BOUNDS) for c in same):
            return AnswerCheck(disclosed, f"stated {value!r} for {_label(same[0])}, which its profile holds as "
                                          f"{same[0].value!r}")
    for key in asked:
        if key not in constraints or not constraints[key].sayable or answers(text, constraints[key], asked):
            continue
        return AnswerCheck(disclosed, _contradiction(constraints[key], text))
    return AnswerCheck(disclosed, None)


def _contradiction(constraint: Constraint, text: str) -> str:
    """How an answer that does not give an asked constraint's value contradicts it."""
    if _NO_PREFERENCE.search(text.lower()):
        return f"said it has no preference about {_label(constraint)}, which its profile holds as {constraint.value!r}"
    if _numbers(constraint.value) and _numbers(text):
        given = ", ".join(sorted(_NUMBER.findall(text)))
        return f"gave {given} for {_label(constraint)}, which its profile holds as {constraint.value!r}"
    return f"was asked about {_label(constraint)} and did not give its value {constraint.value!r}"


def _label(constraint: Constraint) -> str:
    return constraint.name if constraint.item is None else f"{constraint.name} (product {constraint.item + 1})"
