"""What a backend with a small context window may do to tool results it did not write: the generic trimming hook.

A local model's prompt must fit its context window, and a small model reads every token on a slow CPU, so the
llama.cpp backend shows observations compactly and summarises old ones to fit. What in an observation is worth
keeping is known to whoever wrote it, not to the backend: the agent protocol hands the backend its `ContextHints`
(through ModelOptions.hints). These defaults know nothing of any benchmark: observations are shown as they are,
summarised to their first characters, and the tool list gets no worked example.
"""

from __future__ import annotations

from evaluators.models.base import ToolSpec

SUMMARY_CHARS = 160
"""A summarised observation keeps this many of its first characters (when the hints know nothing better)."""


class ContextHints:
    name = "plain"
    """Recorded in the backend's identity: the same chat is rendered differently under other hints."""

    def show(self, content: str) -> str:
        """An observation as the model reads it in full."""
        return content

    def summarise(self, content: str) -> str:
        """A short stand-in for an old observation (`content` as `show` wrote it)."""
        return first_characters(content)

    def example(self, tools: list[ToolSpec]) -> str | None:
        """A worked first reply to add to the tool list's description, or None."""
        return None


def first_characters(content: str) -> str:
    """The observation's first SUMMARY_CHARS characters, whitespace collapsed."""
    flat = " ".join(content.split())
    return flat[:SUMMARY_CHARS] + ("…" if len(flat) > SUMMARY_CHARS else "")
