"""One module per `shopbench` subcommand; each exposes `register(app: typer.Typer)`. Helpers they share are here."""

from __future__ import annotations

VERBOSE = "shopbench.verbose"
"""Key in Click's context meta (shared by a command and its group): show a bug's traceback (shopbench.cli)."""


def error_message(error: BaseException) -> str:
    """The text a command prints when it refuses with `error`. `str()` of a KeyError is the repr of its message, so
    only that quoting is taken off; any other message is kept whole (one ending in a quoted value keeps its closing
    quote: `got '0/2'`, `not 'xyz'`)."""
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    return str(error)
