"""Stage III of ShoppingBench's instruction synthesis: a model rewrites a templated instruction in a shopper's words.

The paper (§"Intent-Grounded Instruction Generation", Stage III) has GPT-4.1 write the user queries from the
extracted product fields. shopbench generates the query from templates first (worldgen.tasks) and may then hand it to
any model to rewrite. A rewrite is kept only if it still states every constraint the template stated; otherwise the
template text stays. This module is the pure part: the prompt, the constraints a template states, and the check.

What a template states and the rewrite must keep (each found in the template first; a value the template does not
state is not demanded of the rewrite):
- every number (prices, sizes, voucher thresholds, discounts, caps, budgets), compared as numbers ("1,200" = 1200);
- every SKU option and attribute value of the targets;
- every service of the targets, in any usual wording ("free shipping", "ships free", "official store", "COD" ...);
- the direction of each price bound ("under", "above", "between" ...);
- for knowledge tasks, the capitalised names of the question (the facts an agent must look up).
And it must not reveal what the template hid: no product id, and for knowledge tasks not the answer attribute.

Paragraphs after the first (a voucher's rules) are kept verbatim: only the request is rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.shoppingbench.schema import ShoppingTask

SYSTEM_PROMPT = (
    "You rewrite online-shopping requests so they sound like a real shopper typing into a shopping assistant. "
    "Keep the meaning exactly: every number, size, colour, variant, attribute value, price bound and service the "
    "request states must still be stated, with the same values. Do not add new requirements, do not name a product "
    "id, and do not answer any question the request asks. Reply with the rewritten request only."
)

SERVICE_FORMS: dict[str, tuple[str, ...]] = {
    "official": (r"\bofficial\b", r"\blazmall\b", r"\bauthori[sz]ed (?:store|seller|shop|dealer)"),
    "freeShipping": (r"free ?shipping", r"complimentary shipping", r"\bships? (?:for )?free\b",
                     r"\bshipped (?:for )?free\b", r"free deliver(?:y|ed)", r"\bdeliver(?:s|ed)? (?:for )?free\b",
                     r"no shipping fee", r"without (?:a |any )?shipping fee"),
    "COD": (r"\bcod\b", r"cash[- ]on[- ]delivery", r"pay(?:able)? (?:on|upon|at) delivery",
            r"pay when (?:it|they) arrives?", r"pay for on delivery", r"pay (?:in cash )?at the door",
            r"pay (?:for it )?on arrival"),
    "flashsale": (r"flash ?sales?", r"flash deals?"),
}
"""The wordings that count as stating a service (regular expressions over lower-cased text)."""

PRICE_CUES: dict[str, tuple[str, ...]] = {
    "less than": (r"under", r"below", r"less than", r"at most", r"no more than", r"not more than", r"up to",
                  r"max(?:imum)?", r"cheaper than", r"within", r"not over", r"not exceeding", r"doesn't exceed",
                  r"does not exceed", r"lower than", r"or less", r"and (?:below|under|less)", r"tops", r"<=?", r"≤"),
    "greater than": (r"above", r"over", r"more than", r"at least", r"min(?:imum)?", r"greater than", r"higher than",
                     r"starting (?:at|from)", r"upwards of", r"or more", r"exceeding", r"and (?:up|upwards|above|over)",
                     r"plus", r">=?", r"≥"),
    "between": (r"between", r"from", r"range", r"to", r"and", r"-", r"–"),
}
"""Words that put a price bound in one direction, looked for within a few words of the bound's number."""

LIST_MARKER = re.compile(r"\(\d{1,2}\)|^\s*\d{1,2}[.)]\s", re.MULTILINE)
"""Enumeration marks ("(1)", "2. "): not values, a rewrite may enumerate otherwise."""
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?")
CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:of|the|de|la|von|van|and|&)?\s*[A-Z][\w'’-]*)*")
SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“(]\s*|\n\s*)$")
COMMON_CAPITALS = frozenset({"I", "I'm", "I'd", "I've", "I'll", "Can", "Could", "Please", "Show", "Find", "Looking",
                             "Which", "What", "Who", "Where", "When", "How", "Help", "My", "Is", "Are", "Do", "Any"})


