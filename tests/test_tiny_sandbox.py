"""An agentic benchmark registered only in examples/ (examples/tiny_sandbox.py: a spec, a suite with one toy
sandbox tool, its scorer, results reader and Inspect task, a scripted solver) is run, served, played, scored,
reported and evaluated by Inspect without touching any other module."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, ModelUsage, get_model
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

import examples.tiny_sandbox as tiny
from evaluators.results.scoring import score_run
from mcp_server.episode_client import EpisodeClient, read_reply
from mcp_server.trajectory import AgentInfo, episode_path, iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app
from shopbench_tui.play import PlayApp
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.screens import EndScreen
from shopbench_tui.play.tools_screen import ToolsScreen
from shopbench_tui.widgets import ScoreBreakdown

REPO = Path(__file__).resolve().parent.parent
TARGETS = {task.task_id: task.target for task in tiny.TASKS}


def test_run_score_and_report_find_it(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    ran = runner.invoke(app, ["run", "tiny-sandbox", "--model", "tiny-solver", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    manifest = read_manifest(out)
    assert manifest.benchmark == "tiny-sandbox" and manifest.agent.kind == "baseline" and manifest.world is None
    played = {t.start.task_id: t for t in map(read_trajectory, iter_episode_files(out))}
    assert {task: t.end.answer for task, t in played.items() if t.end} == TARGETS
    assert all([s.tool for s in t.steps] == ["weigh", "weigh", "answer"] for t in played.values())
    scored = runner.invoke(app, ["score", str(out), "--json", str(tmp_path / "scores.json")])
    assert scored.exit_code == 0, scored.output
    assert json.loads((tmp_path / "scores.json").read_text())["overall"] == 1.0
    reported = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert reported.exit_code == 0, reported.output
    assert "overall: share of the three tiny tasks solved" in (tmp_path / "report" / "report.md").read_text()


async def test_served_over_stdio_it_lists_and_runs_its_own_tool(tmp_path: Path) -> None:
    runs = tmp_path / "served"
    params = StdioServerParameters(
        command=sys.executable, cwd=str(REPO), env=dict(os.environ),
        args=["-c", "import examples.tiny_sandbox; from shopbench.cli import app; app()", "serve", "--benchmark",
              "tiny-sandbox", "--runs", str(runs)])
    async with Client(params, read_timeout_seconds=120) as session:
        listed = {tool.name for tool in (await session.list_tools()).tools}
        assert {"weigh", "answer", "list_tasks", "start_task", "find_product", "submit_answer"} <= listed
        client = EpisodeClient(session)
        assert [t["task_id"] for t in await client.list_tasks()] == ["fruit-1", "fruit-2", "tools-1"]
        started = await client.start("fruit-1", agent=AgentInfo(kind="mcp-client", name="tester"))
        assert started.tools == ["weigh", "answer"] and started.kind == "agentic"
        assert (await client.call("weigh", {"item": "melon"})).observation == 1500
        elsewhere = await client.call("find_product", {"q": "melon", "page": 1})
        assert elsewhere.is_error and "not available in this episode" in elsewhere.text
        unknown = read_reply(await session.call_tool("weigh", {"item": "anvil"}))
        assert unknown.is_error and "there is no 'anvil' here" in unknown.text
        done = await client.call("answer", {"item": "melon"})
        assert done.ended and done.status.end_reason == "terminated"
    trajectory = read_trajectory(episode_path(runs, started.episode_id))
    assert trajectory.end.answer == "melon" and [s.tool for s in trajectory.steps] == ["weigh", "find_product",
                                                                                      "weigh", "answer"]
    assert score_run(runs).overall == 1.0


async def test_played_in_the_tui_on_the_tools_screen(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app_ = PlayApp(build_play_server("tiny-sandbox", runs), runs, player="ana", benchmark="tiny-sandbox",
                   task_id="tools-1", clock=lambda: 0.0)
    async with app_.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app_.screen, ToolsScreen) and bool(app_.screen.query("#arg-item")))
        app_.screen.query_one("#arg-item").value = "hammer"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "600" in str(app_.screen.query_one("#outcome").children[0].render()))
        app_.screen.query_one("#tool").value = "answer"
        await until(pilot, lambda: "heavier" in str(app_.screen.query_one("#tool-description").render()))
        app_.screen.query_one("#arg-item").value = "hammer"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app_.screen, EndScreen)
                    and app_.screen.query_one(ScoreBreakdown).score is not None)
        assert app_.screen.query_one(ScoreBreakdown).score.success
    (path,) = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    assert trajectory.start.agent.kind == "human" and trajectory.end.answer == "hammer"
    assert [(s.tool, s.arguments) for s in trajectory.steps] == [("weigh", {"item": "hammer"}),
                                                                ("answer", {"item": "hammer"})]


def test_inspect_finds_and_scores_it_as_shopbench_does(tmp_path: Path) -> None:
    from shopbench.inspect_tasks import register_tasks

    register_tasks()
    run = tmp_path / "run"
    usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)

    def play(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        """Weighs the first thing named and answers it: right only where the first is the heavier (fruit-2)."""
        asked = tiny.ASKED.search(next(m.text for m in messages if isinstance(m, ChatMessageUser)))
        assert asked is not None
        turn = sum(isinstance(m, ChatMessageAssistant) for m in messages)
        name, item = ("weigh", asked.group(1)) if turn == 0 else ("answer", asked.group(1))
        output = ModelOutput.for_tool_call("mockllm/model", name, {"item": item})
        output.usage = usage
        return output

    [log] = inspect_eval("shopbench/tiny_sandbox", model=get_model("mockllm/model", custom_outputs=play),
                         task_args={"runs": str(run)}, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    inspected = {str(sample.id): sample.scores["solved"].value for sample in log.samples}
    assert inspected == {"fruit-1": 0.0, "fruit-2": 1.0, "tools-1": 0.0}  # the first thing named: plum only
    shop = score_run(run)
    assert {task: score.score for task, score in shop.scores.items()} == inspected
    assert log.results.scores[0].metrics["accuracy"].value == shop.overall


async def until(pilot: Any, condition: Any, limit: float = 60.0) -> None:
    waited = 0.0
    while not condition():
        assert waited < limit, "the app did not get there"
        await pilot.pause(0.05)
        waited += 0.05
