"""The correct answer of a question item, for the end screen only: read from the benchmark's own items (the registry's
loader, the same file the server serves), never from the server, and asked for only after the episode has ended, so
nothing the player sees while answering comes from the ground truth."""

from __future__ import annotations

import html
from typing import Any

GOLD_FIELDS = ("gold", "gold_ind", "answer", "output_field", "label")
"""Where the registered item schemas keep their target (SessionIntentBench `gold`, IntentionQA `gold_ind`, Shopping
MMLU `output_field`); the first one an item has is its correct answer."""


def gold_of(item: Any) -> str | None:
    """An item's target as text (lists joined by ", "), or None when its schema has none of GOLD_FIELDS."""
    for name in GOLD_FIELDS:
        value = getattr(item, name, None)
        if value is None and isinstance(item, dict):
            value = item.get(name)
        if value is not None:
            return ", ".join(str(part) for part in value) if isinstance(value, list | tuple) else str(value)
    return None


def correct_answer(benchmark: str, task_set: str | None, task_id: str) -> str | None:
    """The target of item `task_id` of `benchmark`'s items `task_set` (the bundled items, or a file path as the
    server labels it); None when the item or its target cannot be found."""
    from benchmarks.qa import items_path
    from benchmarks.registry import question_benchmark

    questions = question_benchmark(benchmark)
    for item in questions.load(items_path(questions, task_set)):
        if questions.item_id(item) == task_id:
            return gold_of(item)
    return None


def with_option(answer: str, options: list[tuple[str, str]]) -> str:
    """`1 · 32 ounces` when the answer is an option's key, else the answer as it is."""
    text = dict(options).get(answer.strip().upper()) or dict(options).get(answer.strip())
    return f"{answer} · {html.unescape(text)}" if text else answer