def normalise(text: str) -> str:
    """Lower-cased, punctuation to spaces, "250 g" → "250g": so a value is found however it is spaced."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"[^\w.%'/+-]+", " ", text)
    text = re.sub(r"\.(?!\d)", " ", text)  # a full stop is not part of a value; a decimal point is
    text = re.sub(r"(\d) (?=[a-z%])", r"\1", text)
    text = re.sub(r"\s+", " ", text).strip()
    return f" {text} "


def numbers_in(text: str) -> list[float]:
    """Every number the text writes, thousands separators folded ("1,200.50" → 1200.5)."""
    return [float(whole.replace(",", "") + (f".{frac}" if frac else "")) for whole, frac in NUMBER.findall(text)]


def _has_number(text: str, value: float) -> bool:
    return any(abs(n - value) < 0.005 for n in numbers_in(text))


def _has_value(text: str, value: str) -> bool:
    needle = normalise(value).strip()
    return bool(needle) and f" {needle} " in normalise(text)


def _has_service(text: str, service: str) -> bool:
    lowered = text.lower()
    return any(re.search(pattern, lowered) for pattern in SERVICE_FORMS.get(service, (re.escape(service.lower()),)))


def _number_pattern(value: float) -> str:
    whole = int(value)
    grouped = f"{whole:,}".replace(",", ",?")
    return grouped + (r"(?:\.0+)?" if value == whole else re.escape(f"{value:g}"[len(str(whole)):]))


def _has_cue(text: str, direction: str, value: float) -> bool:
    """A word of the price direction within about five words before or two after the bound's number."""
    lowered = text.lower()
    cues = "|".join(rf"\b{cue}\b" if cue[0].isalpha() else cue for cue in PRICE_CUES[direction])
    number = _number_pattern(value)
    before = rf"(?:{cues})\W+(?:\S+\W+){{0,5}}?(?:php|₱|p|pesos?)?\s*{number}(?!\d)"
    after = rf"(?<![\d.]){number}\s*(?:php|pesos?)?\W+(?:\S+\W+){{0,2}}?(?:{cues})"
    return bool(re.search(before, lowered) or re.search(after, lowered))


@dataclass(frozen=True)
class Constraint:
    """One thing a template states that a rewrite must keep."""

    kind: str
    """number | value | service | price-direction | name."""
    value: str
    detail: float | str | None = None

    def stated_in(self, text: str) -> bool:
        if self.kind == "number":
            return _has_number(text, float(self.value))
        if self.kind == "service":
            return _has_service(text, self.value)
        if self.kind == "price-direction":
            assert isinstance(self.detail, float)
            return _has_cue(text, self.value, self.detail)
        if self.kind == "name":
            return self.value.lower() in text.lower()
        return _has_value(text, self.value)

    def __str__(self) -> str:
        if self.kind == "price-direction":
            return f"price {self.value} {self.detail:g}"
        return f"{self.kind} {self.value!r}"


def candidate_constraints(task: ShoppingTask) -> list[Constraint]:
    """The constraints a task's gold data holds (whether or not its instruction states them)."""
    found: list[Constraint] = []
    for target in task.targets:
        for option in target.sku_options or []:
            found += [Constraint("value", v) for v in option.values() if v]
        for attribute in target.attributes or []:
            found += [Constraint("value", v) for values in attribute.values() for v in values if v]
        found += [Constraint("service", s) for s in target.service or []]
        for bound in target.price or []:
            for direction, (low, high) in bound.items():
                for number in (low, high):
                    if number:
                        found.append(Constraint("price-direction", direction, float(number)))
    return list(dict.fromkeys(found))


def _names(text: str) -> list[str]:
    names = []
    for match in CAPITALISED.finditer(text):
        name = match.group(0).strip()
        if name in COMMON_CAPITALS:
            continue
        if SENTENCE_START.search(text[: match.start()]) and " " not in name:
            continue  # a single capitalised word opening a sentence is just a sentence start
        names.append(name)
    return names


def stated_constraints(task: ShoppingTask, template: str) -> tuple[list[Constraint], list[Constraint]]:
    """(what the template states and a rewrite must keep, gold constraints not found in the template's words)."""
    values = numbers_in(LIST_MARKER.sub(" ", template))
    stated: list[Constraint] = [Constraint("number", f"{n:g}") for n in dict.fromkeys(values)]
    unchecked: list[Constraint] = []
    for constraint in candidate_constraints(task):
        (stated if constraint.stated_in(template) else unchecked).append(constraint)
    if task.intent == "web":
        stated += [Constraint("name", name) for name in dict.fromkeys(_names(request_part(template)))]
    return list(dict.fromkeys(stated)), unchecked


