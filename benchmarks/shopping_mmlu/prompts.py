"""Shopping MMLU prompts: the reference system prompt plus the item's own text, with optional demonstrations.

Zero-shot is the reference protocol. For k-shot (the paper's 1- and 5-shot study) each task is split as the paper
splits it: a demonstration pool of up to 20 items that is never served, and the rest, which are. An item's
demonstrations are drawn from its task's pool with a seed from the item's id so a run is reproducible, each written
as its question followed by its gold answer in the form the parser reads; so no prompt shows a served item's answer.
"""

from __future__ import annotations

import random
from collections import defaultdict

from benchmarks.qa import QuestionPrompt
from benchmarks.shopping_mmlu.schema import MAX_NEW_TOKENS, SYSTEM_PROMPT, MMLUItem

PROMPTINGS = ("zero-shot", "few-shot")
DEMONSTRATION_POOL = 20
"""Items of each task held out as demonstrations: the paper's few-shot study keeps a 20-item training set per task
and tests on the rest (§4.5.3)."""
DEMONSTRATION_RULE = (
    f"per task, {DEMONSTRATION_POOL} items (half of a task under {2 * DEMONSTRATION_POOL}, rounded down) drawn with "
    "a seed fixed per task name; never served, the few-shot demonstrations come only from them"
)


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


def demonstration_pool(items: list[MMLUItem]) -> list[MMLUItem]:
    """The items held out as demonstrations (DEMONSTRATION_RULE), in the items' order.

    The pool depends on the items only, not on --shots or --seed, so 1-shot, 5-shot and every seed are scored on the
    same items, as in the paper; halving a small task keeps items of it to serve (the bundled samples' tasks hold
    1 to 5 items; a one-item task holds none out and is asked without demonstrations)."""
    by_task: dict[str, list[MMLUItem]] = defaultdict(list)
    for item in items:
        by_task[item.task_name].append(item)
    held: set[str] = set()
    for task, members in by_task.items():
        size = min(DEMONSTRATION_POOL, len(members) // 2)
        held.update(item.id for item in random.Random(f"demonstrations:{task}").sample(members, size))
    return [item for item in items if item.id in held]


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
