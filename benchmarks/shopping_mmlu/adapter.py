"""Shopping MMLU as a `QuestionBenchmark` (runner, scorer and MCP suite use it)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from benchmarks.qa import Demonstrations, QuestionPrompt, check_prompting
from benchmarks.registry import register_question
from benchmarks.shopping_mmlu.baselines import majority_answers, random_answer
from benchmarks.shopping_mmlu.loader import load_items
from benchmarks.shopping_mmlu.prompts import (
    DEMONSTRATION_RULE,
    PROMPTINGS,
    ShotPool,
    build_prompt,
    demonstration_pool,
)
from benchmarks.shopping_mmlu.schema import MMLUItem


@register_question(
    scorer="evaluators.qa.scorers:score_mmlu",
    primary_metric="score",
    help="Shopping MMLU, shopping knowledge and skill questions from KDD Cup 2024",
    default_items="the bundled samples, not the benchmark",
    overall="mean over tasks of each task's own metric (as the reference)",
    item_metrics=True,
)
class ShoppingMMLU:
    name = "shopping-mmlu"
    default_task_set = "samples"
    promptings = PROMPTINGS
    item_schema = MMLUItem

    def load(self, path: Path | str | None = None) -> list[MMLUItem]:
        return load_items(path)

    def item_id(self, item: MMLUItem) -> str:
        return item.id

    def task_of(self, item: MMLUItem) -> str:
        return item.task_name

    def runnable(self, item: MMLUItem) -> bool:
        return True

    def demonstrations(self, items: list[MMLUItem], prompting: str, shots: int) -> Demonstrations | None:
        """k-shot holds each task's demonstration pool out of the run; zero-shot serves every item."""
        check_prompting(self, prompting)
        if prompting == "zero-shot" or shots <= 0:
            return None
        return Demonstrations(rule=DEMONSTRATION_RULE, ids=[item.id for item in demonstration_pool(items)])

    def prompter(
        self, items: list[MMLUItem], prompting: str, shots: int, seed: int = 0
    ) -> Callable[[MMLUItem], QuestionPrompt]:
        """Zero-shot, or k-shot with demonstrations of the same task from `items`, the held-out pool (k = `shots`,
        the paper's 1 or 5)."""
        check_prompting(self, prompting)
        if prompting == "zero-shot" or shots <= 0:
            return build_prompt
        pool = ShotPool(items)
        return lambda item: build_prompt(item, pool.draw(item, shots, seed))

    def random_answer(self, item: MMLUItem, rng: random.Random, prompting: str) -> str:
        return random_answer(item, rng)

    def majority_answers(self, items: list[MMLUItem], prompting: str) -> dict[str, str]:
        return majority_answers(items)
