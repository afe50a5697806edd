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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.errors import BadInput
from benchmarks.shoppingbench.conversation.profile import (
    ORDINALS,
    Constraint,
    UserProfile,
    about_item,
    distinct_facts,
    item_label,
)
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
PLACES = tuple((re.compile(rf"(?<![\w-]){word}(?![\w-])"), place) for word, place in
               [*((word, index) for index, word in enumerate(ORDINALS)), ("1st", 0), ("2nd", 1), ("3rd", 2),
                ("4th", 3), ("last", -1)])
"""Words that name an item by its place ("the second one"), and the place."""


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
    """The question rules, loaded once per process; a file that cannot be read as rules is a ValueError in one line
    naming it and what is wrong."""
    text = path.read_text(encoding="utf-8")
    try:
        data: dict[str, Any] = tomllib.loads(text)
        topics = tuple(
            Topic(name=entry["name"], pattern=_words(entry["patterns"]),
                  keys=tuple(re.compile(key, re.IGNORECASE) for key in entry.get("keys", ())),
                  kinds=frozenset(entry.get("kinds", ())), services=frozenset(entry.get("services", ())))
            for entry in data["topic"])
        return Rules(topics, _words(data["general"]), frozenset(data["generic_key_words"]),
                     hashlib.sha256(text.encode("utf-8")).hexdigest())
    except tomllib.TOMLDecodeError as error:
        raise BadInput(f"{path}: not valid TOML ({error})") from None
    except KeyError as error:
        raise BadInput(f"{path}: a topic or the file lacks {error.args[0]!r}") from None
    except re.error as error:
        raise BadInput(f"{path}: a pattern is not a regular expression ({error})") from None


@dataclass
class RulesUser:
    """The user of one episode, answering from its profile by the rules. What does not depend on the question (each
    item's and detail's words, which topics hold which constraint, the general answer) is worked out once here."""

    profile: UserProfile
    rules: Rules = field(default_factory=rules)

    def __post_init__(self) -> None:
        profile, count = self.profile, len(self.profile.items)
        # How the items are named: as the shopper does ("the second case"), by kind, after a preposition ("... for
        # the movement"), and by the words only one item's kind has ("sunscreen" of "sunscreen lotion").
        self._labels = [item_label(profile.items, index) for index in range(count)]
        self._kinds = [item.split(" ", 1)[1].lower() for item in profile.items]
        self._label_patterns = [_whole(label) for label in self._labels]
        self._kind_patterns = [_whole(kind) for kind in self._kinds]
        self._asked_for = [re.compile(rf"(?<![\w-])(?:for|about|of|on|regarding) {re.escape(label)}(?![\w-])",
                                      re.IGNORECASE) for label in self._labels]
        shared = Counter(word for kind in set(self._kinds) for word in set(kind.split()))
        topical = _topical_words(profile, self.rules)
        self._kind_words = [[_whole(word, plural=True) for word in kind.split()
                             if len(word) > 3 and shared[word] == 1 and not topical(word)] for kind in self._kinds]
        self._kinds_out = _any_of(self._kinds)
        self._names_out = _any_of([c.name.lower() for c in profile.constraints if c.kind in ("option", "attribute")])
        # How a detail is asked about besides its topic: by its key's head word, or by its very value ("Do you want
        # it in beige?": the shopper confirms what it is).
        kind_words = {word for kind in self._kinds for word in kind.split()}
        self._heads = {c.key: _whole(head, plural=True) for c in profile.constraints
                       if (head := _head_word(c, self.rules.generic_words, kind_words))}
        self._values = {c.key: _whole(c.value) for c in profile.constraints
                        if c.kind in ("option", "attribute") and c.sayable and len(c.value) > 2}
        self._holds = {topic.name: [c for c in profile.constraints if topic.holds(c)] for topic in self.rules.topics}
        self._general = _general_answer(profile, self.rules)

    def answer(self, question: str) -> UserAnswer:
        """The answer to one question: text for the agent, and the turn recorded with the step."""
        said = " ".join(question.split())
        lowered = said.lower()
        items = self._items(lowered)
        asked, empty = self._asked(self._kinds_out.sub(" ", lowered) if self._kinds_out else lowered, items)
        if not asked and not empty:  # the kind's words may be what it asks about ("how many tea bags?")
            asked, empty = self._asked(lowered, items)
        if not asked and not empty:
            if self.rules.general.search(said):
                return self._turn(self._general, [])
            return self._turn(NOT_UNDERSTOOD, [], understood=False)
        asked.sort(key=self.profile.constraints.index)
        sentences = [about_item(say(c, stable_index(f"{lowered}\0{c.key}", 3)) if c.sayable else
                                UNSAYABLE.format(name=c.name), self.profile.items, c.item)
                     for c in distinct_facts(asked)]
        if empty:
            sentences.append(NO_PREFERENCE.format(topic=listing(empty)))
        return self._turn(" ".join(sentences), asked)

    def _asked(self, question: str, items: set[int]) -> tuple[list[Constraint], list[str]]:
        """The constraints of these items (and the task-wide ones) the question asks about — by topic, by a detail's
        own name, or by its very value — and the topics it asks about that hold none of them."""
        asked: list[Constraint] = []
        empty: list[str] = []
        for topic in self.rules.topics:
            if topic.pattern.search(question):
                held = [c for c in self._holds[topic.name] if c.item is None or c.item in items]
                asked += [c for c in held if c not in asked]
                if not held:
                    empty.append(topic.name)
        asked += [c for c in self.profile.constraints if (c.item is None or c.item in items) and c not in asked
                  and any(c.key in found and found[c.key].search(question) for found in (self._heads, self._values))]
        return asked, empty

    def _items(self, question: str) -> set[int]:
        """The items a (lower-cased) question is about: those it names as the shopper does ("the ring", "the second
        case"), else those it names by kind or place, else by a word only its kind has, else all."""
        count = len(self.profile.items)
        if count < 2:
            return set(range(count))
        labelled = _longest({i for i in range(count) if self._label_patterns[i].search(question)}, self._labels)
        if len(labelled) > 1 and self._names_out:  # "the belt styles for the men": a detail's name holds a kind
            stripped = self._names_out.sub(" ", question)
            labelled = {i for i in labelled if self._label_patterns[i].search(stripped)} or labelled
        if len(labelled) > 1:  # "the watch dial size ... for the movement"
            labelled = {i for i in labelled if self._asked_for[i].search(question)} or labelled
        if labelled:
            return labelled
        named = _longest({i for i in range(count) if self._kind_patterns[i].search(question)}, self._kinds)
        for pattern, place in PLACES:
            if place < count and pattern.search(question):
                index = place % count
                same = [i for i in named if self._kinds[i] == self._kinds[index]]
                named = (named - set(same)) | {index} if same or not named else named | {index}
        if not named:  # "the sunscreen" for "a sunscreen lotion"
            named = {i for i in range(count) if any(word.search(question) for word in self._kind_words[i])}
        return named or set(range(count))

    def _turn(self, text: str, asked: list[Constraint], *, understood: bool = True) -> UserAnswer:
        return UserAnswer(text, UserTurn(user=RULES_NAME, disclosed=[c.key for c in asked if c.sayable],
                                         asked_about=[c.key for c in asked], understood=understood))


