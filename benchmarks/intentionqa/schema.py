"""IntentionQA items, as released (SPEC §3): two co-bought products, an intention assertion and lettered options.

Task 1 (IntentUnderstand) asks for the purchase intention; Task 2 (IntentUtilize) gives the intention and asks for
the co-bought product, and its records carry `distractors_product`. The released file has no task field, so the task
is told by that key, and shopbench ids are "task1:<id>" / "task2:<id>".
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

MIN_OPTIONS = 4
"""Items with fewer options are skipped, in running and in scoring, as in the reference."""


class IntentionQAItem(BaseModel):
    """One released IntentionQA question (unknown upstream fields are kept)."""

    model_config = ConfigDict(extra="allow")

    id: str
    item_a_name: str
    item_b_name: str
    assertion: str
    options: dict[str, str]
    """Letter → option text, in the order the prompt lists them."""
    gold_ind: str
    relation: str = "all"
    typicality: float | None = None
    distractors_product: list[str] | None = None
    """Present on Task 2 records only."""
    hadFalseNegative: int | None = None

    @property
    def task(self) -> Literal["task1", "task2"]:
        return "task2" if self.distractors_product is not None else "task1"

    @property
    def qid(self) -> str:
        """The shopbench id: the task, a colon, the released id."""
        return f"{self.task}:{self.id}"

    @property
    def scorable(self) -> bool:
        return len(self.options) >= MIN_OPTIONS
