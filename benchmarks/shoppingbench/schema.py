"""ShoppingBench records in the official formats (SPEC §1.1, §1.2).

The models accept exactly what the reference files hold, so an official file loads unchanged and a generated one is
byte-compatible with the reference tools.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat

Intent = Literal["product", "shop", "voucher", "web"]
"""Official intent names: product finder, multi-product shop, coupon & budget, knowledge ("web")."""

INTENTS: tuple[Intent, ...] = ("product", "shop", "voucher", "web")

INTENT_LABELS: dict[Intent, str] = {
    "product": "product finder",
    "shop": "multi-product shop",
    "voucher": "coupon & budget",
    "web": "knowledge",
}

SERVICES: tuple[str, ...] = ("official", "freeShipping", "COD", "flashsale")
"""The only service flags a product can carry."""

TASK_FILES: dict[Intent, str] = {
    "product": "synthesize_product_test.jsonl",
    "shop": "synthesize_shop_test.jsonl",
    "voucher": "synthesize_voucher_test.jsonl",
    "web": "synthesize_web_simpleqa_test.jsonl",
}
"""File name of each intent's test set inside a task-set folder (the official names)."""


class Product(BaseModel):
    """One product of the catalog (`product` of an official corpus line)."""

    model_config = ConfigDict(extra="allow")

    product_id: str
    shop_id: str
    brand: str = ""
    category: str = ""
    """"L1 > L2 > L3"."""
    title: str
    short_description: str = ""
    description: str = ""
    specification: str = ""
    price: float
    sold_count: int = 0
    sku_options: dict[str, dict[str, str]] = Field(default_factory=dict)
    """Option number ("1".."9") → {key: value}, lower-cased."""
    attributes: dict[str, list[str]] = Field(default_factory=dict)
    """Attribute key → values, lower-cased."""
    main_image_url: str = ""
    product_url: str = ""
    service: list[str] = Field(default_factory=list)


def product_contents(product: Product) -> str:
    """The text BM25 indexes: title, distinct SKU values, distinct attribute values (one line each)."""
    sku_values = _distinct(v for option in product.sku_options.values() for v in option.values())
    attr_values = _distinct(v for values in product.attributes.values() for v in values)
    return f"{product.title}\n{' '.join(sku_values)}\n{' '.join(attr_values)}"


def _distinct(values: Any) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values))


class CorpusRecord(BaseModel):
    """One line of the official corpus file `documents.jsonl`."""

    id: str
    contents: str
    product: Product

    @classmethod
    def of(cls, product: Product) -> CorpusRecord:
        return cls(id=product.product_id, contents=product_contents(product), product=product)


PriceConstraint = dict[str, list[float | None]]
"""One of {"greater than": [lo, None]}, {"between": [lo, hi]}, {"less than": [0, hi]}."""


class Target(BaseModel):
    """A gold product and the constraints the instruction states about it."""

    model_config = ConfigDict(extra="allow")

    product_id: str
    title: list[str]
    sku_options: list[dict[str, str]] | None = None
    attributes: list[dict[str, list[str]]] | None = None
    service: list[str] | None = None
    price: list[PriceConstraint] | None = None


class Voucher(BaseModel):
    """The voucher of a coupon & budget task. Every amount is a finite number: NaN compares false with everything,
    so a NaN threshold would let any basket "reach" it, and JSON readers accept NaN and Infinity."""

    voucher_type: Literal["platform", "shop"]
    threshold: FiniteFloat
    discount_type: Literal["fixed", "percentage"]
    face_value: FiniteFloat | None = None
    discount: FiniteFloat | None = None
    """A fraction (0.25 = 25%)."""
    cap: FiniteFloat | None = None
    price_after_voucher: FiniteFloat | None = None
    budget: FiniteFloat


class ShoppingTask(BaseModel):
    """One ShoppingBench task, whatever its intent, with its place in its task file.

    `targets` is the official `reward` normalised to a list (product/web tasks have one). For knowledge tasks the
    official reward is a full product record, kept in `knowledge_product`.
    """

    task_id: str
    """Stable id: "<intent>-<task_index:04d>"."""
    task_set: str
    intent: Intent
    task_index: int
    """0-based line in the intent's task file."""
    query: str
    targets: list[Target]
    voucher: Voucher | None = None
    knowledge_attribute: str | None = None
    knowledge_product: Product | None = None

    @property
    def instruction(self) -> str:
        """What the agent is told: the query and nothing else."""
        return self.query

    def to_official(self) -> dict[str, Any]:
        """The task as one line of the official test file for its intent."""
        if self.intent == "web":
            assert self.knowledge_product is not None
            return {
                "query": self.query,
                "Knowledge_Attribute": self.knowledge_attribute,
                "reward": self.knowledge_product.model_dump(),
            }
        targets = [t.model_dump(exclude_none=True) for t in self.targets]
        record: dict[str, Any] = {"query": self.query, "reward": targets[0] if self.intent == "product" else targets}
        if self.voucher is not None:
            record["voucher"] = self.voucher.model_dump()
        return record


def task_id_for(intent: Intent, task_index: int) -> str:
    return f"{intent}-{task_index:04d}"
