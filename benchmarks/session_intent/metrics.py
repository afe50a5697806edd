"""SessionIntentBench scoring: binarised accuracy and macro-F1 per task (paper §5, App. C.1).

Letters are merged into binary labels before scoring (Tasks 1–3: A/B positive, C/D negative; Task 4: A positive,
B/C negative). Macro-F1 is scikit-learn's over the two classes; where a class is never predicted its precision is
undefined and, as in the paper's Majority row, the task's macro-F1 is undefined (None in JSON).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from benchmarks.qa import ItemScore, mean
from benchmarks.session_intent.parsers import NO_ANSWER, parse
from benchmarks.session_intent.schema import POSITIVE, SessionIntentItem

NO_LABEL = -1
"""The binary label of an unparsable answer: wrong on accuracy, a miss for F1."""


def binarise(letter: str, task: int) -> int:
    if letter == NO_ANSWER:
        return NO_LABEL
    return 1 if letter in POSITIVE[task] else 0


def score_item(item: SessionIntentItem, output: str, prompting: str) -> ItemScore:
    parsed = parse(output, item.task, prompting)
    predicted, gold = binarise(parsed, item.task), binarise(item.gold, item.task)
    extra = {"gold": item.gold, "gold_label": gold, "predicted_label": predicted, "exact": parsed == item.gold}
    return ItemScore(score=float(predicted == gold), parsed=parsed, task=item.task_name, extra=extra)


def macro_f1(gold: list[int], predicted: list[int]) -> float | None:
    """Macro-F1 over the positive and negative class; None where a class's precision or recall is undefined."""
    import numpy as np
    from sklearn.metrics import precision_recall_fscore_support

    precision, recall, f1, _ = precision_recall_fscore_support(
        gold, predicted, labels=[1, 0], average=None, zero_division=np.nan
    )
    if np.isnan(precision).any() or np.isnan(recall).any():
        return None
    return float(np.mean(f1))


def aggregate(items: list[SessionIntentItem], scores: Mapping[str, ItemScore]) -> dict[str, Any]:
    """Per task: binarised accuracy, macro-F1, exact-letter accuracy and count; overall = mean of task accuracies."""
    gold: dict[str, list[int]] = defaultdict(list)
    predicted: dict[str, list[int]] = defaultdict(list)
    exact: dict[str, list[float]] = defaultdict(list)
    for item in items:
        if item.id in scores:
            result = scores[item.id]
            gold[item.task_name].append(result.extra["gold_label"])
            predicted[item.task_name].append(result.extra["predicted_label"])
            exact[item.task_name].append(float(result.extra["exact"]))
    accuracy = {
        task: sum(g == p for g, p in zip(gold[task], predicted[task], strict=True)) / len(gold[task])
        for task in sorted(gold)
    }
    return {
        "tasks": accuracy,
        "macro_f1": {task: macro_f1(gold[task], predicted[task]) for task in sorted(gold)},
        "exact_letter_accuracy": {task: mean(exact[task]) for task in sorted(exact)},
        "counts": {task: len(gold[task]) for task in sorted(gold)},
        "skills": {},
        "overall": mean(list(accuracy.values())),
    }
