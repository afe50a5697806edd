"""What an annotator is shown: a generated SessionIntentBench item as the benchmark's own zero-shot question (the
session, then the four-point scale yes / maybe yes / maybe no / no), the text fixed when the study is made
(`STUDY/items.jsonl`) so every rater reads the same words. Annotators' labels never go through a model's episode:
an item without gold cannot be scored, and the label is the result."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from benchmarks.jsonl import read_models
from benchmarks.registry import question_benchmark
from evaluators.studies.manifest import ITEMS, Study

ANNOTATED = "session-intent"
"""The benchmark whose generated items annotation studies label (the one pipeline that writes items with gold left
empty for annotators)."""


class LabelItem(BaseModel):
    item_id: str
    group: str
    """The item's task type (agreement is reported per type)."""
    text: str


def label_item(item: Any) -> LabelItem:
    questions = question_benchmark(ANNOTATED)
    prompt = questions.prompter([item], questions.promptings[0], 0)(item)
    return LabelItem(item_id=questions.item_id(item), group=questions.task_of(item), text=prompt.user)


def label_items(study: Study) -> dict[str, LabelItem]:
    return {item.item_id: item for item in read_models(study.folder / ITEMS, LabelItem)}


def scale_side(group: str, label: str | None) -> bool | None:
    """Which side of the four-point scale a label is on (True: yes / maybe yes, the benchmark's positive options);
    None for a label that is no option."""
    from benchmarks.session_intent.schema import LETTERS, POSITIVE

    task = int(group.removeprefix("task")) if group.removeprefix("task").isdigit() else 0
    if task not in LETTERS or label not in LETTERS[task]:
        return None
    return label in POSITIVE[task]
