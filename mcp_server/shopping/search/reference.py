"""find_product the reference's way (SPEC §1.3): k BM25 hits from Pyserini's LuceneSearcher, filtered in Python.

It takes seconds a query on millions of products, where ProductIndex.find gives the same pages in milliseconds. It is
the yardstick of the tests (tests/test_product_search.py) and of perf/bench_search.py; nothing serves with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Unpack

from mcp_server.shopping.search.backends import FindOptions
from mcp_server.shopping.search.product_index import KEPT_HITS, MAX_PAGE, PAGE_SIZE, card

REFERENCE_K = 100_000
"""BM25 hits the reference retrieves per query before filtering."""

_SORT_KEYS = {
    "order": lambda card: -card["sold_count"],
    "priceasc": lambda card: card["price"],
    "pricedesc": lambda card: -card["price"],
}


def reference_page(products: Iterable[dict[str, Any]], **options: Unpack[FindOptions]) -> list[dict[str, Any]]:
    """Walk `products` (BM25 order), keep the first 50 that pass every filter, sort those (stable), return a page."""
    return sort_and_page(kept_cards(products, options), options.get("page", 1), options.get("sort", "default"))


def kept_cards(products: Iterable[dict[str, Any]], options: FindOptions) -> list[dict[str, Any]]:
    """The cards of the first 50 of `products` that pass every filter of `options`, in their order."""
    shop_id, services = options.get("shop_id"), options.get("services", ())
    price_min, price_max = options.get("price_min"), options.get("price_max")
    kept = []
    for product in products:
        if shop_id is not None and product["shop_id"] != shop_id:
            continue
        if (price_min is not None and product["price"] < price_min) or (
            price_max is not None and product["price"] > price_max
        ):
            continue
        if not all(service in product["service"] for service in services):
            continue
        kept.append(card(product))
        if len(kept) == KEPT_HITS:
            break
    return kept


def sort_and_page(kept: list[dict[str, Any]], page: int, sort: str) -> list[dict[str, Any]]:
    """The kept cards sorted as asked (stable: ties keep BM25 order), cut to one page; an invalid page gives []."""
    if sort in _SORT_KEYS:
        kept = sorted(kept, key=_SORT_KEYS[sort])
    return kept[(page - 1) * PAGE_SIZE : page * PAGE_SIZE] if 1 <= page <= MAX_PAGE else []


class ReferenceFind:
    """The reference's find_product over Pyserini's LuceneSearcher (lucene_runtime.lucene_searcher)."""

    def __init__(self, searcher: Any, k: int = REFERENCE_K) -> None:
        self.searcher, self.k = searcher, k
        self.last_hit_count = 0
        """How many hits the last find retrieved; == k means BM25 matched more documents than the reference saw."""
        self.last_kept: list[dict[str, Any]] = []
        """The last find's kept cards in BM25 order, before the sort and the page."""

    def find(self, q: str, **options: Unpack[FindOptions]) -> list[dict[str, Any]]:
        hits = self.searcher.search(q, self.k)
        self.last_hit_count = len(hits)
        self.last_kept = kept_cards(_products(hits), options)
        return sort_and_page(self.last_kept, options.get("page", 1), options.get("sort", "default"))


def _products(hits: Sequence[Any]) -> Iterator[dict[str, Any]]:
    """The hits' products, each parsed from its stored record only when the walk reaches it."""
    for hit in hits:
        yield json.loads(hit.lucene_document.get("raw"))["product"]
