"""The screen of `shopbench play --as-user`: the person is the shopper. It shows their profile (what they want,
including what they keep back until asked), the agent's steps as they happen, and, when the agent asks, the
question and a field for the answer.

The screen only shows and reads: a typed answer is posted up as `AsUserScreen.Answered`, and the app (as_user.py),
which holds the run and the person's seat, calls down (`show_profile`, `show_step`, `ask`, `show_end`).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, RichLog, Static

from evaluators.users.guidelines import listed
from shopbench_tui.scores import EpisodeScore
from shopbench_tui.widgets import ScoreBreakdown

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import UserProfile

SHOWN_CHARS = 160
"""An observation is shown cut to this many characters in the step log."""


def profile_text(profile: UserProfile) -> Text:
    """The shopper's brief: what they want, what the opener already said, and what they say only when asked."""
    text = Text.assemble(("You are the shopper. ", "bold"), "You want ", ("; ".join(profile.items), "bold"), ".\n")
    text.append("You already said: ")
    text.append(listed(profile, profile.stated) or "nothing more")
    text.append("\nSay only when asked: ", style="bold")
    text.append(listed(profile, profile.held) or "nothing")
    text.append("\nAnything else: say you have no preference.", style="dim")
    return text


def step_text(step: dict[str, Any]) -> Text:
    """One agent step as a line: its number, the call, and what came back (cut short)."""
    arguments = json.dumps(step.get("arguments") or {}, ensure_ascii=False)
    observation = step.get("observation")
    shown = observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)
    if len(shown) > SHOWN_CHARS:
        shown = shown[:SHOWN_CHARS] + "…"
    line = Text.assemble((f"#{step.get('index', 0) + 1} ", "bold"))
    if step.get("thought"):
        line.append(f"{step['thought']}\n   ", style="dim italic")
    line.append(str(step.get("tool") or "?"), style="cyan")
    line.append(f" {arguments}\n   → ")
    line.append(shown, style="red" if step.get("is_error") else "")
    return line


class AsUserScreen(Screen[None]):
    """The shopper's seat: profile, the agent's steps, the question and the answer field."""

    DEFAULT_CSS = """
    AsUserScreen #profile { height: auto; border: round $secondary; padding: 0 1; }
    AsUserScreen #steps { height: 1fr; border: round $primary; }
    AsUserScreen #question { height: auto; padding: 0 1; }
    AsUserScreen #end { height: auto; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+q", "app.request_quit", "quit", priority=True)]

    class Answered(Message):
        """The person typed an answer to the agent's question."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, agent: str) -> None:
        super().__init__()
        self.agent = agent
        self.profile: UserProfile | None = None
        """The shopper's profile, once the episode has started."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(Text("Waiting for the agent to start the task…", style="dim"), id="profile")
        yield RichLog(id="steps", wrap=True, markup=False)
        yield Static(Text(f"{self.agent} is working; it may ask you something.", style="dim"), id="question")
        yield Input(placeholder="your answer (enter sends it)", id="answer", disabled=True)
        yield Static("", id="end")
        yield ScoreBreakdown("", id="score")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"you are the shopper · agent: {self.agent}"

    def show_profile(self, profile: UserProfile) -> None:
        self.profile = profile
        self.query_one("#profile", Static).update(profile_text(profile))

    def show_step(self, step: dict[str, Any]) -> None:
        self.query_one("#steps", RichLog).write(step_text(step))

    def ask(self, question: str) -> None:
        """The agent asked: show the question and hand the person the answer field."""
        self.query_one("#question", Static).update(Text.assemble(("The agent asks: ", "bold yellow"), question))
        field = self.query_one("#answer", Input)
        field.disabled = False
        field.focus()

    @on(Input.Submitted, "#answer")
    def answered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.notify("type an answer first (say you have no preference if you have none)", severity="warning")
            return
        event.input.value = ""
        event.input.disabled = True
        self.query_one("#question", Static).update(Text(f"You answered: {text}", style="dim"))
        self.post_message(self.Answered(text))

    def show_end(self, summary: str, score: EpisodeScore | None, note: str) -> None:
        field = self.query_one("#answer", Input)
        field.disabled, field.display = True, False  # nothing more to answer: the end and the score take its place
        self.query_one("#question", Static).update("")
        self.query_one("#end", Static).update(Text.assemble(("Episode over. ", "bold"), summary))
        self.query_one("#score", ScoreBreakdown).show(score, note)
