"""An observation shown for reading: product lists as tables, product details as cards, web pages as excerpts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from shopbench_tui.observations import cell, classify
from shopbench_tui.widgets.products import ProductCard, ProductTable
from shopbench_tui.widgets.tables import grid


class ObservationView(VerticalScroll):
    """Shows one tool observation; `show` replaces what is there."""

    DEFAULT_CSS = """
    ObservationView { height: 1fr; }
    ObservationView .obs-error { color: $error; }
    """

    def __init__(self, observation: Any = None, is_error: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._initial = (observation, is_error)

    def compose(self) -> ComposeResult:
        observation, is_error = self._initial
        if observation is not None:
            yield from _widgets_for(observation, is_error)

    async def show(self, observation: Any, is_error: bool = False) -> None:
        await self.remove_children()
        await self.mount_all(list(_widgets_for(observation, is_error)))
        self.scroll_home(animate=False)


def _widgets_for(observation: Any, is_error: bool) -> Iterator[Widget]:
    view = classify(observation, is_error)
    if view.kind == "error":
        yield Static(Text("error: " + str(view.value)), classes="obs-error")
    elif view.kind == "products":
        yield ProductTable(view.value)
    elif view.kind == "details":
        for product in view.value:
            yield ProductCard(product)
    elif view.kind == "web":
        pages = []
        for page in view.value:
            pages += [Text(str(page.get("title", "")), style="bold"), Text(str(page.get("url", "")), style="dim"),
                      Text(str(page.get("content", "")) + "\n")]
        yield Static(Group(*pages))
    elif view.kind == "mapping":
        yield Static(grid(["field", "value"], [[str(k), cell(v)] for k, v in view.value.items()]))
    else:
        yield Static(Text(str(view.value)))
