"""Scores for the TUI, from the evaluators' scorer registry (the same numbers `shopbench score` prints).

Scoring a run may load a world and an embedding model, so the apps call these functions from worker threads and
show the episode list first. Per-episode breakdowns are read from the scorer's per-task scores by duck typing
(`episode_id`, `success`, the reference's fields), so any benchmark whose scorer keeps per-episode scores shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BREAKDOWN_FIELDS = ("rule", "exact_id", "title", "price", "service", "sku_attrs", "shop", "budget", "kw")
"""Per-episode fields shown in a breakdown when the scorer has them (ShoppingBench: SPEC §1.4)."""

_FAILURE_WORDS = {
    "product missing": "missing product",
    "attribute mismatch": "wrong attribute",
    "knowledge error": "knowledge miss",
}


@dataclass(frozen=True)
class ProductVerdict:
    """How the product at one recommended position fared."""

    position: int
    product_id: str | None
    rule: float
    misses: list[str]


@dataclass(frozen=True)
class EpisodeScore:
    """One episode's score in the words a person reading a replay wants: did it pass, and which constraint failed."""

    success: bool
    value: float | None
    fields: dict[str, float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    """Failed constraints: missing product, wrong attribute, mixed shops, over budget, knowledge miss."""
    products: list[ProductVerdict] = field(default_factory=list)
    explanation: str = ""
    answer: str | None = None


def failure_labels(score: Any) -> list[str]:
    """The scorer's App. D categories in plainer words; "constraint not satisfied" says which constraint."""
    labels = []
    for category in getattr(score, "failures", None) or []:
        if category == "constraint not satisfied":
            if getattr(score, "shop", None) == 0:
                labels.append("mixed shops")
            if getattr(score, "budget", None) == 0:
                labels.append("over budget")
        else:
            labels.append(_FAILURE_WORDS.get(category, category))
    return labels


def episode_score(score: Any) -> EpisodeScore:
    """Adapt one per-episode score object of any scorer."""
    success = bool(getattr(score, "success", False))
    value = getattr(score, "rule", None)
    if value is None:
        value = getattr(score, "value", None)
    fields = {name: float(v) for name in BREAKDOWN_FIELDS if isinstance(v := getattr(score, name, None), int | float)}
    products = [
        ProductVerdict(m.position, m.recommended_id, float(m.rule), list(m.misses))
        for m in getattr(score, "matches", None) or []
    ]
    return EpisodeScore(
        success=success,
        value=None if value is None else float(value),
        fields=fields,
        failures=failure_labels(score),
        products=products,
        explanation=str(getattr(score, "explanation", "") or ""),
        answer=getattr(score, "answer", None),
    )


def item_score(score: Any) -> EpisodeScore:
    """Adapt a question benchmark's ItemScore (score, parsed answer); the gold answer is never shown."""
    value = None if score.score is None else float(score.score)
    success = value is not None and value >= 1.0
    failures = []
    if not success:
        failures.append("unreadable answer" if score.parsed in (None, -1, "", []) else "wrong answer")
    explanation = f"task {score.task} · parsed answer {score.parsed!r}"
    if score.excluded:
        explanation += " · excluded from the denominator (failed call)"
    fields = {} if value is None else {"score": value}
    return EpisodeScore(success=success, value=value, fields=fields, failures=failures, explanation=explanation)


def episode_scores(result: Any) -> dict[str, EpisodeScore]:
    """episode_id → EpisodeScore for every scored episode of a ScoreResult."""
    scores = getattr(result, "scores", None)
    episodes = getattr(result, "episodes", None)
    if isinstance(scores, dict) and isinstance(episodes, dict):  # question benchmarks: item id → ItemScore
        return {episode: item_score(scores[item]) for item, episode in episodes.items() if item in scores}
    per_task = [s for s in scores or [] if getattr(s, "episode_id", None)]
    if per_task:
        return {s.episode_id: episode_score(s) for s in per_task}
    return {episode: EpisodeScore(success=ok, value=float(ok)) for episode, ok in result.episode_success().items()}


def score_run(run_dir: Path, world: Path | None = None) -> Any:
    """Score a run with the scorer its manifest names (slow: call from a worker)."""
    from evaluators.results.scoring import ScoreOptions
    from evaluators.results.scoring import score_run as registry_score_run

    return registry_score_run(run_dir, ScoreOptions(world=world))
