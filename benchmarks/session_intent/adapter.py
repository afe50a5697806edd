"""SessionIntentBench as a `QuestionBenchmark`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.errors import BadInput
from benchmarks.qa import Demonstrations, QuestionPrompt, Scored, ScoringOptions, check_prompting
from benchmarks.registry import register_question
from benchmarks.session_intent.baselines import majority_answers, random_answer
from benchmarks.session_intent.loader import load_items
from benchmarks.session_intent.metrics import aggregate, score_item
from benchmarks.session_intent.prompts import PROMPTINGS, SHOTS, build_prompt
from benchmarks.session_intent.schema import SessionIntentItem


@register_question(
    primary_metric="accuracy",
    help="SessionIntentBench, intention shift in shopping sessions",
    default_items="the bundled samples, not the benchmark",
    overall="mean of the task accuracies (as the reference)",
)
class SessionIntent:
    name = "session-intent"
    default_task_set = "samples"
    promptings = PROMPTINGS
    item_schema = SessionIntentItem

    def load(self, path: Path | str | None = None) -> list[SessionIntentItem]:
        return load_items(path)

    def item_id(self, item: SessionIntentItem) -> str:
        return item.id

    def task_of(self, item: SessionIntentItem) -> str:
        return item.task_name

    def runnable(self, item: SessionIntentItem) -> bool:
        return True

    def demonstrations(self, items: list[SessionIntentItem], prompting: str, shots: int) -> Demonstrations | None:
        """None: the paper's five demonstrations per task are written into its 5-shot prompt (Tables 9–12), made-up
        sessions that are no item of the bundled samples, so every item is served in every protocol."""
        return None

    def prompter(
        self, items: list[SessionIntentItem], prompting: str, shots: int, seed: int = 0
    ) -> Callable[[SessionIntentItem], QuestionPrompt]:
        """The paper's fixed prompts; its few-shot protocol is exactly the five demonstrations of Tables 9–12."""
        check_prompting(self, prompting)
        if prompting == "few-shot" and shots not in (0, SHOTS):
            raise BadInput(f"session-intent few-shot uses the paper's {SHOTS} demonstrations; --shots {shots}")
        return partial(build_prompt, prompting=prompting)

    def random_answer(self, item: SessionIntentItem, rng: random.Random, prompting: str) -> str:
        return random_answer(item, rng)

    def majority_answers(self, items: list[SessionIntentItem], prompting: str) -> dict[str, str]:
        return majority_answers(items)

    def score(self, items: list[SessionIntentItem], outputs: Mapping[str, Any], prompting: str,
              options: ScoringOptions) -> Scored:
        """Binarised accuracy and macro-F1 per task."""
        scores = {item.id: score_item(item, outputs[item.id], prompting) for item in items
                  if outputs.get(item.id) is not None}
        return scores, aggregate(items, scores)
