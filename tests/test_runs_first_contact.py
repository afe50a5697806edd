"""First contact (issue 13): a run that cannot start says why in one line, exits 2 and leaves no run folder; a run
whose episodes fail reports each in one line, groups the causes, keeps the tracebacks in run.log, and stops early
when the first episodes all fail alike."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from evaluators.harness.run import LOG_FILE
from shopbench.cli import app
from tests._fake_llm import FakeLLMServer, shopping_policy


def _run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, ["run", *args])
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


def test_official_tasks_in_the_default_world_are_refused_in_one_line(default_world, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, lines = _run("shoppingbench", "--tasks", "official", "--model", "oracle", "--limit", "1", "--out", str(out))
    assert code == 2 and len(lines) <= 3, lines
    assert "official 2.5M-product corpus" in lines[0] and "shopbench world import" in lines[0]
    assert not out.exists()


def test_a_selection_of_nothing_is_refused_before_anything_starts(default_world, tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, lines = _run("shoppingbench", "--model", "oracle", "--intent", "travel", "--out", str(out))
    assert code == 2 and len(lines) == 1 and "no task group 'travel'" in lines[0] and "product, shop" in lines[0]
    code, lines = _run("intentionqa", "--model", "random", "--task-id", "task9:nope", "--out", str(out))
    assert code == 2 and len(lines) == 1 and "no task 'task9:nope' in intentionqa/official" in lines[0]
    code, lines = _run("session-intent", "--model", "random", "--resume", "--out", str(out))
    assert code == 2 and "does not exist" in lines[0]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, lines = _run("shopping-mmlu", "--model", "random", "--items", str(empty), "--out", str(out))
    assert code == 2 and len(lines) == 1, lines
    assert not out.exists()


def test_a_bad_shard_is_quoted_whole(default_world, tmp_path: Path) -> None:
    """Slurm arrays often start at 0; the refusal must show what was given, closing quote and all."""
    out = tmp_path / "run"
    code, lines = _run("shoppingbench", "--model", "random", "--shard", "0/2", "--out", str(out))
    assert code == 2 and len(lines) == 1 and lines[0].endswith("got '0/2'"), lines
    assert not out.exists()


def test_play_quotes_a_refused_option_whole(tmp_path: Path) -> None:
    """play and serve print refusals through the same helper as run: a closing quote is kept."""
    result = CliRunner().invoke(app, ["play", "--benchmark", "intentionqa", "--prompting", "xyz", "--player", "ana",
                                      "--runs", str(tmp_path / "human")])
    assert result.exit_code == 2 and result.output.strip().endswith("not 'xyz'"), result.output
    assert not (tmp_path / "human").exists()


def test_play_refuses_what_cannot_be_played(default_world, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["play", "--tasks", "official", "--runs", str(tmp_path / "human")])
    assert result.exit_code == 2 and "official 2.5M-product corpus" in result.output
    result = CliRunner().invoke(app, ["play", "--benchmark", "intentionqa", "--task", "nope", "--runs",
                                      str(tmp_path / "human")])
    assert result.exit_code == 2 and "no task 'nope'" in result.output
    assert not (tmp_path / "human").exists()


def test_failing_episodes_are_one_line_each_grouped_logged_and_stop_the_run_early(default_world,
                                                                                  tmp_path: Path) -> None:
    out = tmp_path / "run"
    with FakeLLMServer("openai", shopping_policy, script=[400] * 50) as fake:
        code, lines = _run("shoppingbench", "--model", f"openai-compatible:{fake.base_url}#broken", "--limit", "3",
                           "--out", str(out), "--no-cache")
        verbose = CliRunner().invoke(app, ["run", "shoppingbench", "--model", f"openai-compatible:{fake.base_url}#b",
                                           "--task-id", "product-0000", "--out", str(tmp_path / "v"), "--no-cache",
                                           "--verbose"])
    assert code == 1
    failures = [line for line in lines if line.startswith("warning: episode ")]
    assert len(failures) == 3 and all("failed: BadRequestError" in line for line in failures)  # then it stopped
    assert not any("Traceback" in line for line in lines)
    assert any(line.startswith("failed 3× BadRequestError") for line in lines)
    assert any(line.startswith("stopped early:") for line in lines)
    log = (out / LOG_FILE).read_text()
    assert log.count("Traceback (most recent call last)") == 3 and "BadRequestError" in log
    ended = [path.read_text() for path in (out / "episodes").glob("*.jsonl")]
    assert len(ended) == 3 and all('"status":"abandoned"' in text for text in ended)  # resumable
    assert verbose.exit_code == 1 and "Traceback" in verbose.output


def test_identical_causes_are_grouped_after_a_success(default_world, tmp_path: Path) -> None:
    out = tmp_path / "run"
    with FakeLLMServer("openai", shopping_policy, script=[None, None, None] + [400] * 20) as fake:
        code, lines = _run("shoppingbench", "--model", f"openai-compatible:{fake.base_url}#flaky", "--intent",
                           "product", "--limit", "4", "--out", str(out), "--no-cache")
    assert code == 1
    assert any(line.startswith("run: ") and "1 played" in line and "3 failed of 4" in line for line in lines), lines
    assert any(line.startswith("failed 3× BadRequestError") for line in lines)
    assert not any(line.startswith("stopped early") for line in lines)
