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


class RatingQuestion(BaseModel):
    """A judgement asked about an item (not the item's own question): its answer options are keys and words."""

    key: str
    text: str
    options: list[tuple[str, str]]


YES_NO = [("A", "yes"), ("B", "no")]
GOLD_RIGHT = RatingQuestion(key="gold-right", text="Is the marked answer right?", options=YES_NO)
OTHER_RIGHT = RatingQuestion(key="other-right", text="Is another option also right?", options=YES_NO)
STATES_TARGET = RatingQuestion(key="states-target", options=YES_NO,
                               text="Does the instruction state exactly what the target product needs?")
NATURAL = RatingQuestion(key="natural", text="How natural is the instruction, as a shopper would write it?",
                         options=[("1", "not at all"), ("2", "barely"), ("3", "somewhat"), ("4", "mostly"),
                                  ("5", "entirely")])


def rating_items(item_id: str, context: str, questions: list[RatingQuestion]) -> list[LabelItem]:
    """One unit to label per question: the item shown the same way, then the question and its options."""
    return [LabelItem(item_id=f"{item_id}#{question.key}", group=question.key,
                      text=f"{context}\n\n{question.text}\n" + "\n".join(f"{key}. {words}"
                                                                         for key, words in question.options))
            for question in questions]


def gold_quality_items(benchmark: str, item: Any, gold: str) -> list[LabelItem]:
    """IntentionQA's human evaluation of generated items (is the gold right, is a distractor also right) for any
    question benchmark: the item's question as a model is asked it, and the answer its gold marks."""
    questions = question_benchmark(benchmark)
    prompt = questions.prompter([item], questions.promptings[0], 0)(item)
    context = f"{prompt.user.strip()}\n\nThe marked answer: {gold}"
    return rating_items(questions.item_id(item), context, [GOLD_RIGHT, OTHER_RIGHT])


def instruction_items(task_id: str, instruction: str, targets: list[str]) -> list[LabelItem]:
    """A ShoppingBench instruction and the products it was written for: does it state what they need, how natural
    is it (1-5)."""
    shown = "\n".join(f"- {title}" for title in targets)
    return rating_items(task_id, f"The instruction:\n{instruction}\n\nThe target product(s):\n{shown}",
                        [STATES_TARGET, NATURAL])
