"""`shopbench demo` (make demo): plays one task per intent, prints the episodes and the scored table in 80 columns."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from mcp_server.trajectory import iter_episode_files

README = Path(__file__).resolve().parents[1] / "README.md"


def test_demo_plays_scores_and_prints_the_table_in_80_columns(default_world, tmp_path):
    from shopbench.cli import app

    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--model", "oracle", "--world", str(default_world.root),
                                      "--runs", str(out), "--max-steps", "6"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert len(list(iter_episode_files(out))) == 4
    lines = result.output.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80, [line for line in lines if len(line.rstrip()) > 80]
    assert "find_product → view_product_information → recommend_product → terminate" in result.output
    assert "ShoppingBench" in result.output and "oracle (uses gold answers)" in result.output
    average = next(line for line in lines if "average over intents" in line)
    assert "1.000 [1.000, 1.000]" in average  # numbers whole, not cut to "1.0…" / "[1.…"
    assert not re.search(r"\d\.\d*…|\[\d?\.?…", result.output)
    assert f"shopbench score {out}" in " ".join(result.output.split())


def test_readme_and_help_describe_the_same_demo():
    from shopbench.cli import app

    help_text = " ".join(CliRunner().invoke(app, ["demo", "--help"], env={"COLUMNS": "200"}).output.split())
    readme = " ".join(README.read_text(encoding="utf-8").split())
    for claim in ("one task per intent of the default world", "--scripted"):
        assert claim in help_text and claim in readme, claim
    assert "`shopbench demo` (what `make demo` runs)" in readme
    assert "until the model runner lands" not in readme