def forbidden_strings(task: ShoppingTask, template: str) -> list[str]:
    """What a rewrite must not say because the template does not: product ids, a knowledge task's answer."""
    hidden = [t.product_id for t in task.targets]
    if task.knowledge_attribute and task.knowledge_attribute.lower() not in template.lower():
        hidden.append(task.knowledge_attribute)
    return hidden


def request_part(query: str) -> str:
    """The first paragraph: what is rewritten (a voucher's rules after it stay as they are)."""
    return query.split("\n\n", 1)[0]


def with_request(query: str, request: str) -> str:
    """The query with its first paragraph replaced."""
    parts = query.split("\n\n", 1)
    return request if len(parts) == 1 else f"{request}\n\n{parts[1]}"


def rewrite_prompt(task: ShoppingTask, template: str | None = None) -> str:
    """The user message asking for a rewrite of the request paragraph (no gold beyond what the template says)."""
    template = task.query if template is None else template
    stated, _ = stated_constraints(task, template)
    keep = list(dict.fromkeys(c.value for c in stated if c.kind != "price-direction"))
    kind = {"product": "one product", "shop": "several products from one shop", "voucher": "products within a budget",
            "web": "a product, after a question the shopper asks"}[task.intent]
    lines = [f"Rewrite this shopping request for {kind} in a shopper's own natural words.",
             "Vary the wording and sentence order; you may describe the product by what it is and what it is for.",
             f"Request: {request_part(template)}"]
    if keep:
        lines.append(f"These values must appear unchanged: {', '.join(keep)}.")
    lines.append("Rewritten request:")
    return "\n".join(lines)


def clean_rewrite(text: str) -> str:
    """The rewrite without a label, quotes or a trailing explanation (first paragraph only)."""
    text = text.strip()
    text = re.sub(r"^(?:rewritten(?: request)?|request|here is[^:\n]*)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = text.split("\n\n", 1)[0].strip()
    if len(text) >= 2 and text[0] in "\"'“" and text[-1] in "\"'”":
        text = text[1:-1].strip()
    return text


@dataclass
class RewriteCheck:
    """The verdict on one rewrite."""

    accepted: bool
    query: str
    """The query to keep: the rewrite when accepted, else the template."""
    missing: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    """Gold constraints the template itself does not state in words this module recognises."""
    reason: str = ""


def check_rewrite(task: ShoppingTask, template: str, rewritten_request: str, *,
                  max_growth: float = 3.0) -> RewriteCheck:
    """Accept the rewrite only if it keeps every stated constraint, leaks nothing and stays a plausible length."""
    stated, unchecked = stated_constraints(task, template)
    request = clean_rewrite(rewritten_request)
    query = with_request(template, request)
    missing = [str(c) for c in stated if not c.stated_in(query)]
    missing += [f"the number {n:g}" for n in sorted(stated_numbers(request_part(template)) - stated_numbers(request))]
    leaked = [s for s in forbidden_strings(task, template) if s and s.lower() in query.lower()]
    reason = ""
    if not request:
        reason = "empty rewrite"
    elif len(request) > max_growth * max(len(request_part(template)), 40):
        reason = "rewrite much longer than the request"
    elif normalise(request) == normalise(request_part(template)):
        reason = "rewrite equals the template"
    elif missing:
        reason = "lost " + "; ".join(missing)
    elif leaked:
        reason = "reveals " + "; ".join(leaked)
    accepted = not reason
    return RewriteCheck(accepted=accepted, query=query if accepted else template, missing=missing, leaked=leaked,
                        unchecked=[str(c) for c in unchecked], reason=reason)


_LIST_MARKER = re.compile(r"\(\d+\)")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def stated_numbers(text: str) -> set[float]:
    """Every number a request states (list markers like "(1)" aside): whatever the wording, none may be lost — a
    guard under the per-constraint checks, which only know the wordings the templates use."""
    return {float(n.replace(",", "")) for n in _NUMBER.findall(_LIST_MARKER.sub(" ", text))}


def keeps_constraints(task: ShoppingTask, template: str, query: str) -> list[str]:
    """The stated constraints of `template` that `query` does not state (empty when it keeps them all)."""
    stated, _ = stated_constraints(task, template)
    return [str(c) for c in stated if not c.stated_in(query)]


def summarise(checks: Sequence[RewriteCheck]) -> dict[str, int]:
    return {"rewritten": sum(c.accepted for c in checks), "kept_template": sum(not c.accepted for c in checks)}
