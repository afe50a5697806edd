"""Play's own widgets: the status line (step counter and timer), the search form, and the basket."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static

from benchmarks.shoppingbench.schema import SERVICES
from mcp_server.shopping.tools import SORTS
from shopbench_tui.observations import cell


class StatusBar(Static):
    """`step 3/30 · 01:25 · player`: refreshed every second and after each action."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    """

    def __init__(self, steps: Callable[[], tuple[int, int]], elapsed: Callable[[], float], player: str,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._steps, self._elapsed, self.player = steps, elapsed, player

    def on_mount(self) -> None:
        self.tick()
        self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        taken, limit = self._steps()
        minutes, seconds = divmod(int(self._elapsed()), 60)
        self.update(f"step {taken}/{limit} · {minutes:02d}:{seconds:02d} · player {self.player}")


class ServiceCheckbox(Checkbox):
    """A service filter that reads without colour: `[x] COD` when on, `[ ] COD` when off, and a `▸` before the one
    that has focus (its label is also highlighted)."""

    DEFAULT_CSS = """
    ServiceCheckbox, ServiceCheckbox:focus { border: none; padding: 0; margin: 0; height: 1; background: $surface; }
    ServiceCheckbox:focus > .toggle--label { color: $block-cursor-foreground; background: $block-cursor-background;
                                             text-style: bold; }
    """

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble("[", ("x" if self.value else " ", style), "]")

    def render(self) -> Content:
        return Content.assemble("▸" if self.has_focus else " ", super().render())

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return super().get_content_width(container, viewport) + 1


class SearchForm(Vertical):
    """Every find_product parameter: query, page, shop, price range, sort, services. Enter in any field searches."""

    DEFAULT_CSS = """
    SearchForm { width: 34; height: 1fr; border: round $primary; padding: 0 1; }
    SearchForm Input { margin: 0; }
    SearchForm .price { height: auto; }
    SearchForm .price Input { width: 1fr; }
    SearchForm Button { width: 100%; margin-top: 1; }
    """

    class Submitted(Message):
        """The player asked to search with these find_product arguments."""

        def __init__(self, arguments: dict[str, Any]) -> None:
            super().__init__()
            self.arguments = arguments

    def compose(self) -> ComposeResult:
        yield Label("query")
        yield Input(placeholder="e.g. wireless earbuds", id="q")
        yield Label("page (1–5)")
        yield Input("1", type="integer", id="page")
        yield Label("shop_id")
        yield Input(placeholder="any shop", id="shop")
        yield Label("price")
        with Horizontal(classes="price"):
            yield Input(placeholder="min", type="number", id="price-lo")
            yield Input(placeholder="max", type="number", id="price-hi")
        yield Label("sort")
        yield Select([(sort, sort) for sort in SORTS], value="default", allow_blank=False, id="sort")
        yield Label("services")
        for service in SERVICES:
            yield ServiceCheckbox(service, id=f"service-{service}")
        yield Button("Search (enter)", id="search", variant="primary")

    def arguments(self) -> dict[str, Any]:
        """The find_product call the form describes (empty fields left out, as an agent would)."""
        value = {input_.id: input_.value.strip() for input_ in self.query(Input)}
        page = int(value["page"]) if value["page"].lstrip("-").isdigit() else 1
        arguments: dict[str, Any] = {"q": value["q"], "page": page}
        if value["shop"]:
            arguments["shop_id"] = value["shop"]
        if value["price-lo"] or value["price-hi"]:
            arguments["price"] = f"{value['price-lo']}-{value['price-hi']}"
        sort = self.query_one("#sort", Select).value
        if sort != "default":
            arguments["sort"] = sort
        services = [s for s in SERVICES if self.query_one(f"#service-{s}", Checkbox).value]
        if services:
            arguments["service"] = ",".join(services)
        return arguments

    def turn_page(self, delta: int) -> dict[str, Any]:
        page = self.query_one("#page", Input)
        current = int(page.value) if page.value.lstrip("-").isdigit() else 1
        page.value = str(max(1, current + delta))
        return self.arguments()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(self.arguments()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "search":
            event.stop()
            self.post_message(self.Submitted(self.arguments()))


@dataclass(frozen=True)
class BasketItem:
    product_id: str
    title: str
    price: Any
    shop_id: str


class BasketTable(DataTable):
    """The products to recommend, in order: shift+up/down (or u/d) moves the highlighted one, x/delete removes it."""

    DEFAULT_CSS = """
    BasketTable { height: 1fr; }
    """
    BINDINGS = [
        Binding("shift+up,u", "move(-1)", "move up"),
        Binding("shift+down,d", "move(1)", "move down"),
        Binding("x,delete", "remove", "remove"),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", **kwargs)
        self.items: list[BasketItem] = []

    def on_mount(self) -> None:
        self.add_columns("#", "product_id", "price", "shop", "title")

    def add(self, item: BasketItem) -> bool:
        if any(existing.product_id == item.product_id for existing in self.items):
            return False
        self.items.append(item)
        self._redraw(len(self.items) - 1)
        return True

    def product_ids(self) -> str:
        """The recommend_product argument: ids joined by "," with no spaces (the reference does not trim)."""
        return ",".join(item.product_id for item in self.items)

    def action_move(self, delta: int) -> None:
        row = self.cursor_row
        target = row + delta
        if 0 <= row < len(self.items) and 0 <= target < len(self.items):
            self.items[row], self.items[target] = self.items[target], self.items[row]
            self._redraw(target)

    def action_remove(self) -> None:
        if 0 <= self.cursor_row < len(self.items):
            del self.items[self.cursor_row]
            self._redraw(min(self.cursor_row, len(self.items) - 1))

    def _redraw(self, cursor: int) -> None:
        self.clear()
        for number, item in enumerate(self.items, start=1):
            self.add_row(str(number), item.product_id, cell(item.price), item.shop_id, item.title[:40])
        if self.items:
            self.move_cursor(row=max(0, cursor))
