"""Where the scorer finds recommended products: a world's product index, or a catalog file in the official format.

Scoring only ever needs the handful of products an agent recommended, so both sources are asked for a set of ids:
a world's ProductIndex answers from its store, and a catalog JSONL (possibly the 1.5 GB official corpus) is streamed
once, parsing only the lines whose id was asked for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol

from pydantic import ValidationError

from benchmarks.jsonl import DataFileError, iter_lines, parse_line
from benchmarks.shoppingbench.schema import Product


class ProductLookup(Protocol):
    """Anything that maps product ids to products; unknown ids are simply absent (mcp_server's ProductIndex fits)."""

    def get(self, ids: Iterable[str]) -> Mapping[str, Product]: ...


class MappingLookup:
    """Products already in memory (tests, small catalogs)."""

    def __init__(self, products: Mapping[str, Product] | Iterable[Product]) -> None:
        items = products.values() if isinstance(products, Mapping) else products
        self._products = {p.product_id: p for p in items}

    def get(self, ids: Iterable[str]) -> dict[str, Product]:
        return {i: self._products[i] for i in ids if i in self._products}


_LEADING_ID = re.compile(r'\s*\{\s*"id"\s*:\s*"((?:[^"\\]|\\.)*)"')


def load_catalog_products(path: Path | str, ids: Iterable[str]) -> dict[str, Product]:
    """Stream a catalog JSONL (official document lines `{"id", "contents", "product"}`, optionally .gz) and return
    the products whose id is in `ids`. Lines whose leading `"id"` is not wanted are skipped without JSON parsing;
    a wanted line that is malformed raises DataFileError naming the file and line."""
    wanted = set(ids)
    found: dict[str, Product] = {}
    if not wanted:
        return found
    seen = False
    for number, line in iter_lines(path):
        seen = True
        match = _LEADING_ID.match(line)
        if match is not None and json.loads(f'"{match.group(1)}"') not in wanted:
            continue
        record = parse_line(path, number, line)
        if not isinstance(record, dict) or "product" not in record:
            raise DataFileError(path, number, 'not a catalog line (expected {"id", "contents", "product"})')
        record_id = str(record.get("id", ""))
        if record_id not in wanted:
            continue
        try:
            found[record_id] = Product.model_validate(record["product"])
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "product"
            raise DataFileError(path, number, f"product.{where}: {first['msg']}") from None
        if len(found) == len(wanted):
            break
    if not seen:
        raise DataFileError(path, 1, "the catalog is empty (no product lines)")
    return found
