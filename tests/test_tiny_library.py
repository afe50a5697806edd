"""A third agentic benchmark, registered only in examples/tiny_library.py (a spec, a suite with two desk tools, a
scorer), plugs in without touching a generic file: served over stdio to the official MCP SDK client it lists and
runs its own tools, the episode it records is scored by its own scorer, and `shopbench info` names the module each
of its parts came from."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

import examples.tiny_library as library
from evaluators.results.scoring import score_run
from mcp_server.episode_client import EpisodeClient
from mcp_server.trajectory import AgentInfo, episode_path, read_trajectory
from shopbench.cli import app

REPO = Path(__file__).resolve().parent.parent


async def test_served_over_stdio_a_loan_is_played_and_scored(tmp_path: Path) -> None:
    runs = tmp_path / "served"
    params = StdioServerParameters(
        command=sys.executable, cwd=str(REPO), env=dict(os.environ),
        args=["-c", "import examples.tiny_library; from shopbench.cli import app; app()", "serve", "--benchmark",
              library.NAME, "--runs", str(runs)])
    async with Client(params, read_timeout_seconds=120) as session:
        client = EpisodeClient(session)
        assert [t["task_id"] for t in await client.list_tasks()] == ["loan-1", "loan-2", "loan-3"]
        started = await client.start("loan-3", agent=AgentInfo(kind="mcp-client", name="clerk"))
        assert started.tools == ["find_books", "lend"] and "Toni Morrison" in started.instruction
        assert "Sula" not in started.instruction  # the target is the sandbox's to show, not the instruction's
        found = (await client.call("find_books", {"author": "Toni Morrison"})).observation
        assert {book["title"]: book["on_shelf"] for book in found} == library.CATALOGUE["Toni Morrison"]
        out = await client.call("lend", {"title": "Beloved"})
        assert out.is_error and "'Beloved' is not on the shelf" in out.text and not out.ended
        done = await client.call("lend", {"title": "Sula"})
        assert done.ended and done.status.end_reason == "terminated"
    trajectory = read_trajectory(episode_path(runs, started.episode_id))
    assert trajectory.end.answer == "Sula" and [s.tool for s in trajectory.steps] == ["find_books", "lend", "lend"]
    scored = score_run(runs)
    assert scored.to_json()["overall"] == 1.0 and scored.primary_metric == "lent"
    assert scored.episode_success() == {started.episode_id: True}


def test_info_names_the_module_each_part_came_from() -> None:
    shown = CliRunner().invoke(app, ["info", library.NAME], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "server suite DeskSuite (its own) in examples.tiny_library" in text
    assert "scorer LoanScorer (its own) in examples.tiny_library" in text
    assert "results reader ItemScoresReader (its own) in evaluators.results.reports.reading" in text
    assert "player AgentPlayer (agentic default) in evaluators.harness.players" in text
    assert "play screen ToolsScreen (agentic default) in shopbench_tui.play.tools_screen" in text
    assert all(len(line) <= 80 for line in shown.output.splitlines())
