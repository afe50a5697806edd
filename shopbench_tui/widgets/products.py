"""Product views shared by play and replay: a result table and a product card."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from shopbench_tui.observations import PRODUCT_ROW_FIELDS, cell


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


class ProductCard(Vertical):
    """One product's details: what view_product_information returned, laid out for reading."""

    DEFAULT_CSS = """
    ProductCard { height: auto; border: round $primary-darken-2; padding: 0 1; margin-bottom: 1; }
    ProductCard .card-title { text-style: bold; }
    ProductCard .card-section { color: $text-muted; text-style: italic; margin-top: 1; }
    ProductCard DataTable { height: auto; max-height: 12; }
    """

    def __init__(self, product: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.product = product

    def compose(self) -> ComposeResult:
        product = self.product
        head = Text(str(product.get("title") or product.get("product_id", "")), style="bold")
        facts = [f"id {product.get('product_id', '?')}"]
        for key in ("shop_id", "price", "sold_count", "brand", "category"):
            if product.get(key) not in (None, ""):
                facts.append(f"{key} {cell(product[key])}")
        if product.get("service"):
            facts.append("service " + cell(product["service"]))
        yield Static(head, classes="card-title")
        yield Static(" · ".join(facts))
        for key in ("short_description", "description", "specification"):
            if product.get(key):
                yield Static(key.replace("_", " "), classes="card-section")
                yield Static(Text(str(product[key])))
        options = product.get("sku_options") or {}
        if options:
            yield Static("SKU options", classes="card-section")
            yield _sku_table(options)
        attributes = product.get("attributes") or {}
        if attributes:
            yield Static("attributes", classes="card-section")
            table: DataTable = DataTable(show_cursor=False)
            table.add_columns("attribute", "values")
            for key, values in attributes.items():
                table.add_row(key, cell(values))
            yield table


def _sku_table(options: dict[str, Any]) -> DataTable:
    table: DataTable = DataTable(show_cursor=False)
    keys = list(dict.fromkeys(key for option in options.values() if isinstance(option, dict) for key in option))
    table.add_columns("option", *keys)
    for number, option in options.items():
        values = option if isinstance(option, dict) else {}
        table.add_row(str(number), *(cell(values.get(key)) for key in keys))
    return table
