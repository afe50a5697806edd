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

from benchmarks.shoppingbench.conversation.profile import ORDINALS, Constraint, UserProfile, about_item
from benchmarks.shoppingbench.conversation.wording import (
    ASK_ME,
    NO_PREFERENCE,
    NOT_UNDERSTOOD,
    NOTHING_ELSE,
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
        asked: list[Constraint] = []
        empty: list[str] = []
        for topic in self.rules.topics:
            if topic.pattern.search(said):
                held = [c for c in constraints if topic.holds(c)]
                asked += [c for c in held if c not in asked]
                if not held:
                    empty.append(topic.name)
        asked += [c for c in constraints if c not in asked and self._named(c, said)]
        if not asked and not empty:
            if self.rules.general.search(said):
                return self._general()
            return self._turn(NOT_UNDERSTOOD, [], understood=False)
        sentences = [about_item(say(c, stable_index(f"{said.lower()}\0{c.key}", 3)), self.profile.items, c.item)
                     for c in sorted(asked, key=self.profile.constraints.index)]
        if empty:
            sentences.append(NO_PREFERENCE.format(topic=listing(empty)))
        return self._turn(" ".join(sentences), asked)

    def _items(self, question: str) -> set[int | None]:
        """The items a question is about: those it names by kind or place, else all."""
        count = len(self.profile.items)
        everything: set[int | None] = set(range(count))
        if count < 2:
            return everything
        lowered = question.lower()
        kinds = [item.split(" ", 1)[1].lower() for item in self.profile.items]
        named = {index for index, kind in enumerate(kinds) if re.search(rf"(?<![\w-]){re.escape(kind)}", lowered)}
        named = {index for index in named if not any(  # "pendant necklace" named, not also "necklace"
            kinds[index] != kinds[other] and kinds[index] in kinds[other] for other in named)}
        for word, place in PLACES.items():
            if re.search(rf"(?<![\w-]){word}(?![\w-])", lowered):
                index = place % count if place < count else None
                if index is not None:
                    same = [i for i in named if kinds[i] == kinds[index]]
                    named = (named - set(same)) | {index} if same or not named else named | {index}
        return set(named) if named else everything

    def _named(self, constraint: Constraint, question: str) -> bool:
        """Whether the question names an attribute or option in the profile's own words (the key's head word)."""
        if constraint.kind not in ("option", "attribute"):
            return False
        words = [w for w in constraint.key.split(".")[2].split("_") if w not in self.rules.generic_words]
        return bool(words) and re.search(rf"(?<![\w-]){re.escape(words[-1])}s?(?![\w-])", question,
                                         re.IGNORECASE) is not None

    def _general(self) -> UserAnswer:
        """A general question: the aspects still held back, never their values."""
        aspects = list(dict.fromkeys(_aspect(c, self.rules) for c in self.profile.held))
        text = ASK_ME.format(topics=listing(aspects)) if aspects else NOTHING_ELSE
        return self._turn(text, [])

    def _turn(self, text: str, asked: list[Constraint], *, understood: bool = True) -> UserAnswer:
        keys = [c.key for c in asked]
        return UserAnswer(text, UserTurn(user=RULES_NAME, disclosed=keys, asked_about=keys, understood=understood))


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
