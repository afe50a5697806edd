"""`shopbench … --help` reads at 80 columns: a command's description flows to the terminal's width instead of
breaking where the docstring's source lines did."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from shopbench.cli import app

WIDTH = 80


def command_paths(typer_app: typer.Typer, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [(*prefix, command.name or command.callback.__name__.replace("_", "-"))
             for command in typer_app.registered_commands if command.callback is not None]
    for group in typer_app.registered_groups:
        if group.typer_instance is not None and group.name:
            paths += command_paths(group.typer_instance, (*prefix, group.name))
    return paths


@pytest.mark.parametrize("path", command_paths(app), ids=" ".join)
def test_descriptions_fill_the_line_at_80_columns(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(WIDTH)}, terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    description = result.output.split("╭")[0].splitlines()[2:]  # past the usage line and the blank after it
    for line, following in zip(description, description[1:], strict=False):
        if line.strip() and following.strip():  # a line a paragraph goes on from is (nearly) full
            assert len(line.rstrip()) + len(following.split()[0]) + 1 > WIDTH - 2, (line, following)
