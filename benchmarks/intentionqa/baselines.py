"""Random and majority answers for IntentionQA (RANDOM is the paper's 25% row)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from benchmarks.intentionqa.schema import IntentionQAItem


def random_answer(item: IntentionQAItem, rng: random.Random) -> str:
    """A letter drawn uniformly from the item's options."""
    return rng.choice(list(item.options))


def majority_answers(items: list[IntentionQAItem]) -> dict[str, str]:
    """qid → the most common gold letter of the item's task (a label-skew probe, not a model)."""
    gold: dict[str, Counter[str]] = defaultdict(Counter)
    for item in items:
        gold[item.task][item.gold_ind] += 1
    return {item.qid: gold[item.task].most_common(1)[0][0] for item in items}
