"""A one-line list of a screen's keys, built once from its BINDINGS.

Textual's Footer rebuilds itself whenever the active bindings change (every screen switch), which cost replay a
third of the time to open an episode; a screen's own keys do not change, so a fixed line says the same for less.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import Static


class KeyHints(Static):
    DEFAULT_CSS = """
    KeyHints { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, *sources: type, **kwargs: Any) -> None:
        """`sources`: classes whose BINDINGS to list (the screen, then the app), shown keys only."""
        hints = []
        for source in sources:
            for binding in getattr(source, "BINDINGS", []):
                if isinstance(binding, Binding) and binding.show and binding.description:
                    hints.append(f"[b]{binding.key_display or _display(binding.key)}[/b] {binding.description}")
        super().__init__("  ".join(hints), markup=True, **kwargs)


def _display(keys: str) -> str:
    key = keys.split(",")[0]
    return {"escape": "esc", "question_mark": "?", "slash": "/"}.get(key, key.replace("ctrl+", "^"))
