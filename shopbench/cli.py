"""The `shopbench` command: the composition root that wires benchmarks, sandbox, evaluators and TUI together.

Each subcommand lives in its own module under `shopbench.commands` and exposes `register(app)`; this file only
lists them. Nothing imports this package.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="shopbench",
    help="Evaluate LLM agents and models on e-commerce benchmarks (ShoppingBench, Shopping MMLU, IntentionQA, "
    "SessionIntentBench).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)

COMMAND_MODULES: tuple[str, ...] = (
    "schema",
    "score",
    "report",
    "compare",
    "export",
    "world",
    "serve",
    "demo",
    "run",
    "merge",
    "replay",
    "results",
    "play",
    "generate",
)
"""Modules of shopbench.commands, each with `register(app)`. Heavy imports stay inside the command bodies."""

for _name in COMMAND_MODULES:
    importlib.import_module(f"shopbench.commands.{_name}").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
