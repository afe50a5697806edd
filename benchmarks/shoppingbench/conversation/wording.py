"""A constraint in a shopper's words (`say`), the user's fixed replies, and reading an answer back (`read_answer`).

Every sentence is one of a few templates per constraint kind with the value kept exactly as the catalog writes it
("The colour should be as the picture."), so an answer is natural enough for a model to read and exact enough for a
scripted player to read back: `read_answer` inverts the templates. Variants are chosen by the caller with
`stable_index` (a hash, never Python's salted `hash()`), so the same question gets the same words in every process.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Protocol


class Sayable(Protocol):
    """What `say` needs of a constraint (profile.Constraint)."""

    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...


SERVICE_NAMES: dict[str, str] = {"COD": "cash on delivery", "freeShipping": "free shipping",
                                 "official": "LazMall", "flashsale": "a flash sale"}
"""Each service flag as a shopper names it (a service constraint's name)."""

TEMPLATES: dict[str, tuple[str, ...]] = {
    "detail": ("The {name} should be {value}.", "I'd like {value} for the {name}.", "I want the {name} to be {value}."),
    "price": ("The price should be {value}.", "I'd like to pay {value}.", "I want it priced {value}."),
    "service": ("It has to come with {name}.", "I want it with {name}.", "It needs {name}."),
    "shop": ("Everything should come from {value}.", "I want them all from {value}.", "I'd buy them all in {value}."),
    "budget": ("My budget is {value}.", "I can spend {value} in total.", "My total budget is {value}."),
    "voucher": ("I have a voucher: {value}.", "About my voucher: {value}.", "There's a voucher: {value}."),
}
"""Sentences per constraint form ({name} and {value} as the Constraint holds them). Each starts with fixed words, so
an item's lead ("For the ring: ...") can go before it."""
FORMS: dict[str, str] = {"option": "detail", "attribute": "detail", "price": "price", "service": "service",
                         "shop": "shop", "budget": "budget", "voucher": "voucher"}

NO_PREFERENCE = "I don't have a preference about {topic}."
"""The answer about something the shopper holds no constraint on ({topic}: "the colour")."""
NOT_UNDERSTOOD = ("Sorry, I'm not sure what you're asking. Could you ask me about one thing at a time, like the "
                  "colour, size, brand, price or delivery?")
"""The answer to a question the user cannot map to anything a shopper decides."""
UNSAYABLE = "I couldn't tell you the exact {name}."
"""The answer about a constraint whose value a shopper would not know to say (profile.Constraint.sayable)."""
NOTHING_ELSE = "No, that's everything I care about."
"""The answer to a general question ("anything else?") when nothing is held back."""
ASK_ME = "There are a few more things I care about: ask me about {topics}."
"""The answer to a general question while constraints are held back: which aspects, never their values."""


def stable_index(text: str, count: int) -> int:
    """A number below `count` decided by `text` alone, the same in every process and on every machine."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") % count


def say(constraint: Sayable, variant: int) -> str:
    """One constraint as a shopper says it; `variant` picks among the form's templates (any int)."""
    templates = TEMPLATES[FORMS[constraint.kind]]
    return templates[variant % len(templates)].format(name=constraint.name, value=constraint.value)


def listing(words: list[str]) -> str:
    """"a, b and c"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def read_answer(text: str) -> list[tuple[str, str]]:
    """The (name, value) pairs an answer states, in order, read back through the templates (a service's value is its
    catalog flag, e.g. ("cash on delivery", "COD")); sentences that state none are skipped."""
    flags = {name.lower(): flag for flag, name in SERVICE_NAMES.items()}
    pairs: list[tuple[str, str]] = []
    for sentence in re.split(r"(?<=[.?!])\s+(?=[A-Z])", text.strip()):
        sentence = re.sub(r"^For the [^:]+: ", "", sentence)
        for form, pattern in _patterns():
            match = pattern.fullmatch(sentence)
            if match is None:
                continue
            found = match.groupdict()
            if form == "service":
                name = found["name"]
                pairs.append((name, flags.get(name.lower(), name)))
            else:
                pairs.append((found.get("name") or form, found["value"]))
            break
    return pairs


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each template as a regular expression (its words case-insensitive, the first letter either case)."""
    compiled = []
    for form, templates in TEMPLATES.items():
        for template in templates:
            pattern = re.escape(template)
            pattern = pattern.replace(re.escape("{name}"), "(?P<name>.+?)").replace(re.escape("{value}"),
                                                                                    "(?P<value>.+?)")
            compiled.append((form, re.compile(pattern, re.IGNORECASE)))
    return tuple(compiled)
