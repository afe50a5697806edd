"""Random and majority answers for Shopping MMLU, written as raw text so they go through the reference parsers.

Random answers see only what a model sees (the question and how many candidates it lists). Majority answers are a
label-skew probe computed from the gold answers of each task, not a model: multiple choice answers the most common
gold option, retrieval the three most common gold candidates, ranking orders candidates by mean gold relevance,
NER the most common gold entity, generation the most common reference.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict

from benchmarks.shopping_mmlu.prompts import render_answer
from benchmarks.shopping_mmlu.schema import MMLUItem

_NUMBERED = re.compile(r"^\s*\(?(\d+)[.:)]", re.MULTILINE)


def listed_numbers(text: str) -> list[int]:
    """The option/candidate numbers written at the start of the question's lines ("0. …", "3: …", "(2) …")."""
    return sorted({int(n) for n in _NUMBERED.findall(text)})


def random_answer(item: MMLUItem, rng: random.Random) -> str:
    numbers = listed_numbers(item.input_field)
    if item.task_type == "multiple-choice":
        return str(rng.choice(numbers or [0, 1, 2, 3]))
    if item.task_type == "retrieval":
        pool = numbers or list(range(1, 16))
        return ",".join(str(n) for n in rng.sample(pool, min(3, len(pool))))
    if item.task_type == "ranking":
        order = list(range(1, len(item.output_field) + 1))
        rng.shuffle(order)
        return ",".join(str(n) for n in order)
    words = item.input_field.split()
    if item.task_type == "named_entity_recognition":
        return rng.choice(words) if words else ""
    lines = [line for line in item.input_field.splitlines() if line.strip()]
    return rng.choice(lines) if lines else ""


def majority_answers(items: list[MMLUItem]) -> dict[str, str]:
    """Item id → the task's majority answer."""
    by_task: dict[str, list[MMLUItem]] = defaultdict(list)
    for item in items:
        by_task[item.task_name].append(item)
    answers: dict[str, str] = {}
    for group in by_task.values():
        answer = _majority(group)
        answers.update({item.id: answer for item in group})
    return answers


def _majority(group: list[MMLUItem]) -> str:
    kind = group[0].task_type
    if kind == "multiple-choice":
        return str(Counter(item.output_field for item in group).most_common(1)[0][0])
    if kind == "retrieval":
        counts = Counter(n for item in group for n in item.output_field)
        return ",".join(str(n) for n, _ in counts.most_common(3))
    if kind == "ranking":
        width = max(len(item.output_field) for item in group)
        totals = [sum(item.output_field[i] for item in group if i < len(item.output_field)) for i in range(width)]
        return ",".join(str(i + 1) for i in sorted(range(width), key=lambda i: -totals[i]))
    if kind == "named_entity_recognition":
        counts = Counter(entity for item in group for entity in item.output_field)
        return counts.most_common(1)[0][0] if counts else ""
    return Counter(render_answer(item) for item in group).most_common(1)[0][0]
