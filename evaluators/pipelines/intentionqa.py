"""IntentionQA construction with sentence embeddings: `shopbench generate intentionqa` (paper §3.2–3.4).

Product similarity is the cosine of the embeddings of two product names (all-MiniLM-L6-v2 from its PyPI package by
default, through evaluators.results.embeddings); the paper embedded ASER contexts of the products, which cannot be
rebuilt here, so the absolute similarities differ from the paper's while the windows and rules are its own. The
selection itself is benchmarks.intentionqa.construction. Items go to an append-only JSONL file keyed by question id,
so a killed build resumes where it stopped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.intentionqa.construction import (
    INTENTION_WINDOW,
    MIN_TYPICALITY,
    PRODUCT_WINDOW,
    BuiltItem,
    CoBuyAssertion,
    IntentionMode,
    Products,
    Skipped,
    assertion_id,
    build_task1,
    build_task2,
    intention_of,
    keep_typical,
)
from benchmarks.jsonl import read_models
from evaluators.pipelines._common import GenerationProgress
from evaluators.pipelines.journal import Journal

Encoder = Callable[[list[str]], np.ndarray]
"""Texts → L2-normalised embeddings, one row per text."""


@dataclass
class IntentionQABuild:
    """What a build did: items per task and difficulty, assertions filtered out, questions with too few distractors."""

    out: Path
    assertions: int
    typical: int
    written: dict[str, int] = field(default_factory=dict)
    resumed: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    difficulty: dict[str, Counter[str]] = field(default_factory=dict)
    embedder: str = ""


def embedder_encoder(model: str | None = None) -> tuple[Encoder, str]:
    from evaluators.results.embeddings import load_embedder

    embedder = load_embedder(model)
    return embedder.encode, embedder.name


def rows_of(vectors: np.ndarray) -> Callable[[int], np.ndarray]:
    """Cosine rows of unit vectors, computed on demand (no n × n matrix is held)."""
    return lambda index: vectors @ vectors[index]


def build_intentionqa(assertions_path: Path, out: Path, *, encode: Encoder, embedder: str = "", seed: int = 0,
                      min_typicality: float = MIN_TYPICALITY, intention_similarity: IntentionMode = "products",
                      tasks: tuple[str, ...] = ("task1", "task2"), resume: bool = True, progress: bool = True,
                      ) -> IntentionQABuild:
    """Read co-buy assertions, build both tasks' items into `out` (JSONL), skipping questions already there."""
    assertions = read_models(assertions_path, CoBuyAssertion)
    keep = keep_typical(assertions, min_typicality)
    report = IntentionQABuild(out=Path(out), assertions=len(assertions), typical=len(keep), embedder=embedder)
    products = Products.of(assertions)
    product_rows = rows_of(np.asarray(encode(products.names), dtype=np.float32))
    intention_rows = None
    if intention_similarity == "text":
        intention_rows = rows_of(np.asarray(encode([intention_of(assertions[j].assertion) for j in keep]),
                                            dtype=np.float32))
    with Journal(Path(out), key=_qid, resume=resume) as journal:
        report.resumed = len(journal)
        todo = {task: [j for j in keep if f"{task}:{assertion_id(assertions[j], j)}" not in journal] for task in tasks}
        total = len(keep) * len(tasks)
        with GenerationProgress("intentionqa items", total, total - sum(map(len, todo.values())),
                                enabled=progress) as bar:
            for task in tasks:
                if task == "task1":
                    built = build_task1(assertions, products, product_rows, keep, seed=seed,
                                        intention_rows=intention_rows, window=INTENTION_WINDOW, only=todo[task])
                else:
                    built = build_task2(assertions, products, product_rows, keep, seed=seed, window=PRODUCT_WINDOW,
                                        only=todo[task])
                for result in built:
                    if isinstance(result, Skipped):
                        report.skipped.append(result)
                    else:
                        journal.append(result)
                        report.written[task] = report.written.get(task, 0) + 1
                    bar.advance(task)
        for record in journal.records.values():
            task = "task2" if record.get("distractors_product") is not None else "task1"
            report.difficulty.setdefault(task, Counter())[record["difficulty"]] += 1
    return report


def _qid(record: dict[str, Any]) -> str:
    return BuiltItem.model_validate(record).qid
