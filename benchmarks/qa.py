"""What the three question benchmarks share: the prompt a question becomes, and one scored answer.

Shopping MMLU, IntentionQA and SessionIntentBench each ask a model one question per item and parse its raw text.
The benchmark packages describe their prompts as `QuestionPrompt` (no model types here: this layer makes no model
calls) and their per-item results as `ItemScore`, so one runner and one scorer protocol serve all three.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Prompting = Literal["zero-shot", "few-shot", "cot", "cot-sc"]
PROMPTINGS: tuple[Prompting, ...] = ("zero-shot", "few-shot", "cot", "cot-sc")

BASELINES = ("random", "majority")
"""Model specs that the QA runner answers itself, without a model."""


class QuestionPrompt(BaseModel):
    """One question as it is sent to a model, with the decoding its reference used."""

    system: str | None = None
    """System message, or None when the reference sends a single user turn."""
    user: str
    """The question text (for few-shot prompts, with the demonstrations written in)."""
    max_tokens: int
    temperature: float = 0.0
    samples: int = 1
    """How many independent samples to draw (CoT-SC draws 5 and votes)."""


class ItemScore(BaseModel):
    """One item's result in a score report (the `items` entries of `shopbench score --json`)."""

    score: float | None
    """The item's metric value; None when the item is excluded (a failed call) or only counts (NER tp/fp/fn)."""
    parsed: Any = None
    """What the reference parser made of the raw output."""
    task: str
    excluded: bool = False
    """True for items left out of the denominator (IntentionQA: the call failed)."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Per-benchmark detail: NER tp/fp/fn, relation, difficulty, gold letter, binary labels, ..."""

    def report(self) -> dict[str, Any]:
        """The flat JSON shape of the scoring contract: score, parsed, task, then the extras."""
        row: dict[str, Any] = {"score": self.score, "parsed": self.parsed, "task": self.task}
        if self.excluded:
            row["excluded"] = True
        row.update(self.extra)
        return row


def mean(values: list[float]) -> float | None:
    """Arithmetic mean, None for no values (an empty group has no score, not a zero)."""
    return sum(values) / len(values) if values else None
