"""`shopbench demo` (make demo): plays one task per intent, prints the episodes and the scored table."""

from __future__ import annotations

from typer.testing import CliRunner

from mcp_server.trajectory import iter_episode_files


def test_demo_plays_scores_and_prints_the_table(default_world, tmp_path):
    from shopbench.cli import app

    out = tmp_path / "demo"
    result = CliRunner().invoke(app, ["demo", "--model", "oracle", "--world", str(default_world.root),
                                      "--runs", str(out), "--max-steps", "6"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert len(list(iter_episode_files(out))) == 4
    assert "find_product → view_product_information → recommend_product → terminate" in result.output
    assert "ShoppingBench" in result.output and "oracle (uses gold answers)" in result.output
    assert "average over intents" in result.output and "1.000" in result.output
