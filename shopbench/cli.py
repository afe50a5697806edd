"""The `shopbench` command: the composition root that wires benchmarks, sandbox, evaluators and TUI together.

Each subcommand lives in its own module under `shopbench.commands` and exposes `register(app)`; this file only
lists them. Nothing imports this package.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click import exceptions as click_errors  # Typer (0.29+) parses with its own copy of Click: its errors
from typer.core import TyperGroup

from benchmarks.errors import Refusal
from shopbench.commands import VERBOSE, error_message

BUG_EXIT = 70
"""Exit status of a command stopped by a bug (EX_SOFTWARE), apart from a refusal's 2 and failed episodes' 1."""


class OneLineErrors(TyperGroup):
    """Click's usage errors (a missing option, an unknown option, a bad path) as one line, `error: ...`, like every
    refusal a command prints itself, instead of Typer's five-line usage box. `--help` still shows the full usage.

    A command says the project's refusals (benchmarks.errors) in one line itself, exit 2; one it lets out is said
    here the same way. Anything else is a bug: one line saying so and how to see its traceback, exit 70; with
    `shopbench --verbose` (or `run --verbose`) the traceback itself."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        given = {"args": args, "prog_name": prog_name, "complete_var": complete_var,
                 "windows_expand_args": windows_expand_args, **extra}
        if not standalone_mode:
            return super().main(standalone_mode=False, **given)
        try:
            code = super().main(standalone_mode=False, **given)
        except click_errors.NoArgsIsHelpError as error:  # the help is printed (by Rich) when it is built
            if error.format_message():
                typer.echo(error.format_message())
            sys.exit(error.exit_code)
        except click_errors.ClickException as error:
            typer.echo(usage_error_line(error), err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except (click_errors.ClickException, typer.Exit, typer.Abort):
            raise
        except Exception as escaped:
            error = alone(escaped)
            if isinstance(error, Refusal):  # a refusal the command left to us (or one that came out of a task group)
                typer.secho(f"error: {error_message(error)}", fg=typer.colors.RED, err=True)
                raise typer.Exit(2) from None
            if ctx.meta.get(VERBOSE):
                raise
            command = ctx.invoked_subcommand or "COMMAND"
            typer.secho(f"shopbench hit a bug: {type(error).__name__}: {error}; rerun as `shopbench --verbose "
                        f"{command} ...` for the traceback, and please report it", fg=typer.colors.RED, err=True)
            raise typer.Exit(BUG_EXIT) from None


def alone(error: Exception) -> Exception:
    """The one exception inside an exception group of one (anyio's task groups wrap what their tasks raise)."""
    while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def usage_error_line(error: click_errors.ClickException) -> str:
    """`error: <Click's message>` on one line; a usage mistake (not a value a command refused) names the command's
    --help."""
    line = f"error: {' '.join(error.format_message().split())}"
    context = getattr(error, "ctx", None)
    if isinstance(error, click_errors.UsageError) and context is not None and (
            type(error) is not click_errors.BadParameter):
        line += f" (see {context.command_path} --help)"
    return line


app = typer.Typer(
    name="shopbench",
    help="Evaluate LLM agents and models on e-commerce benchmarks (ShoppingBench, Shopping MMLU, IntentionQA, "
    "SessionIntentBench).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    cls=OneLineErrors,
)

@app.callback()
def options(ctx: typer.Context, verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show a bug's traceback (a command that hits one says so in a line).")) -> None:
    # The options before a command (the app's help is the Typer's).
    ctx.meta[VERBOSE] = verbose


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
    "info",
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
