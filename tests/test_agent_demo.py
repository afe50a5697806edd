"""`shopbench demo` (make demo): plays one task per intent, prints the episodes, then one leaderboard of the model
beside the scripted baselines on the same tasks, how to read it and what to try next, in 80 columns; `shopbench run`
ends with the headline scores `shopbench score` prints."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from mcp_server.trajectory import iter_episode_files, read_trajectory
from shopbench.commands.demo import DEMO_BASELINES

README = Path(__file__).resolve().parents[1] / "README.md"


def test_demo_plays_and_ranks_the_model_beside_the_baselines_in_80_columns(default_world, tmp_path):
    from shopbench.cli import app

    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--model", "random", "--world", str(default_world.root),
                                      "--runs", str(out), "--max-steps", "6"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert len(list(iter_episode_files(out))) == 4
    tasks = {read_trajectory(path).start.task_id for path in iter_episode_files(out)}
    for name in DEMO_BASELINES:  # the same four tasks
        assert {read_trajectory(p).start.task_id for p in iter_episode_files(out / "baselines" / name)} == tasks
    lines = result.output.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80, [line for line in lines if len(line.rstrip()) > 80]
    board = lines[next(i for i, line in enumerate(lines) if line.startswith("Leaderboard · shoppingbench · ASR")):]
    board = board[next(i for i, line in enumerate(board) if line.split()[:2] == ["#", "run"]):]
    board = board[:next(i for i, line in enumerate(board) if not line.strip())]
    ranked = [line.split() for line in board if re.match(r"\s*\d+\s+\w", line)]
    assert ranked[0][:2] == ["1", "oracle"] and "1.00 [1.00, 1.00]" in " ".join(ranked[0])
    assert {row[1] for row in ranked} == {"random", "oracle", "heuristic", "naive"}
    assert len(ranked) == 5  # the model's run (random here) and its namesake baseline both listed
    assert not re.search(r"\d\.\d*…|\[\d?\.?…", result.output)  # numbers whole, not cut to "1.0…" / "[1.…"
    text = " ".join(result.output.split())
    assert "How to read it: oracle reads the gold answers" in text
    assert f"shopbench replay {out}" in text and "--agent codex --model heuristic" in text


def test_readme_and_help_describe_the_same_demo():
    from shopbench.cli import app

    help_text = " ".join(CliRunner().invoke(app, ["demo", "--help"], env={"COLUMNS": "200"}).output.split())
    readme = " ".join(README.read_text(encoding="utf-8").split())
    for claim in ("one task per intent of the default world", "--scripted"):
        assert claim in help_text and claim in readme, claim
    assert "`shopbench demo` (what `make demo` runs)" in readme
    assert "until the model runner lands" not in readme


def test_run_ends_with_the_scores_score_prints(tmp_path):
    from shopbench.cli import app

    out = tmp_path / "run"
    ran = CliRunner().invoke(app, ["run", "intentionqa", "--model", "random", "--limit", "2", "--out", str(out)],
                             env={"COLUMNS": "80"})
    assert ran.exit_code == 0, ran.output
    scored = CliRunner().invoke(app, ["score", str(out)], env={"COLUMNS": "80"})
    headline = {line.split("│")[1].strip(): line.split("│")[2].split()[0] for line in ran.output.splitlines()
                if line.count("│") == 4}
    assert headline == {"task1": "0.500", "task2": "0.500", "difficulty:medium": "0.500", "overall": "0.500"}
    for group, value in headline.items():  # score prints the same numbers (to four digits)
        row = next(line for line in scored.output.splitlines() if line.startswith(f"│ {group} "))
        assert f"{float(value):.4f}"[:5] in row


def test_score_at_80_columns_cuts_no_number(default_world, tmp_path):
    from shopbench.cli import app

    out = tmp_path / "run"
    ran = CliRunner().invoke(app, ["run", "shoppingbench", "--model", "heuristic", "--limit", "1", "--out", str(out),
                                   "--world", str(default_world.root)])
    assert ran.exit_code == 0, ran.output
    scored = CliRunner().invoke(app, ["score", str(out)], env={"COLUMNS": "80"})
    assert scored.exit_code == 0, scored.output
    assert max(len(line.rstrip()) for line in scored.output.splitlines()) <= 80
    assert not re.search(r"\d\.\d*…|\[\d?\.?…|…\d", scored.output), scored.output  # no "1.0…", "[1.…"
    lines = scored.output.splitlines()
    assert any(re.match(r"\s*average over intents\s+4\s+\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]", line) for line in lines)
    assert any(line.split()[:3] == ["intent", "id", "title"] for line in lines)  # the per-constraint means, whole
