"""The study's own screens, around the play app's episode screens: the id or token, the texts to agree to or read,
the break before each task, the last message (thanks, or the completion code), and the labelling of an item in an
annotation study (the question screen's options and confirmation, without an episode)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Static

from evaluators.studies.annotation import LabelItem
from shopbench_tui.play.screens import AnswerOptions
from shopbench_tui.play.widgets import StatusBar


class EntryScreen(Screen[str]):
    """Your participant id or invitation token; enter goes on (a wrong one is said, and nothing is recorded)."""

    AUTO_FOCUS = "#participant"

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="study-text"):
            yield Label("Your participant id or invitation token (from your invitation), then enter")
            yield Input(id="participant", password=True)
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(event.value.strip())


class TextScreen(Screen[bool]):
    """A text to read, then yes (enter or y) or, when there is a no, no (n or escape)."""

    BINDINGS = [Binding("y", "choose(True)", "yes"), Binding("n,escape", "choose(False)", "no")]
    AUTO_FOCUS = "#yes"

    def __init__(self, title: str, text: str, yes: str = "Continue", no: str | None = None) -> None:
        super().__init__()
        self.heading, self.text, self.yes, self.no = title, text, yes, no

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="study-text"):
            yield Static(Text(self.heading, style="bold"), id="study-title")
            yield Static(Text(self.text), id="study-body")
            yield Button(f"{self.yes} (enter/y)", id="yes", variant="primary")
            if self.no:
                yield Button(f"{self.no} (n)", id="no")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_choose(event.button.id == "yes")

    def action_choose(self, yes: bool) -> None:
        if yes or self.no:
            self.dismiss(yes)


class MessageScreen(Screen[None]):
    """The end of the path (thanks, or the completion code): q leaves."""

    BINDINGS = [Binding("q", "app.quit", "quit")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.heading, self.text = title, text

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="study-text"):
            yield Static(Text(self.heading, style="bold"), id="study-title")
            yield Static(Text(self.text), id="study-body")
        yield Footer()


class LabelScreen(AnswerOptions[str]):
    """An item to label: its text, the options as buttons (their keys answer), every answer confirmed first
    (AnswerOptions) and then the screen's result; the clock runs in the status line."""

    def __init__(self, item: LabelItem, heading: str, status: StatusBar) -> None:
        super().__init__()
        self.item, self.heading, self.status = item, heading, status

    def compose(self) -> ComposeResult:
        yield Header()
        yield self.status
        yield Static(Text(self.heading, style="bold"))
        yield from self.compose_question(self.item.text)
        yield Footer()

    def on_mount(self) -> None:
        if self.options:
            self.query_one(".option").focus()

    def answer_confirmed(self, answer: str) -> None:
        self.dismiss(answer)
