""""Did you mean" for a name chosen from a list (a benchmark, a model provider, an agent, a task group, a prompting):
every refusal of a mistyped name offers the close ones the same way."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, choices: Iterable[str], *, n: int = 2) -> str:
    """` Did you mean 'a' or 'b'?` (with its leading space, to follow a sentence) for the choices close to `name`,
    or "" when none is."""
    close = difflib.get_close_matches(name, list(choices), n=n, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
