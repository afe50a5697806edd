"""Where shopbench keeps what it builds and caches: $SHOPBENCH_HOME, by default ~/.cache/shopbench.

Worlds, indexes' logs, the response cache, embeddings and derived model files all live under it, so one variable
moves them all (CI and the perf scripts point it at the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_HOME = "~/.cache/shopbench"


def shopbench_home() -> Path:
    """$SHOPBENCH_HOME (with ~ expanded), or ~/.cache/shopbench."""
    return Path(os.environ.get("SHOPBENCH_HOME") or DEFAULT_HOME).expanduser()
