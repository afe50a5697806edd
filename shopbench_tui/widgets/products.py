"""Product views shared by play and replay: a result table and a product card."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import DataTable, Static

from shopbench_tui.observations import PRODUCT_ROW_FIELDS, cell
from shopbench_tui.widgets.tables import grid


class ProductTable(DataTable):
    """find_product results: one row per product, keyed by product_id."""

    DEFAULT_CSS = """
    ProductTable { height: auto; max-height: 16; }
    """

    def __init__(self, rows: list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._initial = rows or []

    def on_mount(self) -> None:
        self.show(self._initial)

    def show(self, rows: list[dict[str, Any]]) -> None:
        self.clear(columns=True)
        extra = [key for row in rows for key in row if key not in PRODUCT_ROW_FIELDS]
        columns = list(PRODUCT_ROW_FIELDS) + list(dict.fromkeys(extra))
        self.add_columns(*columns)
        for number, row in enumerate(rows):
            key = str(row.get("product_id", number))
            self.add_row(*(cell(row.get(column)) for column in columns), key=f"{number}:{key}")

    def product_id_at_cursor(self) -> str | None:
        """The product_id of the highlighted row, if any."""
        if self.row_count == 0:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return str(row_key.value).split(":", 1)[1]


class ProductCard(Static):
    """One product's details: what view_product_information returned, laid out for reading."""

    DEFAULT_CSS = """
    ProductCard { height: auto; border: round $primary-darken-2; padding: 0 1; margin-bottom: 1; }
    """

    def __init__(self, product: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(card(product), **kwargs)
        self.product = product


def card(product: dict[str, Any]) -> Group:
    """Title, facts, descriptions, SKU options and attributes of one product."""
    facts = [f"id {product.get('product_id', '?')}"]
    for key in ("shop_id", "price", "sold_count", "brand", "category", "service"):
        if product.get(key) not in (None, "", []):
            facts.append(f"{key} {cell(product[key])}")
    parts: list[RenderableType] = [
        Text(str(product.get("title") or product.get("product_id", "")), style="bold"),
        Text(" · ".join(facts)),
    ]
    for key in ("short_description", "description", "specification"):
        if product.get(key):
            parts += [_section(key.replace("_", " ")), Text(str(product[key]))]
    options = product.get("sku_options") or {}
    if options:
        keys = list(dict.fromkeys(k for option in options.values() if isinstance(option, dict) for k in option))
        rows = [[str(n), *(cell((o if isinstance(o, dict) else {}).get(k)) for k in keys)] for n, o in options.items()]
        parts += [_section("SKU options"), grid(["option", *keys], rows)]
    attributes = product.get("attributes") or {}
    if attributes:
        parts += [_section("attributes"), grid(["attribute", "values"], [[k, cell(v)] for k, v in attributes.items()])]
    return Group(*parts)


def _section(title: str) -> Text:
    return Text("\n" + title, style="italic dim")
