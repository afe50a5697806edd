"""The rules user: a deterministic shopper that answers `ask_user` from its task's profile.

It reads a question through readable, extensible data (`questions.toml` beside this file: topics with their
patterns and the constraints they ask about), answers the constraints asked about in a shopper's words
(benchmarks.shoppingbench.conversation.wording.say), says it has no preference about a topic its profile holds
nothing on, never volunteers a constraint not asked about, and answers a question it cannot map as such
(`understood` False, counted). The same question gets the same answer in every run and process: the words are
chosen by a hash of the question (hashlib), never by Python's salted `hash()` or a clock.

Which item a question is about: with several items, a question naming an item's kind ("the ring") or its place
("the second one") asks about that item only; otherwise about every item holding the topic.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.shoppingbench.conversation.profile import ORDINALS, Constraint, UserProfile, about_item, item_label
from benchmarks.shoppingbench.conversation.wording import (
    ASK_ME,
    NO_PREFERENCE,
    NOT_UNDERSTOOD,
    NOTHING_ELSE,
    UNSAYABLE,
    listing,
    say,
    stable_index,
)
from mcp_server.trajectory import UserTurn
from mcp_server.users import UserAnswer, register_user_source

QUESTIONS = Path(__file__).with_name("questions.toml")
RULES_NAME = "rules"
PLACES = {**{word: index for index, word in enumerate(ORDINALS)}, "1st": 0, "2nd": 1, "3rd": 2, "4th": 3,
          "last": -1}


@dataclass(frozen=True)
class Topic:
    """Something a shopper decides, as questions.toml declares it."""

    name: str
    pattern: re.Pattern[str]
    keys: tuple[re.Pattern[str], ...] = ()
    kinds: frozenset[str] = frozenset()
    services: frozenset[str] = frozenset()

    def holds(self, constraint: Constraint) -> bool:
        """Whether this topic asks about the constraint."""
        if constraint.kind in self.kinds:
            return True
        if constraint.kind == "service":
            return constraint.value in self.services
        if constraint.kind in ("option", "attribute"):
            key = constraint.key.split(".")[2]
            return any(pattern.fullmatch(key) for pattern in self.keys)
        return False


@dataclass(frozen=True)
class Rules:
    """questions.toml, compiled."""

    topics: tuple[Topic, ...]
    general: re.Pattern[str]
    generic_words: frozenset[str]
    digest: str
    """sha256 of the file's text, recorded in the manifest."""


