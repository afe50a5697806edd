"""The correct answer of a question item, read from the benchmark's own items (the registry's loader, the same file
the server serves), never from the server: for the play app's end screen and a study's qualification and attention
checks, asked only after the player's answer is recorded."""

from __future__ import annotations

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


def gold_answers(benchmark: str, task_set: str | None) -> dict[str, str]:
    """item id → target, for every item of `benchmark`'s items `task_set` (the bundled items, or a file path as the
    server labels it) that has one."""
    from benchmarks.qa import items_path
    from benchmarks.registry import question_benchmark

    questions = question_benchmark(benchmark)
    found = {}
    for item in questions.load(items_path(questions, task_set)):
        gold = gold_of(item)
        if gold is not None:
            found[questions.item_id(item)] = gold
    return found


def correct_answer(benchmark: str, task_set: str | None, task_id: str) -> str | None:
    """The target of item `task_id`; None when the item or its target cannot be found."""
    return gold_answers(benchmark, task_set).get(task_id)


def matches_gold(answer: str | None, gold: str) -> bool:
    """An answer as a person types it (an option key in either case, spaces around) against the item's target."""
    return answer is not None and answer.strip().upper() == gold.strip().upper()
