"""Signs that an instruction was assembled by a program, counted the same way over generated and official tasks.

A reader told the version-2 default world's instructions from the official ones by these (issue 30):
- `label`: a label-style fragment, "roast: light roast", "where the colour is red";
- `lowercased_brand`: a brand the catalog writes with capitals said in lower case ("with brand kojie san");
- `doubled_word`: the same noun twice within three words ("will ring rings", "heart necklace necklaces");
- `repeated_constraint`: one target's detail said twice ("red ball jersey ... in red");
- `context_mismatch`: a context sentence (wording.CONTEXTS) before products it does not fit;
- `article`: "a" before a vowel sound or "an" before a consonant one, or a singular count noun without an article
  after "buy", "need", "find me"... ("I want to buy laptop backpack").
`count_signs` gives, per sign, how many tasks show it at least once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from benchmarks.shoppingbench.schema import Product, ShoppingTask
from benchmarks.shoppingbench.worldgen.phrasing import ENGLISH, STOPWORDS, article, lead_words
from benchmarks.shoppingbench.worldgen.reading import target_pairs
from benchmarks.shoppingbench.worldgen.sentences import context_group
from benchmarks.shoppingbench.worldgen.wording import CONTEXTS, MASS_NOUNS

SIGNS = ("label", "lowercased_brand", "doubled_word", "repeated_constraint", "context_mismatch", "article")

LABEL = re.compile(r"(?<![\w'])[a-z_]+(?: [a-z_]+)?: [a-z0-9]|\bwhere the [a-z ]{1,20} is\b")
LIST_WORDS = frozenset(("items", "products", "things", "following"))
"""A colon after these introduces a list ("these items: a red jersey; ..."), which is English, not a label."""
ARTICLE = re.compile(r"(?<![\w'])(a|an|A|An) ([A-Za-z][\w-]*)")
BARE_AFTER = re.compile(r"(?=\b(?:buy|need|want|find me|looking for|shopping for|purchase|show me) "
                        r"((?:[a-z][\w'-]* ){0,3}?[a-z][\w-]*)(?=[,.?!;]|\s*$| (?:"
                        + "|".join(sorted(set(lead_words()) | {"to", "which", "so", "or"})) + r")\b))")
"""After a verb of wanting, a noun phrase up to the next clause (overlapping: "want to buy laptop backpack")."""
DETERMINERS = frozenset(("a", "an", "the", "some", "any", "my", "our", "your", "his", "her", "their", "this", "that",
                         "these", "those", "one", "two", "three", "four", "each", "every", "another", "something",
                         "everything", "anything", "all", "both", "it", "them", "to", "more", "several", "few"))
WORD = re.compile(r"[a-z][a-z'-]+")
CONTEXT_GROUPS: dict[str, set[str]] = {}
for _group, _sentences in CONTEXTS.items():
    for _sentence in _sentences:
        CONTEXT_GROUPS.setdefault(_sentence, set()).add(_group)


def request_of(task: ShoppingTask) -> str:
    """The instruction without a voucher's rules (fixed official wording, not phrasing)."""
    return task.query.split("\n\nMy budget")[0]


def _singular(word: str) -> str:
    return ENGLISH.singular_noun(word) or word


def has_label(text: str) -> bool:
    return any(match.group(0).split(":")[0].split(" ")[-1] not in LIST_WORDS for match in LABEL.finditer(text))


def has_lowercased_brand(text: str, brands: Iterable[str]) -> bool:
    """A brand with capitals in the catalog appears only in lower case."""
    for brand in brands:
        brand = brand.strip()
        if not brand or brand == brand.lower() or len(brand) < 3:
            continue
        lower = re.search(r"(?<![\w])" + re.escape(brand.lower()) + r"(?![\w])", text)
        if lower and brand not in text:
            return True
    return False


def has_doubled_word(text: str) -> bool:
    words = [_singular(w) for w in WORD.findall(text.lower()) if w not in STOPWORDS]
    return any(len(w) > 2 and w in words[i + 1:i + 3] for i, w in enumerate(words))


def has_repeated_constraint(task: ShoppingTask, text: str) -> bool:
    """A value of one target's details occurs twice, and no other target of the task has it."""
    per_target = [{v for _, v in target_pairs(t)} for t in task.targets]
    for position, values in enumerate(per_target):
        others = set().union(*(v for i, v in enumerate(per_target) if i != position))
        for value in values - others:
            if len(value) > 2 and value.isascii() and not value.isdigit() and len(re.findall(
                    r"(?<![\w])" + re.escape(value) + r"(?![\w])", text, re.IGNORECASE)) > 1:
                return True
    return False


def has_context_mismatch(text: str, categories: Iterable[str]) -> bool:
    groups = {context_group(c) for c in categories}
    return any(sentence in text and not groups <= fits for sentence, fits in CONTEXT_GROUPS.items())


def has_article_error(text: str) -> bool:
    for match in ARTICLE.finditer(text):
        said, word = match.group(1).lower(), match.group(2)
        if word.lower() in DETERMINERS or word[0].isdigit():
            continue
        if article(word).split(" ")[0] != said:
            return True
    for match in BARE_AFTER.finditer(text):
        words = match.group(1).split()
        head = words[-1]
        if words[0] in DETERMINERS or head in MASS_NOUNS or ENGLISH.singular_noun(head) or head.endswith("s"):
            continue
        if head.isalpha() and len(head) > 2:
            return True
    return False


def task_signs(task: ShoppingTask, products: Mapping[str, Product]) -> set[str]:
    """The signs one task shows; `products` are its targets' records where known (brands, categories)."""
    text = request_of(task)
    known = [products[t.product_id] for t in task.targets if t.product_id in products]
    if task.knowledge_product is not None:
        known.append(task.knowledge_product)
    brands = [p.brand for p in known] or [_cased(value, t.title[0] if t.title else "")
                                          for t in task.targets for key, value in target_pairs(t) if key == "brand"]
    found = set()
    if has_label(text):
        found.add("label")
    if has_lowercased_brand(text, brands):
        found.add("lowercased_brand")
    if has_doubled_word(text):
        found.add("doubled_word")
    if has_repeated_constraint(task, text):
        found.add("repeated_constraint")
    if has_context_mismatch(text, [p.category for p in known]):
        found.add("context_mismatch")
    if has_article_error(text):
        found.add("article")
    return found


def _cased(value: str, title: str) -> str:
    """A brand as the title writes it (the official records' catalog form), else as given."""
    match = re.search(re.escape(value), title, re.IGNORECASE)
    return match.group(0) if match else value


def count_signs(tasks: Iterable[ShoppingTask], products: Mapping[str, Product]) -> tuple[Counter[str], int]:
    """Per sign, how many tasks show it; and how many tasks were read."""
    counts: Counter[str] = Counter({sign: 0 for sign in SIGNS})
    total = 0
    for task in tasks:
        total += 1
        counts.update(task_signs(task, products))
    return counts, total
