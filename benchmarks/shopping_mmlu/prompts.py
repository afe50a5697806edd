"""Shopping MMLU prompts: the reference system prompt plus the item's own text, with optional demonstrations.

Zero-shot is the reference protocol. For k-shot (the paper's 1- and 5-shot study) the demonstrations are other items
of the same task, drawn with a seed from the item's id so a run is reproducible, each written as its question
followed by its gold answer in the form the parser reads.
"""

from __future__ import annotations

import random
from collections import defaultdict

from benchmarks.qa import QuestionPrompt
from benchmarks.shopping_mmlu.schema import MAX_NEW_TOKENS, SYSTEM_PROMPT, MMLUItem

PROMPTINGS = ("zero-shot", "few-shot")


def render_answer(item: MMLUItem) -> str:
    """The gold answer as a model should write it (ranking: candidates by descending relevance, 1-based)."""
    target = item.output_field
    if item.task_type == "multiple-choice":
        return str(target)
    if item.task_type == "retrieval":
        return ",".join(str(x) for x in target)
    if item.task_type == "ranking":
        order = sorted(range(len(target)), key=lambda i: -target[i])
        return ",".join(str(i + 1) for i in order)
    if item.task_type == "named_entity_recognition":
        return ", ".join(target)
    return target if isinstance(target, str) else target[0]


class ShotPool:
    """Demonstration candidates grouped by task, so drawing shots for 20,000 items stays cheap."""

    def __init__(self, items: list[MMLUItem]) -> None:
        self.by_task: dict[str, list[MMLUItem]] = defaultdict(list)
        for item in items:
            self.by_task[item.task_name].append(item)

    def draw(self, item: MMLUItem, k: int, seed: int = 0) -> list[MMLUItem]:
        """k other items of the same task (fewer if the task has fewer), fixed for a given item and seed."""
        candidates = [other for other in self.by_task.get(item.task_name, []) if other.id != item.id]
        rng = random.Random(f"{seed}:{item.task_name}:{item.id}")
        return rng.sample(candidates, min(k, len(candidates)))


def build_prompt(item: MMLUItem, shots: list[MMLUItem] | None = None) -> QuestionPrompt:
    """System prompt + (demonstrations) + the item's input_field; greedy, with the task type's token budget."""
    demos = "".join(f"{shot.input_field}{render_answer(shot)}\n\n" for shot in shots or [])
    return QuestionPrompt(
        system=SYSTEM_PROMPT,
        user=demos + item.input_field,
        max_tokens=MAX_NEW_TOKENS[item.task_type],
        temperature=0.0,
    )
