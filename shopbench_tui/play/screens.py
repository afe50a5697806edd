"""The views of play: pick a task, shop (ShoppingBench), answer a question (QA benchmarks), and the end screen;
plus the calculator, web search and terminate dialogs. Every action becomes a tool call through `EpisodeScreen.act`;
what the app must do next goes up as a message (a task chosen, another task wanted), and a dialog answers the screen
that opened it by being dismissed with its result."""

from __future__ import annotations

import html
import random
from typing import Any, TypeVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static

from shopbench_tui.play.ask_user import AskShopperScreen, asks_user
from shopbench_tui.play.episode_screen import EpisodeScreen, ToolCall
from shopbench_tui.play.options import parse_options
from shopbench_tui.play.screen_registry import register_play_screen
from shopbench_tui.play.widgets import BasketItem, BasketTable, SearchForm
from shopbench_tui.scores import EpisodeScore
from shopbench_tui.widgets import ObservationView, ProductTable, ScoreBreakdown


class ProductPage(ModalScreen[None]):
    """A product page over the shopping screen, for a terminal too narrow to read it beside the results: the whole
    card, scrollable; any of esc, enter, v or q goes back to the results."""

    BINDINGS = [Binding("escape,enter,v,q", "dismiss", "back to the results")]
    DEFAULT_CSS = """
    ProductPage { align: center middle; }
    ProductPage > Vertical { width: 100%; height: 100%; border: thick $primary; background: $surface; padding: 0 1; }
    """

    def __init__(self, observation: Any, is_error: bool) -> None:
        super().__init__()
        self.observation, self.is_error = observation, is_error

    def compose(self) -> ComposeResult:
        with Vertical():
            yield ObservationView(self.observation, self.is_error)
            yield Label("esc, enter or v: back to the results", classes="hint")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class TaskPickerScreen(Screen):
    """Every startable task of the chosen benchmark (ids and intents only); type to filter, Enter starts one, r a
    random one (drawn with `rng`, the app's seeded generator)."""

    BINDINGS = [Binding("slash", "focus_filter", "filter"), Binding("r", "random", "random task")]
    AUTO_FOCUS = "#tasks"

    class Chosen(Message):
        """The player chose this task (a list_tasks entry): the app starts it."""

        def __init__(self, task: dict[str, Any]) -> None:
            super().__init__()
            self.task = task

    def __init__(self, tasks: list[dict[str, Any]], rng: random.Random) -> None:
        super().__init__()
        self.tasks, self.shown, self.rng = tasks, tasks, rng

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(placeholder="filter by id or intent", id="task-filter")
        table: DataTable = DataTable(cursor_type="row", zebra_stripes=True, id="tasks")
        table.add_columns("task_id", "benchmark", "task_set", "intent")
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self._fill("")

    def _fill(self, query: str) -> None:
        words = query.lower().split()
        self.shown = [t for t in self.tasks if all(w in f"{t['task_id']} {t.get('intent') or ''}".lower()
                                                   for w in words)]
        table = self.query_one("#tasks", DataTable)
        table.clear()
        for number, task in enumerate(self.shown):
            table.add_row(task["task_id"], task["benchmark"], task["task_set"], task.get("intent") or "",
                          key=str(number))
        self.sub_title = f"{len(self.shown)} tasks"

    def on_input_changed(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#tasks").focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.post_message(self.Chosen(self.shown[int(str(event.row_key.value))]))

    def action_focus_filter(self) -> None:
        self.query_one("#task-filter").focus()

    def action_random(self) -> None:
        if self.shown:
            self.post_message(self.Chosen(self.rng.choice(self.shown)))


NARROW = 120
"""Terminal width (columns) under which the shopping screen uses its narrow layout."""


@register_play_screen(name="shoppingbench")
class ShoppingScreen(EpisodeScreen):
    """A ShoppingBench episode: instruction, search form, results, product detail, basket."""

    BINDINGS = [  # the footer shows the keys of a shopping round in 80 columns; F1 lists every key
        Binding("ctrl+f", "focus_widget('q')", "search form", priority=True, show=False),
        Binding("ctrl+s", "search", "search", priority=True),
        Binding("ctrl+n", "page(1)", "next page", priority=True, show=False),
        Binding("ctrl+p", "page(-1)", "previous page", priority=True, show=False),
        Binding("ctrl+r", "focus_widget('results')", "results", priority=True, show=False),
        Binding("v", "view", "view"),
        Binding("a", "add", "add"),
        Binding("ctrl+b", "focus_widget('basket')", "basket", priority=True, show=False),
        Binding("ctrl+k", "calculator", "calc", priority=True),
        Binding("ctrl+w", "web_search", "web", priority=True),
        Binding("ctrl+e", "recommend", "recommend", priority=True),
        Binding("ctrl+t", "terminate", "terminate", priority=True),
        Binding("ctrl+o", "ask_user", "ask shopper", priority=True),
    ]

    def compose(self) -> ComposeResult:
        task = self.session.task or {}
        yield Header()
        yield self.status_bar()
        yield Static(Text(task.get("instruction", "")), id="instruction")
        with Horizontal(id="shop-main"):
            yield SearchForm()
            with Vertical(id="center"):
                yield Label("results", id="results-label")
                yield ProductTable(id="results")
                with Horizontal(id="lower"):
                    yield ObservationView(id="detail")
                    with Vertical(id="basket-column"):
                        yield Label("basket (recommend order)")
                        yield BasketTable(id="basket")
                        yield Button("Recommend (ctrl+e)", id="recommend", variant="success")
                        yield Button("Terminate (ctrl+t)", id="terminate", variant="error")
                        yield Static("", id="last-action")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#q").focus()

    def on_resize(self) -> None:
        """Below NARROW columns the search form and the basket take less room, the results keep the title (the column
        people choose by) and product pages open over the screen, where they can be read."""
        narrow = self.size.width < NARROW
        self.set_class(narrow, "-narrow")
        self.query_one("#results", ProductTable).narrow = narrow

    def action_focus_widget(self, widget_id: str) -> None:
        self.query_one(f"#{widget_id}").focus()

    def action_search(self) -> None:
        self.search(self.query_one(SearchForm).arguments())

    def action_page(self, delta: int) -> None:
        self.search(self.query_one(SearchForm).turn_page(delta))

    @on(SearchForm.Submitted)
    def submitted(self, event: SearchForm.Submitted) -> None:
        self.search(event.arguments)

    @work(exclusive=True, group="tool")
    async def search(self, arguments: dict[str, Any]) -> None:
        outcome = await self.act("find_product", arguments)
        label = self.query_one("#results-label", Label)
        table = self.query_one("#results", ProductTable)
        if outcome.is_error:
            table.show([])
            label.update(Text(f"find_product error: {outcome.text}", style="red"))
            return
        table.show(outcome.observation)
        label.update(f"results · page {arguments['page']} · {len(outcome.observation)} products · "
                     "enter/v view · a add to basket")
        if outcome.observation:
            table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "results":
            self.action_view()

    def action_view(self) -> None:
        product_id = self.query_one("#results", ProductTable).product_id_at_cursor()
        if product_id:
            self.view_product(product_id)

    @work(exclusive=True, group="tool")
    async def view_product(self, product_id: str) -> None:
        outcome = await self.act("view_product_information", {"product_ids": product_id})
        if self.has_class("-narrow"):
            self.app.push_screen(ProductPage(outcome.observation, outcome.is_error))
            return
        await self.query_one("#detail", ObservationView).show(outcome.observation, outcome.is_error)

    def action_add(self) -> None:
        table = self.query_one("#results", ProductTable)
        product_id = table.product_id_at_cursor()
        if product_id is None:
            return
        values = table.row_values(table.cursor_row)
        item = BasketItem(product_id, values.get("title", ""), values.get("price", ""), values.get("shop_id", ""))
        if self.query_one(BasketTable).add(item):
            self.notify(f"added {product_id} to the basket")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "recommend":
            self.action_recommend()
        elif event.button.id == "terminate":
            self.action_terminate()

    def action_recommend(self) -> None:
        ids = self.query_one(BasketTable).product_ids()
        if not ids:
            self.notify("the basket is empty: add products with a", severity="warning")
            return
        self.recommend(ids)

    @work(exclusive=True, group="tool")
    async def recommend(self, product_ids: str) -> None:
        outcome = await self.act("recommend_product", {"product_ids": product_ids})
        style = "red" if outcome.is_error else "green"
        self.query_one("#last-action", Static).update(Text(f"recommend_product: {outcome.text}", style=style))

    def action_calculator(self) -> None:
        self.app.push_screen(CalculatorScreen(self.act, self.query_one(BasketTable).product_ids()))

    def action_web_search(self) -> None:
        self.app.push_screen(WebSearchScreen(self.act))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ask_user is a key of conversational task sets only (play --user): hidden elsewhere."""
        return action != "ask_user" or asks_user(self.session.task)

    def action_ask_user(self) -> None:
        self.app.push_screen(AskShopperScreen(self.act))

    def action_terminate(self) -> None:
        def chosen(status: str | None) -> None:
            if status:
                self.finish_with("terminate", {"status": status})

        self.app.push_screen(TerminateScreen(), chosen)


class ToolDialog(ModalScreen[None]):
    """A dialog whose calls are steps of the episode, taken through `act` (the episode screen's); escape closes it."""

    DEFAULT_CSS = """
    ToolDialog { align: center middle; }
    ToolDialog > Vertical { width: 100; height: 90%; border: thick $primary; background: $surface; padding: 0 1; }
    ToolDialog .row { height: auto; }
    ToolDialog .row > * { width: 1fr; }
    """
    BINDINGS = [Binding("escape", "close", "close")]

    def __init__(self, act: ToolCall) -> None:
        super().__init__()
        self.act = act

    def action_close(self) -> None:
        self.dismiss(None)

    async def show_outcome(self, tool: str, arguments: dict[str, Any]) -> None:
        outcome = await self.act(tool, arguments)
        await self.query_one(ObservationView).show(outcome.observation, outcome.is_error)


class CalculatorScreen(ToolDialog):
    """calculate: an arithmetic expression, or the basket priced under a voucher."""

    def __init__(self, act: ToolCall, basket_ids: str) -> None:
        super().__init__(act)
        self.basket_ids = basket_ids

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("calculator — expression (enter computes), e.g. (120 + 89.5) * 0.8")
            yield Input(id="expression")
            yield Label("or price a cart under a voucher (ctrl+enter or the button)")
            yield Input(self.basket_ids, placeholder="product ids, comma-separated", id="cart-ids")
            with Horizontal(classes="row"):
                yield Select([("platform", "platform"), ("shop", "shop")], value="platform", allow_blank=False,
                             id="voucher-type")
                yield Select([("fixed", "fixed"), ("percentage", "percentage")], value="fixed", allow_blank=False,
                             id="discount-type")
            with Horizontal(classes="row"):
                yield Input(placeholder="threshold", type="number", id="threshold")
                yield Input(placeholder="face value (fixed)", type="number", id="face-value")
                yield Input(placeholder="discount % (percentage)", type="number", id="discount")
                yield Input(placeholder="cap", type="number", id="cap")
                yield Input(placeholder="budget", type="number", id="budget")
            yield Button("Price the cart", id="price-cart")
            yield ObservationView()

    def on_mount(self) -> None:
        self.query_one("#expression").focus()

    @on(Input.Submitted, "#expression")
    def expression(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.calculate({"expression": event.value.strip()})

    @on(Input.Submitted)
    def cart_field(self, event: Input.Submitted) -> None:
        if event.input.id != "expression":
            self.price_cart()

    @on(Button.Pressed, "#price-cart")
    def price_cart(self) -> None:
        arguments: dict[str, Any] = {
            "product_ids": self.query_one("#cart-ids", Input).value.strip(),
            "voucher_type": self.query_one("#voucher-type", Select).value,
            "discount_type": self.query_one("#discount-type", Select).value,
        }
        for field, key in (("threshold", "threshold"), ("face-value", "face_value"), ("cap", "cap"),
                           ("budget", "budget")):
            value = self.query_one(f"#{field}", Input).value.strip()
            if value:
                arguments[key] = float(value)
        discount = self.query_one("#discount", Input).value.strip()
        if discount:
            arguments["discount"] = float(discount) / 100
        self.calculate(arguments)

    @work(exclusive=True, group="tool")
    async def calculate(self, arguments: dict[str, Any]) -> None:
        await self.show_outcome("calculate", arguments)


class WebSearchScreen(ToolDialog):
    """web_search over the world's knowledge corpus."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("web search — query (enter searches)")
            with Horizontal(classes="row"):
                yield Input(id="web-q")
                yield Input("5", type="integer", id="max-results")
            yield ObservationView()

    def on_mount(self) -> None:
        self.query_one("#web-q").focus()

    @on(Input.Submitted)
    def submitted(self) -> None:
        q = self.query_one("#web-q", Input).value.strip()
        count = self.query_one("#max-results", Input).value.strip()
        if q:
            self.search({"q": q, "max_results": int(count) if count.isdigit() else 5})

    @work(exclusive=True, group="tool")
    async def search(self, arguments: dict[str, Any]) -> None:
        await self.show_outcome("web_search", arguments)


class TerminateScreen(ModalScreen[str | None]):
    """End the episode: s success, f failure, escape goes back."""

    DEFAULT_CSS = """
    TerminateScreen { align: center middle; }
    TerminateScreen > Vertical { width: 60; height: auto; border: thick $error; background: $surface; padding: 1; }
    TerminateScreen Horizontal { height: auto; }
    """
    BINDINGS = [
        Binding("s", "choose('success')", "success"),
        Binding("f", "choose('failure')", "failure"),
        Binding("escape", "choose('')", "back"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("End the task? Only your last recommendation counts.")
            with Horizontal():
                yield Button("Success (s)", id="success", variant="success")
                yield Button("Failure (f)", id="failure", variant="error")
                yield Button("Back (esc)", id="back")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose("" if event.button.id == "back" else str(event.button.id))

    def action_choose(self, status: str) -> None:
        self.dismiss(status or None)


Result = TypeVar("Result")


class AnswerOptions(Screen[Result]):
    """A question answered by its options, shared by the question screen and a study's label screen: the question
    text and the options as buttons (HTML entities decoded for reading), an option's key (A–D, 0–9) or its button
    answers, and every answer is confirmed first (one key must not end an episode by mistake; escape goes back).
    The screen says what a confirmed answer does (`answer_confirmed`)."""

    options: list[tuple[str, str]]
    """(key, text) of each option, read from the question (`parse_options`)."""

    def compose_question(self, question: str) -> ComposeResult:
        """The question, scrollable, then a button per option (read here from the question)."""
        self.options = parse_options(question)
        with VerticalScroll(id="question"):
            yield Static(Text(html.unescape(question)), id="question-text")
        with Vertical(id="options"):
            for key, text in self.options:
                yield Button(f"{key}  {html.unescape(text)}", id=f"option-{key}", classes="option")

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        key = (event.character or "").upper()
        if key and any(key == option for option, _ in self.options):
            event.stop()
            self.confirm(key)

    @on(Button.Pressed, ".option")
    def option_pressed(self, event: Button.Pressed) -> None:
        self.confirm(str(event.button.id).removeprefix("option-"))

    def confirm(self, answer: str) -> None:
        def chosen(yes: bool | None) -> None:
            if yes:
                self.answer_confirmed(answer)

        self.app.push_screen(ConfirmAnswerScreen(answer, dict(self.options).get(answer)), chosen)

    def answer_confirmed(self, answer: str) -> None:
        """What a confirmed answer (an option's key, or text as typed) does."""
        raise NotImplementedError


@register_play_screen(kind="qa")
class QuestionScreen(AnswerOptions[None], EpisodeScreen):
    """A question benchmark item: the question, its options as buttons (their keys answer), or a free-text box.
    What is submitted is the option's key or the text as typed, once confirmed (AnswerOptions)."""

    BINDINGS = [Binding("ctrl+a", "focus_answer", "answer box", priority=True)]
    reveals_answer = True

    def compose(self) -> ComposeResult:
        task = self.session.task or {}
        yield Header()
        yield self.status_bar()
        yield from self.compose_question(task.get("instruction", ""))
        yield Input(placeholder="or type your answer and press enter (confirmed, then submit_answer)", id="answer")
        yield Footer()

    def on_mount(self) -> None:
        if self.options:
            self.query_one(".option").focus()
        else:
            self.query_one("#answer").focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.confirm(event.value.strip())

    def action_focus_answer(self) -> None:
        self.query_one("#answer").focus()

    def answer_confirmed(self, answer: str) -> None:
        self.finish_with("submit_answer", {"answer": answer})


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: enter or y says yes, escape or n says no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 72; max-width: 95%; height: auto; border: thick $warning; background: $surface;
                               padding: 1 2; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS = [Binding("y", "choose(True)", "yes"), Binding("escape,n", "choose(False)", "no")]
    AUTO_FOCUS = "#yes"
    """Enter presses the focused button: the yes button, unless the player moved to the other one."""

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question), id="confirm-question")
            with Horizontal():
                yield Button(f"{self.yes} (enter/y)", id="yes", variant="primary")
                yield Button(f"{self.no} (esc/n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id == "yes")

    def action_choose(self, yes: bool) -> None:
        self.dismiss(yes)


class ConfirmAnswerScreen(ConfirmScreen):
    """Submit this answer? It ends the episode."""

    def __init__(self, answer: str, option_text: str | None = None) -> None:
        shown = f"{answer}  {html.unescape(option_text)}" if option_text else answer
        super().__init__(f"Submit this answer? It ends the episode.\n\n  {shown}", "Submit", "Back")
        self.answer = answer


class ConfirmQuitScreen(ConfirmScreen):
    """Quit with an episode running? It would be recorded as abandoned."""

    def __init__(self, steps: int, max_steps: int) -> None:
        super().__init__(f"An episode is running (step {steps}/{max_steps}). Quit now? The episode ends unfinished "
                         "and is recorded as abandoned.", "Quit", "Keep playing")


class EndScreen(Screen):
    """The episode is over: how it ended, what was recommended or answered (with the correct answer, for question
    items), and the score breakdown."""

    BINDINGS = [Binding("q", "app.quit", "quit"), Binding("n", "another", "another task")]

    class AnotherTask(Message):
        """The player wants another task: the app shows the tasks again, or quits when it was given one."""

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="end"):
            yield Static(Text("Episode over", style="bold"), id="end-title")
            yield Static(Text(self.summary), id="end-summary")
            yield Static("", id="end-answer")
            yield ScoreBreakdown("scoring…", id="end-score")
            yield Static("[dim]n: another task · q: quit[/dim]", markup=True)
        yield Footer()

    def show_score(self, score: EpisodeScore | None, note: str) -> None:
        self.query_one(ScoreBreakdown).show(score, note)

    def show_answer(self, yours: str, correct: str) -> None:
        text = Text.assemble(("your answer:    ", "bold"), yours, "\n", ("correct answer: ", "bold"), correct)
        self.query_one("#end-answer", Static).update(text)

    def action_another(self) -> None:
        self.post_message(self.AnotherTask())
