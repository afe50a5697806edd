"""The paper's Random and Majority baselines (Table 2).

Random draws a letter uniformly from the task's options, which is how the paper's Task 4 random accuracy (54.38) comes
out above 50. Majority always answers the task's most frequent binary class over the items being evaluated, written
as that class's most frequent gold letter.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from benchmarks.session_intent.schema import LETTERS, POSITIVE, SessionIntentItem


def random_answer(item: SessionIntentItem, rng: random.Random) -> str:
    return rng.choice(LETTERS[item.task])


def majority_answers(items: list[SessionIntentItem]) -> dict[str, str]:
    by_task: dict[int, list[SessionIntentItem]] = defaultdict(list)
    for item in items:
        by_task[item.task].append(item)
    answers: dict[str, str] = {}
    for task, group in by_task.items():
        positive = sum(item.gold in POSITIVE[task] for item in group)
        majority_positive = positive * 2 >= len(group)
        letters = Counter(item.gold for item in group if (item.gold in POSITIVE[task]) == majority_positive)
        answer = letters.most_common(1)[0][0]
        answers.update({item.id: answer for item in group})
    return answers
