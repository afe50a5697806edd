"""The scripted baselines' conversational form (issue 31): when an episode offers `ask_user`, the heuristic asks the
shopper before it searches, then shops as it always does.

The opener of a conversational task names only the product kinds and a few constraints, so the heuristic first asks
about each kind of constraint — brand, colour and size; the price, budget and voucher; the services; for several
items, the shop — then a general question ("anything else?"), and about every further aspect the answer names. It
reads the opener and every answer through the shopper's own sentence forms
(benchmarks.shoppingbench.conversation.wording.read_answer, each sentence's item by its "For the ring:" lead),
writes what it learnt as an instruction in the generator's phrasing (worldgen.phrasing: the clauses its own
instruction reader reads back), and hands that to the unchanged heuristic script (worldgen.heuristic), with the
steps the questions took subtracted from its budget. Like the plain heuristic it reads nothing but the chat.

The oracle needs no conversational form (it reads the gold and never asks); `naive` never asks: it searches the
opener as it would any instruction.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from benchmarks.shoppingbench.conversation.profile import (
    KEY_NAMES,
    OPENERS,
    SHOP_OPENERS,
    VOUCHER_OPENERS,
    item_label,
)
from benchmarks.shoppingbench.conversation.wording import ASK_ME, read_answer
from benchmarks.shoppingbench.worldgen.heuristic import (
    MAX_STEPS,
    SAME_SHOP_VOUCHER,
    VOUCHER_SPLIT,
    Script,
    heuristic_script,
    read_instruction,
)
from benchmarks.shoppingbench.worldgen.phrasing import pair_clause, price_clause, sayable
from benchmarks.shoppingbench.worldgen.wording import SERVICE_PHRASES
from evaluators.models.base import ChatMessage, ToolSpec

ASK_USER = "ask_user"
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("details", "Which brand, colour and size would you like?"),
    ("money", "What price range or total budget do you have in mind, and do you have a voucher?"),
    ("services", "Do you need free shipping, cash on delivery, LazMall or a flash sale?"),
    ("shop", "Should everything come from the same shop?"),
    ("rest", "Is there anything else it should have?"),
)
"""The questions asked before searching, one per kind of constraint (the shop only with several items); the last,
general one is followed by one question about the aspects its answer names that no earlier question named."""
PRICE_WORDS = (("between", re.compile(r"between (?P<l>[\d.]+) and (?P<h>[\d.]+)")),
               ("less than", re.compile(r"at most (?P<h>[\d.]+)")),
               ("greater than", re.compile(r"at least (?P<l>[\d.]+)")))
SENTENCES = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")
"""Where a message's sentences part (as wording.read_answer splits them)."""
KEYS = {name: key for key, name in reversed(KEY_NAMES.items())}
"""A detail's name as the shopper says it → the catalog key (the first key named so: "colour" is color_family)."""


def offers_ask_user(messages: list[ChatMessage], tools: list[ToolSpec] | None) -> bool:
    """The episode lists `ask_user`: among the tools given natively, or named in the system prompt of the paper's
    text format (which lists the tools there)."""
    if tools is not None:
        return any(tool.name == ASK_USER for tool in tools)
    return any(m.role == "system" and ASK_USER in m.content for m in messages)


@dataclass
class Wanted:
    """What the shopper said about one item: its kind in words, and the details, services and price bound."""

    item: str
    """As the opener names it, with its article: "a polo shirt"."""
    pairs: dict[str, str] = field(default_factory=dict)
    services: list[str] = field(default_factory=list)
    price: dict[str, list[float | None]] | None = None


@dataclass
class Heard:
    """Everything the opener and the answers said."""

    items: list[Wanted]
    same_shop: bool = False
    budget: str = ""
    asked_aspects: list[str] = field(default_factory=list)
    """Aspects a general answer named (what is still held back)."""

    def take(self, text: str) -> None:
        """Fold one message (the opener's details, or an answer) into what is known."""
        named = tuple(w.item for w in self.items)
        labels = [item_label(named, i) for i in range(len(named))] if len(named) > 1 and all(
            " " in item for item in named) else []
        for sentence in SENTENCES.split(text.strip()):
            item = 0
            for index, label in enumerate(labels):
                if sentence.lower().startswith(f"for {label.lower()}:"):
                    item = index
            if match := ASK_ME_RE.search(sentence):
                self.asked_aspects += [a for a in re.split(r", | and ", match["topics"]) if a]
            for name, value in read_answer(sentence):
                self._fold(self.items[item], name, value)

    def _fold(self, item: Wanted, name: str, value: str) -> None:
        if name == "shop":
            self.same_shop = True
        elif name == "budget":
            self.budget = value
        elif name == "voucher":
            self.same_shop = self.same_shop or "same shop" in value
        elif name == "price":
            item.price = price_bound(value)
        elif value in SERVICE_PHRASES:
            if value not in item.services:
                item.services.append(value)
        else:
            item.pairs[KEYS.get(name, name.replace(" ", "_"))] = value

    def instruction(self) -> str:
        """What was learnt, as an instruction the heuristic reads: each item in the generator's clauses, listed by
        number when there are several ("from one shop" when one shop was asked for), the voucher's shop rule after
        it."""
        rng = random.Random(0)
        texts = [_item_text(item, rng) for item in self.items]
        if len(texts) == 1:
            body = texts[0] + "."
        else:
            body = ("From one shop: " if self.same_shop else "I need these: ") + "; ".join(
                f"({n}) {text}" for n, text in enumerate(texts, start=1)) + "."
        if self.budget:
            body += f"{VOUCHER_SPLIT} is {self.budget}." + (f" The voucher {SAME_SHOP_VOUCHER}." if self.same_shop
                                                            else "")
        return body


