"""The environment an integration's episodes play on (Inspect AI tasks, verifiers environments): opened once per
process for a benchmark, run folder and choices, so every task or environment made with them shares its world's
indexes and its server; and the run folder an integration writes to when it is given none."""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from mcp_server.environment import Environment, open_environment
from mcp_server.trajectory import AgentKind

_ENVIRONMENTS: dict[tuple[Any, ...], Environment] = {}
_LOCK = threading.Lock()


def default_runs_dir(prefix: str, benchmark: str) -> Path:
    """runs/<prefix>-<benchmark>-<time>."""
    return Path("runs") / f"{prefix}-{benchmark}-{datetime.now():%Y%m%d-%H%M%S-%f}"


def shared_environment(benchmark: str, runs_dir: str | Path, **choices: Any) -> Environment:
    """The environment of this benchmark, run folder and choices (world, task set, items, prompting, step limit, ...;
    `open_environment`'s keywords), opened on first use in this process; models play it unless a client says
    otherwise."""
    runs_dir = Path(runs_dir).expanduser().resolve()
    key = (benchmark, str(runs_dir), *sorted((name, str(value)) for name, value in choices.items()))
    with _LOCK:
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = open_environment([benchmark], runs_dir=runs_dir,
                                                  agent_defaults={"kind": AgentKind.model}, **choices)
        return _ENVIRONMENTS[key]
