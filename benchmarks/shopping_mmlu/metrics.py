"""Shopping MMLU metrics and aggregation, as the reference evaluation computes them (SPEC §2, §6).

Sentence-transformer similarity needs an embedding model; this layer makes no model calls, so the caller passes an
`Encode` function (evaluators.results.embeddings supplies one) and the embeddings of a whole run are computed in one
batch.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from benchmarks.qa import ItemScore, mean
from benchmarks.shopping_mmlu.parsers import (
    parse_generation,
    parse_multiple_choice,
    parse_ner,
    parse_ranking,
    parse_retrieval,
)
from benchmarks.shopping_mmlu.schema import MMLUItem

if TYPE_CHECKING:
    import numpy as np

# numpy is imported where it is used: every `shopbench` command registers this benchmark (for its help texts), and
# numpy would be most of what `shopbench --help` loads.
Encode = Callable[[list[str]], "np.ndarray"]
"""Texts → L2-normalised embeddings, one row per text."""

SIMILARITY_METRICS = ("sent-transformer", "multilingual-sent-transformer")


def accuracy(parsed: int, truth: int) -> float:
    return float(parsed == truth)


def hit_rate_at_3(parsed: list[int], truth: list[int]) -> float:
    """|truth ∩ first three predictions| / |truth|."""
    return len(set(truth) & set(parsed[:3])) / len(truth)


def ndcg(parsed: list[int], truth: list[float]) -> float:
    """NDCG with gain 2^rel − 1 and discount log2(i+1); candidates are 1-based, so 0 reads the last one's relevance.

    The prediction is cut to len(truth); the ideal ranking is truth sorted descending; an ideal of 0 scores 0.
    """
    dcg = 0.0
    for position, candidate in enumerate(parsed[: len(truth)], start=1):
        relevance = truth[candidate - 1] if candidate - 1 < len(truth) else 0
        dcg += (2**relevance - 1) / math.log2(position + 1)
    ideal = sum((2**rel - 1) / math.log2(pos + 1) for pos, rel in enumerate(sorted(truth, reverse=True), start=1))
    return dcg / ideal if ideal else 0.0


def ner_counts(parsed: list[str], truth: list[str]) -> tuple[int, int, int]:
    """(tp, fp, fn) on lower-cased entities; fp counts every predicted entity that is not a hit, repeats included."""
    predicted = [entity.lower().strip(" ") for entity in parsed]
    gold = [entity.lower() for entity in truth]
    tp = len(set(predicted) & set(gold))
    return tp, len(predicted) - tp, len(gold) - tp


def micro_f1(counts: list[tuple[int, int, int]]) -> float:
    """F1 over summed tp/fp/fn (0 where precision or recall is undefined)."""
    tp = sum(c[0] for c in counts)
    fp = sum(c[1] for c in counts)
    fn = sum(c[2] for c in counts)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@cache
def _rouge_scorer() -> Any:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def rouge_l(parsed: str, truth: str | list[str]) -> float:
    """ROUGE-L F-measure with stemming (mean over references when there are several)."""
    import numpy as np

    references = [truth] if isinstance(truth, str) else truth
    return float(np.mean([_rouge_scorer().score(parsed, ref)["rougeL"].fmeasure for ref in references]))


@cache
def _bleu(tokenize: str) -> Any:
    from sacrebleu.metrics import BLEU

    return BLEU(lowercase=True, tokenize=tokenize)


def bleu(parsed: str, truth: str | list[str], japanese: bool = False) -> float:
    """sacrebleu on the FIRST line of the output, lower-cased, 13a (ja-mecab for Japanese), divided by 100."""
    first_line = parsed.lstrip("\n").rstrip("\n").split("\n")[0]
    references = [truth] if isinstance(truth, str) else truth
    scorer = _bleu("ja-mecab" if japanese else "13a")
    return scorer.corpus_score([first_line], [[ref] for ref in references]).score / 100


def similarity(generation: np.ndarray, references: np.ndarray) -> float:
    """Mean cosine of normalised embeddings over the references, clipped at 0."""
    import numpy as np

    return max(float(np.mean(references @ generation)), 0.0)


def references_of(item: MMLUItem) -> list[str]:
    return [item.output_field] if isinstance(item.output_field, str) else list(item.output_field)


def score_item(
    item: MMLUItem, output: str, embeddings: Mapping[str, Mapping[str, np.ndarray]] | None = None
) -> ItemScore:
    """Parse one raw output with the reference parser and apply the item's metric.

    `embeddings` maps similarity metric → text → embedding for the similarity metrics (see `embed_for_similarity`).
    """
    # The item's metric names its task type (MMLUItem checks METRICS_BY_TYPE), so each branch applies the parser
    # PARSERS[item.task_type] holds for it, typed.
    truth = item.output_field
    extra: dict[str, Any] = {}
    metric = item.metric
    parsed: int | list[int] | list[str] | str
    if metric == "accuracy":
        parsed = parse_multiple_choice(output)
        score: float | None = accuracy(parsed, truth)
    elif metric == "hit rate@3":
        parsed = parse_retrieval(output)
        score = hit_rate_at_3(parsed, truth)
    elif metric == "ndcg":
        parsed = parse_ranking(output)
        score = ndcg(parsed, truth)
    elif metric == "micro f1":
        parsed = parse_ner(output)
        tp, fp, fn = ner_counts(parsed, truth)
        extra = {"tp": tp, "fp": fp, "fn": fn}
        score = None
    elif metric == "rougel":
        parsed = parse_generation(output)
        score = rouge_l(parsed, truth)
    elif metric in ("bleu", "jp-bleu"):
        parsed = parse_generation(output)
        score = bleu(parsed, truth, japanese=metric == "jp-bleu")
    else:
        parsed = parse_generation(output)
        if embeddings is None:
            raise ValueError(f"metric {metric!r} needs sentence embeddings; pass `embeddings`")
        import numpy as np

        table = embeddings[metric]
        score = similarity(table[parsed], np.stack([table[ref] for ref in references_of(item)]))
    extra["metric"] = metric
    return ItemScore(score=score, parsed=parsed, task=item.task_name, extra=extra)


def texts_for_similarity(items: list[MMLUItem], outputs: Mapping[str, str]) -> dict[str, set[str]]:
    """Per similarity metric, every text (parsed output or reference) that needs an embedding."""
    texts: dict[str, set[str]] = defaultdict(set)
    for item in items:
        if item.metric in SIMILARITY_METRICS and item.id in outputs:
            texts[item.metric].add(parse_generation(outputs[item.id]))
            texts[item.metric].update(references_of(item))
    return texts


def embed_for_similarity(
    items: list[MMLUItem], outputs: Mapping[str, str], encoders: Mapping[str, Encode]
) -> dict[str, dict[str, np.ndarray]]:
    """Embed every text the similarity metrics need, one batch per model."""
    tables: dict[str, dict[str, np.ndarray]] = {}
    for metric, texts in texts_for_similarity(items, outputs).items():
        ordered = sorted(texts)
        vectors = encoders[metric](ordered)
        tables[metric] = dict(zip(ordered, vectors, strict=True))
    return tables


def aggregate(items: list[MMLUItem], scores: Mapping[str, ItemScore]) -> dict[str, Any]:
    """Task scores (mean, or micro-F1 for NER), skill scores (mean of their tasks) and overall scores.

    `overall` is the mean over tasks, as the reference's track-wise score; `overall_by_skill` is the mean of the
    skill scores, the paper's headline when items carry their skill.
    """
    import numpy as np

    per_task: dict[str, list[ItemScore]] = defaultdict(list)
    skill_of_task: dict[str, str | None] = {}
    for item in items:
        if item.id in scores:
            per_task[item.task_name].append(scores[item.id])
            skill_of_task.setdefault(item.task_name, item.track)
    tasks: dict[str, float] = {}
    for task, results in per_task.items():
        if results[0].extra.get("metric") == "micro f1":
            tasks[task] = micro_f1([(r.extra["tp"], r.extra["fp"], r.extra["fn"]) for r in results])
        else:
            tasks[task] = float(np.mean([r.score for r in results]))
    by_skill: dict[str, list[float]] = defaultdict(list)
    for task, value in tasks.items():
        if skill := skill_of_task[task]:
            by_skill[skill].append(value)
    skills = {skill: float(np.mean(values)) for skill, values in sorted(by_skill.items())}
    return {
        "tasks": dict(sorted(tasks.items())),
        "skills": skills,
        "overall": mean(list(tasks.values())),
        "overall_by_skill": mean(list(skills.values())),
    }