ASK_ME_RE = re.compile(re.escape(ASK_ME).replace(re.escape("{topics}"), "(?P<topics>.+?)") + "$")


def _item_text(item: Wanted, rng: random.Random) -> str:
    clauses = []
    words = [_kind(item.item)]
    for key, value in item.pairs.items():
        if key == "brand":
            words.insert(0, value)  # a brand names the product too: titles carry it where they lack the kind's word
        if sayable(key, value):
            clauses.append(pair_clause(key, value, rng, brand=value if key == "brand" else ""))
        elif key != "brand":
            words.append(value)  # not sayable in a clause: searched for, not checked
    clauses += [SERVICE_PHRASES[service][0] for service in item.services]
    if item.price is not None:
        (mode, (low, high)), = item.price.items()
        clauses.append(price_clause(item.price, float((high if mode == "less than" else low) or 0), rng))
    return " ".join(words) + (" " + ", ".join(clauses) if clauses else "")


def price_bound(value: str) -> dict[str, list[float | None]] | None:
    """A price bound in the profile's words ("at most 500 PHP") as the task's price constraint."""
    for mode, pattern in PRICE_WORDS:
        if match := pattern.search(value):
            found = match.groupdict()
            low = float(found["l"]) if found.get("l") else None
            high = float(found["h"]) if found.get("h") else None
            return {mode: [low if low is not None else (0 if mode == "less than" else None), high]}
    return None


def opener_items(opener: str) -> tuple[list[str], str]:
    """The products the opener names, each with its article ("a polo shirt", ...), and the rest of it (its stated
    details); one item, the whole first sentence, when the opener is not in the profile's forms."""
    first, *others = SENTENCES.split(opener.strip(), maxsplit=1)
    rest = others[0] if others else ""
    for template in (*SHOP_OPENERS, *VOUCHER_OPENERS, *OPENERS):
        pattern = re.escape(template.rstrip(".?"))
        for name, part in (("items", "(?P<items>.+?)"), ("count", r"\w+"), ("shop", "(?: from one shop)?")):
            pattern = pattern.replace(re.escape("{" + name + "}"), part)
        if match := re.fullmatch(pattern + r"[.?]?", first.strip()):
            return re.split(r", (?=(?:a|an|some) )| and (?=(?:a|an|some) )", match["items"]), rest
    return [first.strip().rstrip(".?")], rest


def _kind(item: str) -> str:
    """An item's kind without its article ("a polo shirt" → "polo shirt")."""
    return re.sub(r"^(?:a|an|some) ", "", item)


def asking_script(opener: str, max_steps: int = MAX_STEPS) -> Script:
    """The conversational heuristic's tool calls: the questions, then the heuristic's own script over what it
    learnt (a knowledge question, which the opener keeps whole, is shopped for at once)."""
    if read_instruction(opener).knowledge_question is not None:
        yield from heuristic_script(opener, max_steps)
        return
    kinds, rest = opener_items(opener)
    heard = Heard([Wanted(item) for item in kinds], same_shop="from one shop" in opener.split(".")[0])
    heard.take(rest)
    asked = 0
    said: list[str] = []
    for topic, question in QUESTIONS:
        if topic == "shop" and (len(kinds) < 2 or heard.same_shop):
            continue
        answer = yield ASK_USER, {"question": question}
        asked += 1
        said.append(question.lower())
        heard.take(_text(answer))
    follow = [a for a in heard.asked_aspects if not any(_bare(a) in question for question in said)]
    if follow:
        answer = yield ASK_USER, {"question": f"What about {' and '.join(dict.fromkeys(follow))}?"}
        asked += 1
        heard.take(_text(answer))
    yield from heuristic_script(heard.instruction(), max_steps - asked)


def _bare(aspect: str) -> str:
    """An aspect without its article ("the age range" → "age range"), to tell whether a question named it."""
    return re.sub(r"^(?:the|a|an) ", "", aspect.lower())


def _text(observation: Any) -> str:
    """An answer's text, whatever wraps it (a bare string, a JSON object or list of strings)."""
    if isinstance(observation, str):
        return observation
    if isinstance(observation, dict):
        return " ".join(_text(v) for v in observation.values())
    if isinstance(observation, list):
        return " ".join(_text(v) for v in observation)
    return "" if observation is None else str(observation)

