"""What each ShoppingBench sandbox tool's observation looks like (each `EpisodeTool` names its observation's type),
so clients get an `outputSchema` they can validate against (mcp_server.output_schemas builds it). They are schemas
only: the sandbox builds the observations (mcp_server.shopping.tools), and nothing here is validated on the server.

The records of a list observation (find_product hits, view_product_information entries, web_search results) are
`ListRecord`s: declared by their required keys, with their fields and types in the description (the lean schemas of
mcp_server.output_schemas took validating a find_product page from ~0.44 to ~0.1 ms).
"""

from __future__ import annotations

from pydantic import Field

from mcp_server.output_schemas import ListRecord, OpenModel


class ProductCard(ListRecord):
    """One find_product hit."""

    product_id: str
    shop_id: str
    title: str
    price: float
    service: list[str] = Field(default_factory=list)
    sold_count: float | None = None


class ProductInformation(ListRecord):
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


class CartItem(OpenModel):
    product_id: str
    shop_id: str
    price: float


class CartQuote(OpenModel):
    """calculate in cart form: the list total and, with a voucher, whether it applies and the total after it."""

    items: list[CartItem]
    list_total: float
    voucher_applies: bool | None = None
    reason: str | None = None
    total_after_voucher: float | None = None
    within_budget: bool | None = None


class WebResult(ListRecord):
    """One web_search result."""

    url: str
    title: str
    content: str