def _words(patterns: list[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(f"(?:{p})" for p in patterns) + r")(?![\w-])", re.IGNORECASE)


@cache
def rules(path: Path = QUESTIONS) -> Rules:
    """The question rules, loaded once per process."""
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = tomllib.loads(text)
    topics = tuple(
        Topic(name=entry["name"], pattern=_words(entry["patterns"]),
              keys=tuple(re.compile(key, re.IGNORECASE) for key in entry.get("keys", ())),
              kinds=frozenset(entry.get("kinds", ())), services=frozenset(entry.get("services", ())))
        for entry in data["topic"])
    return Rules(topics, _words(data["general"]), frozenset(data["generic_key_words"]),
                 hashlib.sha256(text.encode("utf-8")).hexdigest())


@dataclass
class RulesUser:
    """The user of one episode, answering from its profile by the rules."""

    profile: UserProfile
    rules: Rules = field(default_factory=rules)

    def answer(self, question: str) -> UserAnswer:
        """The answer to one question: text for the agent, and the turn recorded with the step."""
        said = " ".join(question.split())
        items = self._items(said)
        constraints = [c for c in self.profile.constraints if c.item is None or c.item in items]
        asked, empty = self._asked(self._without_kinds(said), constraints)
        if not asked and not empty:  # the kind's words may be what it asks about ("how many tea bags?")
            asked, empty = self._asked(said, constraints)
        asked.sort(key=self.profile.constraints.index)
        if not asked and not empty:
            if self.rules.general.search(said):
                return self._general()
            return self._turn(NOT_UNDERSTOOD, [], understood=False)
        sentences = [about_item(say(c, stable_index(f"{said.lower()}\0{c.key}", 3)) if c.sayable else
                                UNSAYABLE.format(name=c.name), self.profile.items, c.item)
                     for c in asked]
        if empty:
            sentences.append(NO_PREFERENCE.format(topic=listing(empty)))
        return self._turn(" ".join(sentences), asked)

    def _asked(self, question: str, constraints: list[Constraint]) -> tuple[list[Constraint], list[str]]:
        """The constraints the question asks about (by topic, or by a detail's own name), and the topics it asks
        about that hold none of them."""
        asked: list[Constraint] = []
        empty: list[str] = []
        for topic in self.rules.topics:
            if topic.pattern.search(question):
                held = [c for c in constraints if topic.holds(c)]
                asked += [c for c in held if c not in asked]
                if not held:
                    empty.append(topic.name)
        asked += [c for c in constraints if c not in asked and self._named(c, question)]
        return asked, empty

    def _items(self, question: str) -> set[int | None]:
        """The items a question is about: those it names as the shopper does ("the ring", "the second case"), else
        those it names by kind or place, else all."""
        count = len(self.profile.items)
        everything: set[int | None] = set(range(count))
        if count < 2:
            return everything
        lowered = question.lower()
        labels = [item_label(self.profile.items, index) for index in range(count)]
        labelled = _longest({index for index in range(count) if _said(labels[index], lowered)}, labels)
        if len(labelled) > 1:  # "the belt styles for the men": a detail's name holds another item's kind
            lowered = self._without_aspects(lowered)
            labelled = {index for index in labelled if _said(labels[index], lowered)}
        if labelled:
            return set(labelled)
        kinds = [item.split(" ", 1)[1].lower() for item in self.profile.items]
        named = _longest({index for index, kind in enumerate(kinds) if _said(kind, lowered)}, kinds)
        for word, place in PLACES.items():
            if _said(word, lowered) and place < count:
                index = place % count
                same = [i for i in named if kinds[i] == kinds[index]]
                named = (named - set(same)) | {index} if same or not named else named | {index}
        return set(named) if named else everything

    def _without_kinds(self, question: str) -> str:
        """The question without the items' kinds ("cash on delivery for the tea bags" asks nothing of a detail named
        "tea bags")."""
        lowered = question.lower()
        for kind in sorted({item.split(" ", 1)[1].lower() for item in self.profile.items}, key=len, reverse=True):
            lowered = re.sub(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", " ", lowered)
        return lowered

    def _without_aspects(self, question: str) -> str:
        """The question without the profile's names of details ("belt styles"), whose words may also be an item's
        kind ("the belt"): what is left names the item asked about."""
        lowered = question.lower()
        for name in {c.name.lower() for c in self.profile.constraints if c.kind in ("option", "attribute")}:
            lowered = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", lowered)
        return lowered

    def _named(self, constraint: Constraint, question: str) -> bool:
        """Whether the question names an attribute or option in the profile's own words: the key's head word, not
        counting words that name nothing alone ("type") or an item's kind ("tablet" of display_size_tablet)."""
        if constraint.kind not in ("option", "attribute"):
            return False
        kinds = {word for item in self.profile.items for word in item.lower().split()[1:]}
        every = [w for w in re.split(r"[_ ]+", constraint.key.split(".")[2].lower()) if w]
        words = [w for w in every if w not in self.rules.generic_words] or every  # a key "type" is named "type"
        words = [w for w in words if w not in kinds] or words
        return bool(words) and re.search(rf"(?<![\w-]){re.escape(words[-1])}s?(?![\w-])", question,
                                         re.IGNORECASE) is not None

    def _general(self) -> UserAnswer:
        """A general question: the aspects still held back, never their values."""
        values = [c.value.lower() for c in self.profile.held]
        every = list(dict.fromkeys(_aspect(c, self.rules) for c in self.profile.held))
        aspects = [aspect for aspect in every if not any(_said(value, aspect.lower()) for value in values)]
        if len(aspects) < len(every):  # an aspect whose name says a value ("waterproof") is not named
            aspects.append("a few other details")
        text = ASK_ME.format(topics=listing(aspects)) if aspects else NOTHING_ELSE
        return self._turn(text, [])

    def _turn(self, text: str, asked: list[Constraint], *, understood: bool = True) -> UserAnswer:
        keys = [c.key for c in asked]
        disclosed = [c.key for c in asked if c.sayable]
        return UserAnswer(text, UserTurn(user=RULES_NAME, disclosed=disclosed, asked_about=keys,
                                         understood=understood))


def _longest(found: set[int], names: list[str]) -> set[int]:
    """The items found without those whose name is part of another found one's ("the dog" in "the dog shampoo")."""
    return {index for index in found if not any(names[index] != names[other] and names[index] in names[other]
                                                for other in found)}


def _said(words: str, question: str) -> bool:
    """The words stand in the (lower-cased) question as whole words."""
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", question) is not None


def _aspect(constraint: Constraint, rules: Rules) -> str:
    """What a held constraint is about, as a general answer names it (its topic's name, else its own)."""
    for topic in rules.topics:
        if topic.holds(constraint):
            return topic.name
    return f"the {constraint.name}"


class RulesUserSource:
    """`--user rules`: one RulesUser per episode."""

    name = RULES_NAME

    def parameters(self) -> dict[str, Any]:
        return {"user_rules_sha256": rules().digest}

    def for_profile(self, profile: Any) -> RulesUser:
        return RulesUser(profile)


RULES = RulesUserSource()
register_user_source(RULES_NAME, lambda: RULES)
