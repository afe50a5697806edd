"""SessionIntentBench items: shopbench's JSONL schema for the benchmark (no data or code is public; SPEC §4).

A session is the chronological list of products a customer viewed, each with the metadata of the paper's intention
tree: attributes, the intention inferred after viewing it (I_t), the attribute that drove the step (A_t) and the
comparison that justifies the step from the previous product (C_t). Each item asks one of the four tasks about the
session's last step and carries the annotators' gold letter.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

TASKS: dict[int, str] = {
    1: "Intent-Based Purchasing Likelihood Estimation",
    2: "Purchasing Likelihood Inference via Valued Attributes Regularization",
    3: "Intention Justification via Comparison",
    4: "Intention Evolution Modeling",
}
LETTERS: dict[int, tuple[str, ...]] = {1: ("A", "B", "C", "D"), 2: ("A", "B", "C", "D"), 3: ("A", "B", "C", "D"),
                                       4: ("A", "B", "C")}
POSITIVE: dict[int, frozenset[str]] = {1: frozenset("AB"), 2: frozenset("AB"), 3: frozenset("AB"), 4: frozenset("A")}
"""Binarisation (paper App. C.1): Tasks 1–3 A/B positive, C/D negative; Task 4 A positive, B/C negative."""


class SessionProduct(BaseModel):
    """One product of the session, with the intention-tree metadata of its step."""

    title: str
    category: str | None = None
    attributes: dict[str, str] = Field(default_factory=dict)
    """Normalised attribute → value pairs (paper §4.1), e.g. {"color": "white"}."""
    intention: str | None = None
    """I_t: the customer's intention after viewing this product."""
    valued_attribute: str | None = None
    """A_t: the product feature the customer values at this step."""
    comparison: str | None = None
    """C_t: why the customer moved from the previous product to this one."""


class SessionIntentItem(BaseModel):
    """One SessionIntentBench question."""

    version: int = 1
    id: str
    task: Literal[1, 2, 3, 4]
    session_id: str | None = None
    products: list[SessionProduct] = Field(min_length=2)
    """The session in viewing order; the questions are about its last step."""
    gold: Literal["A", "B", "C", "D"]
    """The annotators' majority letter."""
    sample: bool = False
    """True for the items shopbench ships as samples (not the benchmark)."""

    @model_validator(mode="after")
    def _fields_the_task_needs(self) -> SessionIntentItem:
        if self.gold not in LETTERS[self.task]:
            raise ValueError(f"gold {self.gold!r} is not an option of task {self.task}")
        prev, last = self.products[-2], self.products[-1]
        needed = {
            1: [("products[-2].intention", prev.intention)],
            2: [("products[-2].valued_attribute", prev.valued_attribute)],
            3: [("products[-1].intention", last.intention), ("products[-1].comparison", last.comparison)],
            4: [("products[-1].intention", last.intention)],
        }[self.task]
        missing = [name for name, value in needed if not value]
        if missing:
            raise ValueError(f"task {self.task} needs {', '.join(missing)}")
        return self

    @property
    def task_name(self) -> str:
        return f"task{self.task}"
