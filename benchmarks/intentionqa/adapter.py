"""IntentionQA as a `QuestionBenchmark`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.intentionqa.baselines import majority_answers, random_answer
from benchmarks.intentionqa.loader import load_items
from benchmarks.intentionqa.metrics import DIFFICULTY_METHOD, aggregate, pair_similarities, score_item
from benchmarks.intentionqa.prompts import PROMPTINGS, build_prompt
from benchmarks.intentionqa.schema import IntentionQAItem
from benchmarks.qa import Demonstrations, QuestionPrompt, Scored, ScoringOptions, check_prompting
from benchmarks.registry import register_question


@register_question(
    primary_metric="accuracy",
    help="IntentionQA, purchase-intention multiple choice",
    default_items="the bundled benchmark, both tasks",
    scores_failed_calls=True,
    aggregation="pooled",
    overall="accuracy over all valid items (as the reference)",
)
class IntentionQA:
    name = "intentionqa"
    default_task_set = "official"
    promptings = PROMPTINGS
    item_schema = IntentionQAItem

    def load(self, path: Path | str | None = None) -> list[IntentionQAItem]:
        return load_items(path)

    def item_id(self, item: IntentionQAItem) -> str:
        return item.qid

    def task_of(self, item: IntentionQAItem) -> str:
        return item.task

    def runnable(self, item: IntentionQAItem) -> bool:
        return item.scorable

    def demonstrations(self, items: list[IntentionQAItem], prompting: str, shots: int) -> Demonstrations | None:
        """None: the reference's protocols (zero-shot, CoT, CoT-SC) show no demonstrations."""
        return None

    def prompter(
        self, items: list[IntentionQAItem], prompting: str, shots: int, seed: int = 0
    ) -> Callable[[IntentionQAItem], QuestionPrompt]:
        check_prompting(self, prompting)
        return partial(build_prompt, prompting=prompting)

    def random_answer(self, item: IntentionQAItem, rng: random.Random, prompting: str) -> str:
        return _as_written(random_answer(item, rng), prompting)

    def majority_answers(self, items: list[IntentionQAItem], prompting: str) -> dict[str, str]:
        return {qid: _as_written(letter, prompting) for qid, letter in majority_answers(items).items()}

    def score(self, items: list[IntentionQAItem], outputs: Mapping[str, Any], prompting: str,
              options: ScoringOptions) -> Scored:
        """Reference parsers; difficulty from product-pair embedding similarity (vectors cached on disk by the
        embedder, so rescoring does not re-embed 4,630 pairs)."""
        answered = [item for item in items if item.qid in outputs]
        encoder = options.encoder(options.embedder)
        similarity = pair_similarities(answered, encoder.encode)
        scores = {item.qid: score_item(item, outputs[item.qid], prompting, similarity[item.qid]) for item in answered}
        summary = aggregate(items, scores)
        summary["difficulty_method"] = DIFFICULTY_METHOD.format(model=encoder.name)
        return scores, summary


def _as_written(letter: str, prompting: str) -> str:
    """CoT parsers read the letter after "STEP 2:", so a baseline's CoT answer says it there."""
    return letter if prompting == "zero-shot" else f"Step 1: (baseline)\nStep 2: {letter}"
