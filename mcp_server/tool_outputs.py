"""Output schemas of the episode tools: what each sandbox tool's observation looks like, with the episode's status.

Every episode tool answers with structured content `{"result": <observation>, "episode": <EpisodeStatus>}`; these
models say what `<observation>` is for each tool, so clients get an `outputSchema` they can validate against. They are
schemas only: the sandbox builds the observations (mcp_server.tools), and nothing here is validated on the server.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from mcp_server.episodes import EpisodeStatus


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ProductCard(_Open):
    """One find_product hit."""

    product_id: str
    shop_id: str
    title: str
    price: float
    service: list[str] = Field(default_factory=list)
    sold_count: float | None = None


class ProductInformation(_Open):
    """One view_product_information entry."""

    product_id: str
    title: str
    price: float
    shop_id: str
    short_description: str | None = None
    description: str | None = None
    sku_options: dict[str, dict[str, str]] = Field(default_factory=dict)
    attributes: dict[str, list[str]] = Field(default_factory=dict)
    service: list[str] = Field(default_factory=list)


class CartItem(_Open):
    product_id: str
    shop_id: str
    price: float


class CartQuote(_Open):
    """calculate in cart form: the list total and, with a voucher, whether it applies and the total after it."""

    items: list[CartItem]
    list_total: float
    voucher_applies: bool | None = None
    reason: str | None = None
    total_after_voucher: float | None = None
    within_budget: bool | None = None


class WebResult(_Open):
    url: str
    title: str
    content: str


OBSERVATIONS: dict[str, Any] = {
    "find_product": list[ProductCard],
    "view_product_information": list[ProductInformation],
    "calculate": float | CartQuote,
    "web_search": list[WebResult],
    "recommend_product": str,
    "terminate": str,
    "submit_answer": str,
}
"""The observation type of each episode tool."""


def output_schema(tool: str) -> dict[str, Any]:
    """The tool's output schema: {"result": its observation, "episode": the episode's status after the call}."""
    model = create_model(
        f"{tool}Output",
        result=(OBSERVATIONS[tool], Field(description=f"What {tool} returned.")),
        episode=(EpisodeStatus, Field(description="The episode after this call: running or ended (and why), steps.")),
    )
    return _inlined(model.model_json_schema())


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every local `$ref` replaced by its definition and titles dropped: clients validate every result
    against it (the official client with jsonschema), and resolving references costs several times the validation
    itself (4.5 ms a find_product result with references, a fraction of that without)."""
    definitions = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return walk({**definitions[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}})
        inlined = {}
        for key, value in node.items():
            if key in ("$defs", "title"):
                continue
            # "properties" maps names (which may be "title") to schemas
            inlined[key] = {name: walk(sub) for name, sub in value.items()} if key == "properties" else walk(value)
        return inlined

    return walk(schema)
