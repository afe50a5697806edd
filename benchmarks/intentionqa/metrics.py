"""IntentionQA accuracy: overall, per task, per relation and per difficulty, with failed calls left out (SPEC §3).

Difficulty: the paper labels an item by the similarity of its two co-bought products (easy ≥ 0.85, medium
[0.6, 0.85), hard < 0.6), but the released data carries no difficulty field. shopbench recomputes it as the cosine
similarity of the sentence embeddings of `item_a_name` and `item_b_name`; the caller supplies the embedding function
and the report names the model (`DIFFICULTY_METHOD`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from benchmarks.intentionqa.parsers import is_failed_call, parse, samples_of
from benchmarks.intentionqa.schema import IntentionQAItem
from benchmarks.qa import ItemScore, mean

if TYPE_CHECKING:
    import numpy as np  # an annotation only: `shopbench --help` loads this module and not numpy

EASY_FROM = 0.85
HARD_BELOW = 0.60
LEVELS = ("easy", "medium", "hard")
EXCLUDED_FEWER_OPTIONS = "fewer than 4 options: the reference skips the item"
EXCLUDED_FAILED_CALL = "failed call: left out of the denominator, counted in the invalid rate"
DIFFICULTY_METHOD = (
    "cosine similarity of the sentence embeddings of item_a_name and item_b_name ({model}); "
    f"easy >= {EASY_FROM}, medium [{HARD_BELOW}, {EASY_FROM}), hard < {HARD_BELOW} (the paper's thresholds; "
    "the released data has no difficulty field)"
)


def difficulty_of(similarity: float) -> str:
    if similarity < HARD_BELOW:
        return "hard"
    if similarity < EASY_FROM:
        return "medium"
    return "easy"


def pair_similarities(items: list[IntentionQAItem], encode: Callable[[list[str]], np.ndarray]) -> dict[str, float]:
    """qid → cosine similarity of the item's two product names (embeddings L2-normalised by `encode`)."""
    names = sorted({name for item in items for name in (item.item_a_name, item.item_b_name)})
    vectors = dict(zip(names, encode(names), strict=True))
    return {item.qid: float(vectors[item.item_a_name] @ vectors[item.item_b_name]) for item in items}


def score_item(
    item: IntentionQAItem, output: str | list[str] | None, prompting: str, similarity: float | None = None
) -> ItemScore:
    """One item: excluded when the reference skips it (fewer than 4 options) or the call failed (None or "Error"),
    else 1/0 on the parsed letter. An excluded item carries no score and its `excluded_reason` says why."""
    extra: dict[str, Any] = {"relation": item.relation, "gold": item.gold_ind}
    if similarity is not None:
        extra.update(similarity=round(similarity, 4), difficulty=difficulty_of(similarity))
    if not item.scorable:
        extra["excluded_reason"] = EXCLUDED_FEWER_OPTIONS
        return ItemScore(score=None, parsed=None, task=item.task, excluded=True, extra=extra)
    if output is None or _failed_call(output, prompting):
        extra["excluded_reason"] = EXCLUDED_FAILED_CALL
        return ItemScore(score=None, parsed=None, task=item.task, excluded=True, extra=extra)
    parsed = parse(output, prompting)
    return ItemScore(score=float(parsed == item.gold_ind), parsed=parsed, task=item.task, extra=extra)


def _failed_call(output: str | list[str], prompting: str) -> bool:
    """CoT-SC: every sample failed; otherwise the one output (the first sample, as `parse` reads it) failed."""
    if prompting == "cot-sc":
        return all(is_failed_call(o) for o in samples_of(output))
    return is_failed_call(output if isinstance(output, str) else output[0])


def _valid_score(result: ItemScore) -> float:
    """The score of an item that was not excluded (score_item gives every such item one)."""
    if result.score is None:
        raise ValueError(f"a valid IntentionQA item has no score: {result!r}")
    return result.score


def aggregate(items: list[IntentionQAItem], scores: Mapping[str, ItemScore]) -> dict[str, Any]:
    """Accuracy over valid items: overall, per task, per relation and per difficulty; the invalid rate; skips."""
    answered = [item for item in items if item.qid in scores]
    scored = [item for item in answered if item.scorable]
    valid = [item for item in scored if not scores[item.qid].excluded]
    groups: dict[str, dict[str, list[float]]] = {"tasks": defaultdict(list), "relations": defaultdict(list)}
    by_difficulty: dict[str, list[float]] = defaultdict(list)
    for item in valid:
        result = scores[item.qid]
        score = _valid_score(result)
        groups["tasks"][item.task].append(score)
        groups["relations"][item.relation].append(score)
        if "difficulty" in result.extra:
            by_difficulty[result.extra["difficulty"]].append(score)
    invalid = sum(1 for item in scored if scores[item.qid].excluded)
    return {
        "tasks": {task: mean(values) for task, values in sorted(groups["tasks"].items())},
        "relations": {rel: mean(values) for rel, values in sorted(groups["relations"].items())},
        "difficulty": {level: mean(values) for level in LEVELS if (values := by_difficulty[level])},
        "difficulty_counts": {level: len(by_difficulty[level]) for level in LEVELS},
        "skills": {},
        "overall": mean([_valid_score(scores[item.qid]) for item in valid]),
        "valid": len(valid),
        "invalid": invalid,
        "invalid_rate": invalid / len(answered) if answered else 0.0,
        "skipped_fewer_than_4_options": len(answered) - len(scored),
    }
