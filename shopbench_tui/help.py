"""The help screen: every key the current view answers to, read from the live bindings (so it never goes stale)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from shopbench_tui.widgets.tables import grid

HELP_AND_QUIT = (Binding("question_mark,f1", "help", "help"), Binding("q", "quit", "quit"))
"""The keys of the apps that read runs (replay, results): ? or f1 shows the help screen, q quits."""


def show_help(app: App, title: str, notes: str) -> None:
    """The help screen of `app` (`title`, the keys it answers to now, `notes`), unless it is showing already."""
    if not isinstance(app.screen, HelpScreen):
        app.push_screen(HelpScreen(title, current_keys(app), notes))


def current_keys(app: App) -> list[tuple[str, str]]:
    """(key, what it does) for every shopbench binding active now, focused widget first, app last. Textual's own
    keys (cursor movement, text editing, copy) are the usual ones and are left out."""
    keys = []
    for active in app.active_bindings.values():
        if active.binding.description and _declared_by_shopbench(active.node, active.binding):
            keys.append((app.get_key_display(active.binding), active.binding.description))
    return keys


def _declared_by_shopbench(node: object, binding: Binding) -> bool:
    for cls in type(node).__mro__:
        for declared in cls.__dict__.get("BINDINGS", []):
            key, action = (declared.key, declared.action) if isinstance(declared, Binding) else declared[:2]
            if action == binding.action and binding.key in key.split(","):
                return cls.__module__.startswith("shopbench_tui")
    return False


class HelpScreen(ModalScreen[None]):
    """Lists keys; any of escape, q or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 70; height: auto; max-height: 90%; border: thick $primary; background: $surface;
                            padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss_help", "close help")]

    def __init__(self, title: str, keys: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.title_text, self.keys, self.notes = title, keys, notes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{self.title_text}[/b] — keys", markup=True)
            yield Static(grid(["key", "action"], self.keys))
            if self.notes:
                yield Static(self.notes)
            yield Static("[dim]escape closes · the mouse works everywhere too[/dim]", markup=True)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
