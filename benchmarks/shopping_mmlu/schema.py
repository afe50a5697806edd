"""Shopping MMLU items in the KDD Cup 2024 format (SPEC §2).

An item carries the whole prompt (`input_field`) and its target (`output_field`), whose shape depends on the task
type: an option index (multiple choice), candidate indices (retrieval), per-candidate relevance weights (ranking),
entity strings (NER) or reference text (generation).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, model_validator

TaskType = Literal["multiple-choice", "retrieval", "ranking", "named_entity_recognition", "generation"]
TASK_TYPES: tuple[TaskType, ...] = ("multiple-choice", "retrieval", "ranking", "named_entity_recognition", "generation")

Metric = Literal[
    "accuracy",
    "hit rate@3",
    "ndcg",
    "micro f1",
    "rougel",
    "sent-transformer",
    "multilingual-sent-transformer",
    "bleu",
    "jp-bleu",
]
METRICS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "multiple-choice": ("accuracy",),
    "retrieval": ("hit rate@3",),
    "ranking": ("ndcg",),
    "named_entity_recognition": ("micro f1",),
    "generation": ("rougel", "sent-transformer", "multilingual-sent-transformer", "bleu", "jp-bleu"),
}

SYSTEM_PROMPT = (
    "You are a helpful online shopping assistant. Please answer the following question about online shopping "
    "and follow the given instructions.\n\n"
)
"""Prepended to every question, as in the reference evaluation."""

MAX_NEW_TOKENS: dict[str, int] = {
    "multiple-choice": 4,
    "retrieval": 15,
    "ranking": 20,
    "named_entity_recognition": 20,
    "generation": 128,
}
"""Greedy decoding budget per task type (SPEC §2)."""


class MMLUItem(BaseModel):
    """One Shopping MMLU question."""

    id: str
    """The record's own id, or (files without ids) its 0-based line number as a string."""
    input_field: str
    """The full prompt text; multiple-choice options are already written in ("0. …\\n1. …\\nAnswer: ")."""
    output_field: Any
    task_name: str
    task_type: TaskType
    metric: Metric
    track: str | None = None
    """The skill (KDD track or skill file) the item belongs to; skill scores average its tasks."""
    is_multiple_choice: bool | None = None

    @model_validator(mode="after")
    def _target_matches_type(self) -> MMLUItem:
        """Reject targets of the wrong shape at load time, so a bad line is named instead of mis-scored."""
        if self.metric not in METRICS_BY_TYPE[self.task_type]:
            raise ValueError(f"metric {self.metric!r} does not belong to task type {self.task_type!r}")
        out = self.output_field
        if self.task_type == "multiple-choice":
            ok = isinstance(out, int) and not isinstance(out, bool)
        elif self.task_type in ("retrieval",):
            ok = isinstance(out, list) and bool(out) and all(isinstance(x, int) for x in out)
        elif self.task_type == "ranking":
            ok = isinstance(out, list) and bool(out) and all(isinstance(x, int | float) for x in out)
        elif self.task_type == "named_entity_recognition":
            ok = isinstance(out, list) and all(isinstance(x, str) for x in out)
        else:
            ok = isinstance(out, str) or (isinstance(out, list) and bool(out) and all(isinstance(x, str) for x in out))
        if not ok:
            raise ValueError(f"output_field {out!r} is not a valid target for a {self.task_type} item")
        return self
