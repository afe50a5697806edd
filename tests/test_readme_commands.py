"""The README starts where a user starts: short, the two set-up commands, and every command in it runs as written.
The cheap ones (baselines, scoring, reports) are run in order in a scratch folder; the others (a model, an installed
agent, a server, the TUI) are parsed by the command line itself, so a renamed option or command fails here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import typer
from typer.testing import CliRunner

from shopbench.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"
CHEAP = [
    "shopbench run shoppingbench --model heuristic --limit 1 --out runs/heuristic",
    "shopbench run shoppingbench --model random --limit 1 --out runs/random",
    "shopbench report runs/heuristic runs/random --out reports",
    "shopbench run intentionqa --model random --limit 2 --out runs/iqa-random",
    "shopbench score runs/heuristic --json scores.json",
    "shopbench compare runs/heuristic runs/random",
    "shopbench export sft runs/heuristic --out sft.jsonl",
]
"""Run for real, in README order (seconds each on the default world)."""
OTHER_PROGRAMS = {"make", "claude"}
"""Lines for other programs: the set-up's `make demo` / `make test`, and Claude Code's `claude mcp add`."""


def readme_commands() -> list[list[str]]:
    """Each command line of the README's bash blocks, as argv (comments dropped)."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [argv for block in blocks for line in block.splitlines() if (argv := shlex.split(line, comments=True))]


def _parse(argv: list[str]) -> None:
    """What the command line does with argv before running anything: resolve the command, check every option,
    argument and type (a path that must exist must exist)."""
    command = typer.main.get_command(app)
    context = command.make_context("shopbench", argv)
    name, args = "shopbench", list(argv)
    while hasattr(command, "resolve_command"):
        name, command, args = command.resolve_command(context, args)
        context = command.make_context(name, args, parent=context)


def test_the_readme_is_short_and_states_the_two_set_up_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 180
    setup = text.split("## Set-up: two commands", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in setup.splitlines()] == ["make demo", "make test"]
    for page in re.findall(r"\]\((docs/[A-Z_]+\.md)\)", text):  # every docs page it links exists
        assert (README.parent / page).is_file(), page


def test_every_readme_command_runs_as_written(default_world, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = readme_commands()
    ran = []
    for argv in commands:
        line = shlex.join(argv)
        if argv[0] in OTHER_PROGRAMS:
            continue
        assert argv[0] == "shopbench", line
        if line in CHEAP:
            result = CliRunner().invoke(app, argv[1:], env={"COLUMNS": "120"})
            assert result.exit_code == 0, (line, result.output)
            ran.append(line)
        else:
            _parse(argv[1:])
    assert ran == CHEAP  # each cheap command is still in the README, in this order
    assert (tmp_path / "reports" / "report.html").is_file() and (tmp_path / "sft.jsonl").is_file()
    assert len(commands) > len(CHEAP) + 5
