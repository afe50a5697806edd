"""One environment in fact: the same question item played by `shopbench run`, by an outside MCP client over stdio and
by a person in the TUI is recorded identically — the trajectories differ only in agent identity and times."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from evaluators.models import ModelAPI, ModelOutput, register_backend
from mcp_server.episode_client import EpisodeClient
from mcp_server.trajectory import AgentInfo, iter_episode_files, read_trajectory
from shopbench_tui.play import PlayApp
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.screens import EndScreen, QuestionScreen

BENCHMARK, ITEM, ANSWER = "shopping-mmlu", "sample-00", "1"
VOLATILE = {"started_at", "ended_at", "agent", "episode_id", "usage"}
"""What may differ between players: who played, when, under which episode id, and what their model calls cost."""


class AnswersOne(ModelAPI):
    """A model that answers every question with "1" (the correct option of sample-00)."""

    spec = "answers-one"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        return ModelOutput(text=ANSWER, model="answers-one")


@register_backend("answers-one", needs_argument=False, help="test model: always answers 1")
def _answers_one(rest: str, options: Any) -> ModelAPI:
    return AnswersOne()


def _events(run_dir: Path) -> list[dict[str, Any]]:
    (path,) = iter_episode_files(run_dir)
    trajectory = read_trajectory(path)
    events = [trajectory.start, *trajectory.steps, trajectory.end]
    return [event.model_dump(mode="json", exclude=VOLATILE) for event in events if event is not None]


async def _by_stdio_client(runs: Path) -> None:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "shopbench.cli", "serve", "--transport", "stdio", "--benchmark", BENCHMARK, "--runs", str(runs)],
        env=dict(os.environ),
    )
    async with Client(server, read_timeout_seconds=120) as session:
        client = EpisodeClient(session)
        await client.start(ITEM, benchmark=BENCHMARK, agent=AgentInfo(kind="mcp-client", name="stdio-test"))
        reply = await client.call("submit_answer", {"answer": ANSWER})
        assert reply.ended and reply.status is not None and reply.status.end_reason == "submitted"


async def _in_the_tui(runs: Path) -> None:
    app = PlayApp(build_play_server(BENCHMARK, runs), runs, player="ana", benchmark=BENCHMARK, task_id=ITEM,
                  clock=lambda: 0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(400):
            if isinstance(app.screen, QuestionScreen):
                break
            await pilot.pause(0.05)
        await pilot.press(ANSWER)
        await pilot.pause(0.2)
        await pilot.press("enter")  # the answer is confirmed before it is submitted
        for _ in range(400):
            if isinstance(app.screen, EndScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, EndScreen)


def _by_run_command(runs: Path) -> None:
    from shopbench.cli import app

    result = CliRunner().invoke(app, ["run", BENCHMARK, "--model", "answers-one", "--out", str(runs),
                                      "--task-id", ITEM, "--no-cache"])
    assert result.exit_code == 0, result.output


async def test_a_question_is_recorded_identically_by_every_player(tmp_path: Path) -> None:
    await anyio.to_thread.run_sync(_by_run_command, tmp_path / "run")  # the CLI runs its own event loop
    await _by_stdio_client(tmp_path / "stdio")
    await _in_the_tui(tmp_path / "tui")
    run, stdio, tui = (_events(tmp_path / name) for name in ("run", "stdio", "tui"))
    assert [event["event"] for event in run] == ["start", "step", "end"]
    assert run[1]["tool"] == "submit_answer" and run[2]["answer"] == ANSWER and run[2]["status"] == "submitted"
    assert stdio == run
    assert tui == run
    kinds = {name: read_trajectory(iter_episode_files(tmp_path / name)[0]).start.agent.kind
             for name in ("run", "stdio", "tui")}
    assert kinds == {"run": "model", "stdio": "mcp-client", "tui": "human"}
