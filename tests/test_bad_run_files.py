"""Bad files in a run folder are named in one line (`FILE:LINE: problem`) and never pass silently: `score` and
`report` score the rest and exit 1 saying how many episode files of how many could not be read; a bad manifest is
refused in one line by score, report, replay and results; replay lists a directory named like an episode and does
not open an episode with a bad line; none of them shows a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from typer.testing import CliRunner

from mcp_server.trajectory import read_trajectory
from shopbench.cli import app
from shopbench_tui.replay import ReplayApp
from shopbench_tui.replay.screens import EpisodeListScreen, EpisodeScreen
from shopbench_tui.runindex import load_run


@pytest.fixture
def run_with_bad_files(tmp_path: Path, default_world) -> tuple[Path, Path, Path]:
    """Two readable episodes, one with a corrupt middle line, and a directory named like an episode file."""
    tasks, _ = official_catalog()
    run = make_run(tmp_path / "run")
    product = [t for t in tasks if t.intent == "product"][:3]
    for task in product:
        write_episode(run, task, recommend(task.targets[0].product_id))
    corrupt = sorted((run / "episodes").glob("*.jsonl"))[1]
    lines = corrupt.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:15]  # cut short in the middle of the file: not a torn last line
    corrupt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    folder = run / "episodes" / "x.jsonl"
    folder.mkdir()
    return run, corrupt, folder


def _one_line_each(output: str, *names: Path) -> None:
    for name in names:
        matching = [line for line in output.splitlines() if str(name) in line]
        assert len(matching) == 1 and re.search(rf"{re.escape(str(name))}:\d+: ", matching[0]), output
    assert "Traceback" not in output


def test_score_names_each_unreadable_episode_file_and_exits_1(run_with_bad_files):
    run, corrupt, folder = run_with_bad_files
    outcome = CliRunner().invoke(app, ["score", str(run), "--json", str(run.parent / "scores.json")])
    assert outcome.exit_code == 1, outcome.output
    assert "2 of 4 episode files could not be read" in outcome.output
    _one_line_each(outcome.output, corrupt, folder)
    assert f"{corrupt}:3: not valid JSON" in outcome.output and f"{folder}:1: is a directory" in outcome.output
    assert (run.parent / "scores.json").is_file()  # the readable episodes are still scored and written


def test_report_writes_the_report_says_what_it_could_not_read_and_exits_1(run_with_bad_files):
    run, corrupt, folder = run_with_bad_files
    out = run.parent / "report"
    outcome = CliRunner().invoke(app, ["report", str(run), "--out", str(out)])
    assert outcome.exit_code == 1, outcome.output
    assert "2 of 4 episode files could not be read" in outcome.output
    _one_line_each(outcome.output, corrupt, folder)
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "2 of 4 episode files could not be read" in markdown and f"{corrupt}:3:" in markdown


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", ["score", "report", "replay", "results"])
def test_a_bad_manifest_is_refused_in_one_line_naming_file_and_line(tmp_path, command):
    run = make_run(tmp_path / "run")
    manifest = run / "manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"kind": "model"', '"kind": "robot"'),
                        encoding="utf-8")
    line = next(n for n, text in enumerate(manifest.read_text().splitlines(), 1) if '"agent"' in text)
    arguments = [command, str(run)] + (["--out", str(tmp_path / "report")] if command == "report" else [])
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 2, (outcome.output, outcome.exception)
    assert f"{manifest}:{line}: agent.kind: Input should be" in outcome.output, outcome.output
    assert outcome.output.strip().count("\n") == 0 and "Traceback" not in outcome.output


def test_replay_lists_unreadable_files_instead_of_failing(run_with_bad_files):
    run, corrupt, folder = run_with_bad_files
    (run / "episodes" / "y.jsonl").write_bytes(b"\xff\xfe not an event\n")
    index = load_run(run)
    assert len(index.episodes) == 3  # the corrupt one's first and last lines are fine: listed, checked when opened
    assert sorted(index.problems) == sorted([f"{folder}:1: is a directory, not an episode file",
                                             f"{run / 'episodes' / 'y.jsonl'}:1: not a start event: not valid UTF-8 "
                                             "(byte 0xff at column 1)"]), index.problems


async def test_replay_does_not_open_an_episode_with_a_bad_line_and_says_where(run_with_bad_files):
    run, corrupt, _ = run_with_bad_files
    with pytest.raises(ValueError, match=re.escape(f"{corrupt}:3: ")):
        read_trajectory(corrupt)
    app_ = ReplayApp([run], score=False)
    async with app_.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app_.screen
        assert isinstance(screen, EpisodeListScreen)
        bad = next(e for e in screen.shown if e.path == corrupt)
        app_.open_episode(bad)
        await pilot.pause()
        assert isinstance(app_.screen, EpisodeListScreen)
        assert any(f"{corrupt}:3:" in str(n.message) for n in app_._notifications)
        app_.open_episode(next(e for e in screen.shown if e.path != corrupt))
        await pilot.pause()
        assert isinstance(app_.screen, EpisodeScreen)
