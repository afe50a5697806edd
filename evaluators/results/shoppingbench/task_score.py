"""One ShoppingBench task's score, as the rules (`rules`) make it and the failure categories (`failure`) read it."""

from __future__ import annotations

from pydantic import BaseModel, Field

from benchmarks.shoppingbench.schema import Intent


class ProductMatch(BaseModel):
    """How the product recommended at one target position scored against that target."""

    position: int
    recommended_id: str | None
    """The id at this position exactly as passed (None: the recommendation had fewer ids)."""
    found: bool
    """The id names a product of the catalog."""
    exact: bool
    rule: float
    title: float
    price: float
    service: float
    sku_attrs: float
    misses: list[str] = Field(default_factory=list)
    """The constraints this product failed, in words (what replay shows)."""
    shop_id: str | None = None
    list_price: float | None = None


class TaskScore(BaseModel):
    """One task's score, shaped like an Inspect Score: `value` (1 = success), `answer`, `explanation`, plus the
    reference's per-field values (None where a field does not apply to the intent)."""

    task_id: str
    task_set: str
    intent: Intent
    task_index: int
    episode_id: str | None = None
    epoch: int = 0
    answer: str | None
    """The product_ids string of the last recommend_product call, exactly as passed (None: never called)."""
    value: float
    success: bool
    rule: float
    exact_id: float
    """Fraction of targets recommended by their exact id (knowledge: the reference's substring test)."""
    resolved: float
    """Fraction of target positions holding an existing product (the reference's "recommend product score")."""
    title: float | None
    price: float | None
    service: float | None
    sku_attrs: float | None
    shop: float | None = None
    budget: float | None = None
    kw: float | None = None
    matches: list[ProductMatch] = Field(default_factory=list)
    failures: list[str] = Field(default_factory=list)
    """Failure categories that apply (paper App. D), most basic first; empty on success."""
    explanation: str = ""

    @property
    def failure(self) -> str | None:
        """The primary failure category."""
        return self.failures[0] if self.failures else None
