"""An observation shown for reading: product lists as tables, product details as cards, web pages as excerpts."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from shopbench_tui.observations import cell, classify
from shopbench_tui.widgets.products import ProductCard, ProductTable


class ObservationView(VerticalScroll):
    """Shows one tool observation; `show` replaces what is there."""

    DEFAULT_CSS = """
    ObservationView { height: 1fr; }
    ObservationView .obs-error { color: $error; }
    ObservationView .web-title { text-style: bold; }
    ObservationView .web-url { color: $text-muted; }
    ObservationView .web-content { margin-bottom: 1; }
    ObservationView DataTable { height: auto; }
    """

    async def show(self, observation: Any, is_error: bool = False) -> None:
        await self.remove_children()
        await self.mount_all(list(_widgets_for(observation, is_error)))
        self.scroll_home(animate=False)


def _widgets_for(observation: Any, is_error: bool):
    view = classify(observation, is_error)
    if view.kind == "error":
        yield Static(Text("error: " + str(view.value)), classes="obs-error")
    elif view.kind == "products":
        yield ProductTable(view.value)
    elif view.kind == "details":
        for product in view.value:
            yield ProductCard(product)
    elif view.kind == "web":
        for page in view.value:
            yield Static(Text(str(page.get("title", ""))), classes="web-title")
            yield Static(escape(str(page.get("url", ""))), classes="web-url")
            yield Static(Text(str(page.get("content", ""))), classes="web-content")
    elif view.kind == "mapping":
        table: DataTable = DataTable(show_cursor=False)
        table.add_columns("field", "value")
        for key, value in view.value.items():
            table.add_row(str(key), cell(value))
        yield table
    else:
        yield Static(Text(str(view.value)))
