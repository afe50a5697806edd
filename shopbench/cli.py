"""The `shopbench` command: the composition root that wires benchmarks, sandbox, evaluators and TUI together.

Each subcommand lives in its own module under `shopbench.commands` and exposes `register(app)`; this file only
lists them. Nothing imports this package.
"""

from __future__ import annotations

import importlib
import inspect

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
    "study",
)
"""Modules of shopbench.commands, each with `register(app)`. Heavy imports stay inside the command bodies."""



def unwrap_help(typer_app: typer.Typer) -> None:
    """Join the lines of each paragraph of every command's help. Typer's rich help keeps a docstring's line breaks,
    so text wrapped at the source's width broke mid-sentence at 80 columns; blank lines still part paragraphs."""
    for command in typer_app.registered_commands:
        text = command.help or (inspect.getdoc(command.callback) if command.callback else None)
        if text:
            command.help = "\n\n".join(" ".join(paragraph.split()) for paragraph in text.split("\n\n"))
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            unwrap_help(group.typer_instance)


for _name in COMMAND_MODULES:
    importlib.import_module(f"shopbench.commands.{_name}").register(app)
unwrap_help(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
