"""The options several commands take are declared once (shopbench/options.py): each says the same thing in every
command's --help."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import typer

from shopbench.cli import app

SHARED = ("--world", "--tasks", "--max-steps", "--items", "--prompting", "--shots", "--runs", "--seed",
          "--concurrency", "--n-gpu-layers", "--n-ctx", "--no-cache", "--embedder", "--fresh", "--agent-name",
          "--agent-kind")


def _commands(command: Any, path: str = "shopbench") -> dict[str, Any]:
    """Every command and group under `command` (typer's own click), by its command line."""
    found = {path: command}
    for name, sub in getattr(command, "commands", {}).items():
        found |= _commands(sub, f"{path} {name}")
    return found


def test_a_shared_option_has_one_help_text_in_every_command():
    helps: dict[str, dict[str, str]] = defaultdict(dict)
    for path, command in _commands(typer.main.get_command(app)).items():
        for parameter in command.params:
            if parameter.param_type_name == "option":
                for flag in [*parameter.opts, *parameter.secondary_opts]:
                    helps[flag][path] = parameter.help or ""
    assert len(helps["--world"]) >= 10  # run, serve, play, demo, score, report, compare, export, replay, results, ...
    differing = {flag: sorted(set(helps[flag].values())) for flag in SHARED if len(set(helps[flag].values())) > 1}
    assert not differing, differing
    assert all(helps[flag] for flag in SHARED), [flag for flag in SHARED if not helps[flag]]
