"""The built-in question benchmarks' output scorers: the reference parsers and metrics of benchmarks/, plus the
embedding models they need (loaded only through evaluators.embeddings, and only when an item needs one).

Each is registered as its benchmark's `scorer` (benchmarks.registry) and has the signature of `OutputScorer`:
(items, outputs, prompting, options) → (per-item ItemScore, summary dict). `outputs` maps item id → raw model text
(IntentionQA CoT-SC: the list of samples; None: the call failed). The summary holds "overall" and "tasks" (task →
value) at least; evaluators.qa.QAScorer turns it into tables, JSON and metric rows.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from benchmarks import intentionqa, session_intent, shopping_mmlu
from benchmarks.intentionqa.schema import IntentionQAItem
from benchmarks.qa import ItemScore
from benchmarks.session_intent.schema import SessionIntentItem
from benchmarks.shopping_mmlu.metrics import texts_for_similarity
from benchmarks.shopping_mmlu.schema import MMLUItem
from evaluators.embeddings import embedder_name, load_embedder
from evaluators.scoring import ScoreOptions

Outputs = Mapping[str, Any]
Scored = tuple[dict[str, ItemScore], dict[str, Any]]

MULTILINGUAL_ENV = "SHOPBENCH_MULTILINGUAL_EMBEDDER"
"""Folder of paraphrase-multilingual-MiniLM-L12-v2 (the reference's model for multilingual generation tasks)."""


OutputScorer = Callable[[list[Any], Outputs, str, ScoreOptions], Scored]
"""A scorer takes its own benchmark's items (the registry resolves it by name, so the item type is Any here)."""


def score_mmlu(items: list[MMLUItem], outputs: Outputs, prompting: str, options: ScoreOptions) -> Scored:
    """Shopping MMLU: reference parsers and metrics; similarity metrics embed every text they need in one batch."""
    answered = {item.id: outputs[item.id] for item in items if outputs.get(item.id) is not None}
    needs = texts_for_similarity(items, answered)
    encoders: dict[str, Callable[[list[str]], np.ndarray]] = {}
    notes: dict[str, Any] = {}
    if "sent-transformer" in needs:
        encoders["sent-transformer"] = load_embedder(options.embedder).encode
        notes["sent-transformer"] = embedder_name(options.embedder)
    if "multilingual-sent-transformer" in needs:
        multilingual = options.extra.get("multilingual_embedder") or os.environ.get(MULTILINGUAL_ENV)
        encoders["multilingual-sent-transformer"] = load_embedder(multilingual).encode
        notes["multilingual-sent-transformer"] = (
            embedder_name(multilingual) if multilingual
            else f"{embedder_name(None)} — FALLBACK: no multilingual model given (set {MULTILINGUAL_ENV} to the "
            "paraphrase-multilingual-MiniLM-L12-v2 folder); scores differ from the reference"
        )
    tables = shopping_mmlu.embed_for_similarity(items, answered, encoders)
    by_id = {item.id: item for item in items}
    scores = {item_id: shopping_mmlu.score_item(by_id[item_id], output, tables) for item_id, output in answered.items()}
    summary = shopping_mmlu.aggregate(items, scores)
    summary["embedders"] = notes
    return scores, summary


def score_intentionqa(items: list[IntentionQAItem], outputs: Outputs, prompting: str, options: ScoreOptions) -> Scored:
    """IntentionQA: reference parsers; difficulty from product-pair embedding similarity (vectors cached on disk by
    the embedder, so rescoring does not re-embed 4,630 pairs)."""
    answered = [item for item in items if item.qid in outputs]
    similarity = intentionqa.pair_similarities(answered, load_embedder(options.embedder).encode)
    scores = {
        item.qid: intentionqa.score_item(item, outputs[item.qid], prompting, similarity[item.qid]) for item in answered
    }
    summary = intentionqa.aggregate(items, scores)
    summary["difficulty_method"] = intentionqa.DIFFICULTY_METHOD.format(model=embedder_name(options.embedder))
    return scores, summary


def score_session(items: list[SessionIntentItem], outputs: Outputs, prompting: str, options: ScoreOptions) -> Scored:
    """SessionIntentBench: binarised accuracy and macro-F1 per task."""
    scores = {
        item.id: session_intent.score_item(item, outputs[item.id], prompting)
        for item in items
        if outputs.get(item.id) is not None
    }
    return scores, session_intent.aggregate(items, scores)
