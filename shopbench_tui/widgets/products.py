"""Product views shared by play and replay: a result table and a product card."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import DataTable, Static

from shopbench_tui.observations import PRODUCT_ROW_FIELDS, cell
from shopbench_tui.widgets.tables import grid

TABLE_COLUMNS = ("product_id", "price", "sold_count", "service", "shop_id", "title")
"""The order of a result table: what tasks ask about (price, sold count, service, shop) before the title, which is
long and so comes last, where the terminal is wide enough to show all of them."""
NARROW_COLUMNS = ("price", "title", "service", "sold_count", "shop_id", "product_id")
"""The order in a narrow table (`ProductTable.narrow`): the title, the column people choose by, stays in view beside
the price, cut to the table's width; the others follow it, reached by scrolling right (and on the product page)."""
HEADERS = {"sold_count": "sold"}
TITLE_WIDTH = 60
"""Titles are cut to this many characters in the table (the product card shows them whole)."""


def table_cell(column: str, value: Any, title_width: int = TITLE_WIDTH) -> str:
    """A result-table cell: sold counts as whole numbers, services space-separated, titles longer than `title_width`
    cut with "…"."""
    if column == "sold_count" and isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    if column == "service" and isinstance(value, list):
        return " ".join(str(item) for item in value)
    text = cell(value)
    if column == "title" and len(text) > title_width:
        return text[: title_width - 1] + "…"
    return text


class ProductTable(DataTable):
    """find_product results: one row per product, keyed by product_id; columns in TABLE_COLUMNS order (then any
    other field the server returned)."""

    DEFAULT_CSS = """
    ProductTable { height: auto; max-height: 16; }
    """

    def __init__(self, rows: list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self._rows = rows or []
        self.column_names: list[str] = []
        self._narrow = False

    def on_mount(self) -> None:
        self.show(self._rows)

    @property
    def narrow(self) -> bool:
        return self._narrow

    @narrow.setter
    def narrow(self, narrow: bool) -> None:
        """A narrow table leads with price and title (NARROW_COLUMNS); the rows shown are laid out again."""
        if narrow != self._narrow:
            self._narrow = narrow
            if self.is_mounted:
                self.show(self._rows)

    def show(self, rows: list[dict[str, Any]]) -> None:
        cursor = self.cursor_row if self.row_count else 0
        self._rows = rows
        self.clear(columns=True)
        extra = [key for row in rows for key in row if key not in PRODUCT_ROW_FIELDS]
        self.column_names = list(NARROW_COLUMNS if self._narrow else TABLE_COLUMNS) + list(dict.fromkeys(extra))
        title_width = max(20, self.size.width - 12) if self._narrow and self.size.width else TITLE_WIDTH
        for column in self.column_names:
            self.add_column(HEADERS.get(column, column), key=column)
        for number, row in enumerate(rows):
            key = str(row.get("product_id", number))
            self.add_row(*(table_cell(column, row.get(column), title_width) for column in self.column_names),
                         key=f"{number}:{key}")
        if rows:
            self.move_cursor(row=min(cursor, len(rows) - 1))

    def row_values(self, row: int) -> dict[str, str]:
        """The cells of one row by field name (product_id, price, sold_count, …)."""
        return dict(zip(self.column_names, self.get_row_at(row), strict=False))

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
