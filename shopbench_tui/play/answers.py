"""How the end screen writes an answer: the option's text beside its key (the correct answer itself is looked up by
benchmarks.gold from the benchmark's own items, only after the episode has ended)."""

from __future__ import annotations

import html


def with_option(answer: str, options: list[tuple[str, str]]) -> str:
    """`1 · 32 ounces` when the answer is an option's key, else the answer as it is."""
    text = dict(options).get(answer.strip().upper()) or dict(options).get(answer.strip())
    return f"{answer} · {html.unescape(text)}" if text else answer
