"""A run folder written by several agents (two servers or two MCP clients sharing one --out) is never scored as one
agent: `score` and `report` refuse it, naming each agent and its episode count, and `score --agent` scores one."""

from __future__ import annotations

import json

import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode
from typer.testing import CliRunner

from shopbench.cli import app


@pytest.fixture
def shared_run(tmp_path, default_world):
    """The manifest names model:a (the first server's agent); a second client, mcp-client:b, played 3 tasks."""
    tasks, _ = official_catalog()
    product = [t for t in tasks if t.intent == "product"][:3]
    run = make_run(tmp_path / "run", name="a")
    write_episode(run, product[0], recommend(product[0].targets[0].product_id))
    for task in product:
        write_episode(run, task, recommend("nope"), kind="mcp-client", name="b")
    return run


def test_score_refuses_a_folder_of_two_agents_and_names_them(shared_run):
    outcome = CliRunner().invoke(app, ["score", str(shared_run)])
    assert outcome.exit_code == 2, outcome.output
    text = " ".join(outcome.output.split())
    assert "episodes of 2 agents: mcp-client:b (3 episodes), model:a (1 episode)" in text, text
    assert "--agent KIND:NAME" in text and "Traceback" not in outcome.output


def test_score_agent_scores_only_that_agents_episodes(shared_run, tmp_path):
    for chosen, name, episodes in (("mcp-client:b", "b", 3), ("a", "a", 1)):
        out = tmp_path / f"{name}.json"
        outcome = CliRunner().invoke(app, ["score", str(shared_run), "--agent", chosen, "--json", str(out)])
        assert outcome.exit_code == 0, outcome.output
        scored = json.loads(out.read_text(encoding="utf-8"))
        assert scored["agent"]["name"] == name and len(scored["scores"]) == episodes
    outcome = CliRunner().invoke(app, ["score", str(shared_run), "--agent", "nobody"])
    assert outcome.exit_code == 2 and "no episode was played by 'nobody'" in outcome.output, outcome.output


def test_report_refuses_a_folder_of_two_agents(shared_run, tmp_path):
    outcome = CliRunner().invoke(app, ["report", str(shared_run), "--out", str(tmp_path / "report")])
    assert outcome.exit_code == 2 and "episodes of 2 agents" in outcome.output, outcome.output
    assert not (tmp_path / "report" / "report.md").exists()


def test_a_manifest_naming_another_agent_than_every_episode_is_refused(tmp_path, default_world):
    tasks, _ = official_catalog()
    run = make_run(tmp_path / "run", name="a")
    write_episode(run, tasks[0], recommend("nope"), name="c")
    outcome = CliRunner().invoke(app, ["score", str(run)])
    assert outcome.exit_code == 2, outcome.output
    assert "episodes of another agent than its manifest (model:a): model:c (1 episode)" in " ".join(
        outcome.output.split())
    assert CliRunner().invoke(app, ["score", str(run), "--agent", "c"]).exit_code == 0