def _whole(words: str, *, plural: bool = False) -> re.Pattern[str]:
    """The words as whole words (and their plural in "s"), case-insensitively."""
    return re.compile(rf"(?<![\w-]){re.escape(words)}{'s?' if plural else ''}(?![\w-])", re.IGNORECASE)


def _any_of(phrases: list[str]) -> re.Pattern[str] | None:
    """Any of the phrases as whole words, the longest first; None for none."""
    phrases = sorted({p for p in phrases if p}, key=len, reverse=True)
    if not phrases:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, phrases)) + r")(?![\w-])", re.IGNORECASE)


def _head_word(constraint: Constraint, generic: frozenset[str], kind_words: set[str]) -> str | None:
    """How a question names a detail in the profile's own words: its key's last word that names something alone
    (not "type", not an item's kind as "tablet" of display_size_tablet, unless nothing else is left)."""
    if constraint.kind not in ("option", "attribute"):
        return None
    every = [w for w in re.split(r"[_ ]+", constraint.key.split(".")[2].lower()) if w]
    words = [w for w in every if w not in generic] or every  # a key "type" is named "type"
    words = [w for w in words if w not in kind_words] or words
    return words[-1] if words else None


def _topical_words(profile: UserProfile, rules: Rules) -> Callable[[str], bool]:
    """Whether a word of an item's kind is what a question asks about rather than which item: a topic's word ("size"
    of "an official size ball") or a word of a detail's name ("power" of max_power beside "a power bank"). Such a
    word never narrows a question to the item whose kind has it."""
    names = {word for c in profile.constraints for word in c.name.lower().split()}
    return lambda word: word in names or any(topic.pattern.search(word) for topic in rules.topics)


def _general_answer(profile: UserProfile, rules: Rules) -> str:
    """The answer to a general question: the aspects still held back, never their values (an aspect whose name
    says a held value, as "waterproof" does, is left to "a few other details")."""
    values = [_whole(c.value) for c in profile.held if c.value]
    every = list(dict.fromkeys(_aspect(c, rules) for c in profile.held))
    aspects = [aspect for aspect in every if not any(value.search(aspect) for value in values)]
    if len(aspects) < len(every):
        aspects.append("a few other details")
    return ASK_ME.format(topics=listing(aspects)) if aspects else NOTHING_ELSE


def _longest(found: set[int], names: list[str]) -> set[int]:
    """The items found without those whose name is part of another found one's ("the dog" in "the dog shampoo")."""
    return {index for index in found if not any(names[index] != names[other] and names[index] in names[other]
                                                for other in found)}


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
