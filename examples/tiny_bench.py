"""A worked example of a new question benchmark (the tests import it): registering it here (one spec, and its
`score`) is all it takes for shopbench to run, serve, play and score it (tests/test_registry.py). Importing this module
registers it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from benchmarks.jsonl import read_models
from benchmarks.qa import ItemScore, QuestionPrompt, Scored, ScoringOptions, mean
from benchmarks.registry import register_question


class TinyItem(BaseModel):
    id: str
    task: str
    question: str
    answer: str


ITEMS = [
    TinyItem(id="colour:1", task="colour", question="What colour is a ripe banana?", answer="yellow"),
    TinyItem(id="colour:2", task="colour", question="What colour is fresh grass?", answer="green"),
    TinyItem(id="colour:3", task="colour", question="What colour is a lemon?", answer="yellow"),
    TinyItem(id="count:1", task="count", question="How many wheels has a bicycle?", answer="2"),
]


@register_question(primary_metric="accuracy",
                   help="a tiny test benchmark, registered in tests/ only", default_items="four built-in items",
                   aggregation="pooled", overall="accuracy over the four tiny items")
class TinyBench:
    name = "tiny-bench"
    default_task_set = "builtin"
    promptings = ("zero-shot",)
    item_schema = TinyItem

    def load(self, path: Path | str | None = None) -> list[TinyItem]:
        return list(ITEMS) if path is None else read_models(Path(path), TinyItem)

    def item_id(self, item: TinyItem) -> str:
        return item.id

    def task_of(self, item: TinyItem) -> str:
        return item.task

    def runnable(self, item: TinyItem) -> bool:
        return True

    def demonstrations(self, items: list[TinyItem], prompting: str, shots: int) -> None:
        return None  # zero-shot only: no item is held out as a demonstration

    def prompter(self, items: list[TinyItem], prompting: str, shots: int,
                 seed: int = 0) -> Callable[[TinyItem], QuestionPrompt]:
        return lambda item: QuestionPrompt(system="Answer in one word.\n", user=f"{item.question}\nAnswer:",
                                           max_tokens=4)

    def random_answer(self, item: TinyItem, rng: random.Random, prompting: str) -> str:
        return rng.choice(["yellow", "green", "2"])

    def majority_answers(self, items: list[TinyItem], prompting: str) -> dict[str, str]:
        by_task: dict[str, Counter[str]] = {}
        for item in items:
            by_task.setdefault(item.task, Counter())[item.answer] += 1
        return {item.id: by_task[item.task].most_common(1)[0][0] for item in items}

    def score(self, items: list[TinyItem], outputs: Mapping[str, Any], prompting: str,
              options: ScoringOptions) -> Scored:
        """Exact match after trimming and lower-casing."""
        scores = {
            item.id: ItemScore(score=float(str(outputs[item.id]).strip().lower() == item.answer),
                               parsed=outputs[item.id], task=item.task)
            for item in items
            if outputs.get(item.id) is not None
        }
        tasks = {task: mean([s.score for s in scores.values() if s.task == task and s.score is not None])
                 for task in dict.fromkeys(item.task for item in items)}
        return scores, {"overall": mean([s.score for s in scores.values() if s.score is not None]), "tasks": tasks}
