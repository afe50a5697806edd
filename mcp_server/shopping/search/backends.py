"""What the shopping tools read, as protocols: the catalog's search index and a web search. The Lucene indexes
(product_index, knowledge_index) and the live search (mcp_server.shopping.web_search_live) implement them; the sandbox
(mcp_server.shopping.tools) is written against them alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypedDict, Unpack

from benchmarks.shoppingbench.schema import Product


class WebSearchBackend(Protocol):
    """Where `web_search` results come from: the world's offline corpus
    (mcp_server.shopping.search.knowledge_index), or a live provider with a replay cache
    (mcp_server.shopping.web_search_live)."""

    def search(self, q: str, max_results: int) -> list[dict[str, Any]]: ...


class FindOptions(TypedDict, total=False):
    """What find_product takes besides its query (SPEC §1.3), named once for every backend and the reference's
    method (mcp_server.shopping.search.reference). A key left out means: page 1, no such filter, relevance order."""

    page: int
    shop_id: str | None
    price_min: float | None
    price_max: float | None
    services: Sequence[str]
    """Every one of these must be offered."""
    sort: str
    """A key of product_index.SORTS; any other value keeps BM25 order."""


class ProductBackend(Protocol):
    """What the product tools read: the catalog's search index
    (mcp_server.shopping.search.product_index.ProductIndex)."""

    def find(self, q: str, **options: Unpack[FindOptions]) -> list[dict[str, Any]]:
        """One page of find_product hits (dicts with at least the product index's card fields)."""
        ...

    def get(self, product_ids: Sequence[str]) -> dict[str, Product]:
        """The products with these ids; unknown ids are left out."""
        ...
