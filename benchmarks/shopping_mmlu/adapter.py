"""Shopping MMLU as a `QuestionBenchmark` (runner, scorer and MCP suite use it)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from benchmarks.qa import Demonstrations, QuestionPrompt, Scored, ScoringOptions, check_prompting
from benchmarks.registry import register_question
from benchmarks.shopping_mmlu.baselines import majority_answers, random_answer
from benchmarks.shopping_mmlu.loader import load_items
from benchmarks.shopping_mmlu.metrics import Encode, aggregate, embed_for_similarity, score_item, texts_for_similarity
from benchmarks.shopping_mmlu.prompts import (
    DEMONSTRATION_RULE,
    PROMPTINGS,
    ShotPool,
    build_prompt,
    demonstration_pool,
)
from benchmarks.shopping_mmlu.schema import MMLUItem

MULTILINGUAL_ENV = "SHOPBENCH_MULTILINGUAL_EMBEDDER"
"""Folder of paraphrase-multilingual-MiniLM-L12-v2 (the reference's model for multilingual generation tasks)."""


@register_question(
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

    def score(self, items: list[MMLUItem], outputs: Mapping[str, Any], prompting: str,
              options: ScoringOptions) -> Scored:
        """Reference parsers and metrics; similarity metrics embed every text they need in one batch (the
        multilingual tasks with the model `multilingual_embedder` or $SHOPBENCH_MULTILINGUAL_EMBEDDER names)."""
        answered = {item.id: outputs[item.id] for item in items if outputs.get(item.id) is not None}
        needs = texts_for_similarity(items, answered)
        encoders: dict[str, Encode] = {}
        notes: dict[str, Any] = {}
        if "sent-transformer" in needs:
            encoder = options.encoder(options.embedder)
            encoders["sent-transformer"], notes["sent-transformer"] = encoder.encode, encoder.name
        if "multilingual-sent-transformer" in needs:
            multilingual = options.extra.get("multilingual_embedder") or os.environ.get(MULTILINGUAL_ENV)
            encoder = options.encoder(multilingual)
            encoders["multilingual-sent-transformer"] = encoder.encode
            notes["multilingual-sent-transformer"] = (
                encoder.name if multilingual
                else f"{encoder.name} — FALLBACK: no multilingual model given (set {MULTILINGUAL_ENV} to the "
                "paraphrase-multilingual-MiniLM-L12-v2 folder); scores differ from the reference"
            )
        tables = embed_for_similarity(items, answered, encoders)
        by_id = {item.id: item for item in items}
        scores = {item_id: score_item(by_id[item_id], output, tables) for item_id, output in answered.items()}
        summary = aggregate(items, scores)
        summary["embedders"] = notes
        return scores, summary
