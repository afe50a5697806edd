"""One voice for errors: Click's usage errors read as one `error:` line like every refusal a command prints itself,
and a name chosen from a list (agent, benchmark, model provider, task group, prompting) that is mistyped is answered
with the names it could have been."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.errors import BadInput
from shopbench.cli import app


def _lines(*args: str) -> tuple[int, list[str]]:
    """The command's exit code and non-blank output lines. An API client an earlier test in this process left open is
    collected first: the OpenAI/Anthropic SDKs close such a client from its finaliser in whatever event loop runs
    then, so collected during the command it would log "Task exception was never retrieved" into the output."""
    gc.collect()
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


@pytest.mark.parametrize(("args", "says"), [
    (["replay", "no/such/run"], "error: Invalid value for RUNS: no/such/run: no such run directory"),
    (["run", "intentionqa"], "error: Missing option '--model' / '-m'. (see shopbench run --help)"),
    (["compare", "--metric", "ASR", "a", "b"], "error: No such option: --metric (see shopbench compare --help)"),
    (["nosuch"], "error: No such command 'nosuch'. (see shopbench --help)"),
])
def test_a_usage_error_is_one_line_not_a_box(args, says):
    code, lines = _lines(*args)
    assert code == 2 and lines == [says], lines


def test_help_still_shows_the_usage():
    code, lines = _lines("run", "--help")
    assert code == 0 and any("Usage:" in line for line in lines)


@pytest.mark.parametrize(("args", "says"), [
    (["--agent", "claude", "--model", "openai:gpt-4.1"], "unknown agent 'claude'. Did you mean 'claude-code'?"),
    (["--model", "randm"], "unknown model provider 'randm' in 'randm'. Did you mean 'random'?"),
    (["--model", "random", "--prompting", "cott"], "not 'cott'. Did you mean 'cot' or 'cot-sc'?"),
    (["--model", "random", "--intent", "tsk1"], "no task group 'tsk1' in intentionqa/official. Did you mean 'task1' or "
     "'task2'?"),
])
def test_a_mistyped_name_gets_did_you_mean(tmp_path: Path, args, says):
    out = tmp_path / "run"
    code, lines = _lines("run", "intentionqa", *args, "--limit", "1", "--out", str(out))
    assert code == 2 and len(lines) == 1 and says in lines[0], lines
    assert not out.exists()


def test_a_mistyped_benchmark_gets_did_you_mean(tmp_path: Path):
    code, lines = _lines("run", "intentionq", "--model", "random", "--out", str(tmp_path / "run"))
    assert code == 2 and "Did you mean 'intentionqa'?" in " ".join(lines), lines


def test_a_bug_says_it_is_a_bug_and_verbose_shows_its_traceback(tmp_path: Path, monkeypatch):
    """A KeyError of no refusal of ours is a bug: one line saying so (exit 70), its traceback with --verbose (run's
    own, or shopbench's before the command); a refusal is one line (exit 2), even one wrapped in a task group's
    exception group, and so is a missing task set."""
    import evaluators.harness.run as harness_run

    async def broken(*args: object, **kwargs: object) -> None:
        return {}["episode"]

    args = ["run", "intentionqa", "--model", "random", "--out", str(tmp_path / "run")]
    monkeypatch.setattr(harness_run, "run_benchmark", broken)
    code, lines = _lines(*args)
    assert code == 70 and lines == ["shopbench hit a bug: KeyError: 'episode'; rerun as `shopbench --verbose run ...` "
                                    "for the traceback, and please report it"], lines
    for verbose in ([*args, "--verbose"], ["--verbose", *args]):
        shown = CliRunner().invoke(app, verbose)
        assert isinstance(shown.exception, KeyError) and shown.exit_code == 1, verbose

    async def grouped(*args: object, **kwargs: object) -> None:  # a refusal that came out of a task group
        raise ExceptionGroup("unhandled errors in a TaskGroup", [BadInput("the scales are closed today")])

    monkeypatch.setattr(harness_run, "run_benchmark", grouped)
    code, lines = _lines(*args)
    assert code == 2 and lines == ["error: the scales are closed today"], lines
    monkeypatch.undo()
    code, lines = _lines("run", "shoppingbench", "--model", "random", "--tasks", "nope", "--out", str(tmp_path / "s"))
    assert code == 2 and lines[-1].startswith("error: no task set 'nope' in world"), lines


@pytest.mark.parametrize(("args", "says"), [
    (["serve", "--benchmark", "intentionq"], "shopbench serve: no benchmark 'intentionq'. Did you mean 'intentionqa'?"),
    (["play", "--benchmark", "intentionqa", "--player", "ana", "--prompting", "cott"], "shopbench play: "
     "intentionqa supports --prompting zero-shot, cot, cot-sc; not 'cott'"),
    (["study", "create", "{tmp}/s", "--kind", "survey"], "shopbench study: --kind is baseline, annotation or rating, "
     "not 'survey'"),
])
def test_serve_play_and_study_refuse_bad_input_in_one_line_and_call_a_bug_a_bug(tmp_path: Path, monkeypatch, args,
                                                                                 says):
    """What the user got wrong is one line and exit 2; the same command stopped by an internal KeyError (the
    environment opener, the play server, the study maker broken) says it hit a bug, exit 70 — never `error: 'x'`."""
    import evaluators.studies.create as study_create
    import mcp_server.environment as environment
    import shopbench_tui.play.runner as play_runner

    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    code, lines = _lines(*args)
    assert code == 2 and len(lines) == 1 and lines[0].startswith(says), lines

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("internal")

    for module, name in ((environment, "open_environment"), (play_runner, "build_play_server"),
                         (study_create, "create_baseline")):
        monkeypatch.setattr(module, name, broken)
    valid = {"serve": ["serve", "--benchmark", "intentionqa"], "play": ["play", "--benchmark", "intentionqa",
                                                                        "--player", "ana"],
             "study": ["study", "create", str(tmp_path / "b"), "--benchmark", "intentionqa"]}[args[0]]
    code, lines = _lines(*valid)
    assert code == 70 and len(lines) == 1, lines
    assert lines[0].startswith(f"shopbench hit a bug: KeyError: 'internal'; rerun as `shopbench --verbose {args[0]} ")
