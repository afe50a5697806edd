"""Installed agents on the question benchmarks, and runs named for what thinks (issue 26, items 6 and 7).

Every adapter — Claude Code, Codex and qwen-code from their pinned npm packages, and a `command:` agent — is driven
offline by the `random` question baseline on IntentionQA and Shopping MMLU: what the agent sends its model (read at
the model bridge, as the agent wrote it) offers the episode's `submit_answer` and no shopping tool, and says no
shopping rule; the answers are the built-in `random` player's, scored alike. A report over an agent run and a model
run names the agent with its model and calls a baseline-driven agent a baseline.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import evaluators.bridge._server as bridge_server
from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS
from evaluators.models import ModelAPI, ModelOutput, ToolCall, register_backend
from evaluators.players.installed import ADAPTERS
from evaluators.results.run_names import run_kind, run_name
from evaluators.results.scoring import score_run
from mcp_server.qa_suites import QA_AGENT_INSTRUCTIONS
from mcp_server.shopping.tools import SHOPPING_TOOLS
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app

HERE = Path(__file__).resolve().parent
COMMAND = f"command:{sys.executable} {HERE / '_mcp_agent.py'} {{mcp_url}} {{prompt_file}}"
AGENTS = [*ADAPTERS, COMMAND]
QUESTIONS = {"intentionqa": "task1", "shopping-mmlu": "sample_unit_conversion"}
"""Benchmark → the one task group (its first item) each run plays."""
NOT_A_QUESTION_TOOL = (*SHOPPING_TOOLS, "list_tasks", "start_task")
SHOPPING_RULE = "Use `find_product` to search"


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(app, ["run", *args], catch_exceptions=False)


def answers(run_dir: Path) -> dict[str, str | None]:
    return {(t := read_trajectory(path)).start.task_id: t.end.answer if t.end else None
            for path in iter_episode_files(run_dir)}


def scores(run_dir: Path) -> list[tuple[str, str, float | None]]:
    return [(row.group, row.metric, row.value) for row in score_run(run_dir).metric_rows()]


@pytest.fixture(scope="module")
def built_in(tmp_path_factory) -> dict[str, Path]:
    """`shopbench run BENCHMARK --model random` on each benchmark's group: what every agent run is held to."""
    runs = {}
    for benchmark, group in QUESTIONS.items():
        out = tmp_path_factory.mktemp("built-in") / benchmark
        ran = run_cli(benchmark, "--model", "random", "--intent", group, "--limit", "1", "--out", str(out),
                      "--no-cache")
        assert ran.exit_code == 0, ran.output
        runs[benchmark] = out
    return runs


@pytest.fixture
def model_requests(monkeypatch) -> list[Any]:
    """Every request an agent sent its model through the bridge, as the agent wrote it (its tool names, its prompt)."""
    seen: list[Any] = []
    original = bridge_server._Exchange.__init__

    def recording(self: Any, bridge: Any, episode: Any, wire: Any, asked: Any, began: float) -> None:
        seen.append(asked)
        original(self, bridge, episode, wire, asked, began)

    monkeypatch.setattr(bridge_server._Exchange, "__init__", recording)
    return seen


@pytest.mark.parametrize("benchmark", list(QUESTIONS))
@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: agent.partition(" ")[0].rpartition("/")[2])
def test_each_agent_answers_questions_with_the_question_tools_only(agent, benchmark, built_in, model_requests,
                                                                   tmp_path):
    out = tmp_path / "run"
    ran = run_cli(benchmark, "--agent", agent, "--model", "random", "--intent", QUESTIONS[benchmark], "--limit", "1",
                  "--out", str(out), "--no-cache", "--timeout", "120")
    assert ran.exit_code == 0, ran.output
    assert answers(out) == answers(built_in[benchmark])  # the random baseline answered through the agent
    assert scores(out) == scores(built_in[benchmark]) and scores(out)
    offered = {tool.name for request in model_requests for tool in request.tools}
    assert any(name.endswith("submit_answer") for name in offered), offered
    assert not [name for name in offered for tool in NOT_A_QUESTION_TOOL if name.endswith(tool)]
    said = "\n".join(message.content for request in model_requests for message in request.messages)
    assert SHOPPING_RULE not in said and "ShoppingBench sandbox" not in said
    for path in iter_episode_files(out):
        trajectory = read_trajectory(path)
        assert [step.tool for step in trajectory.steps] == ["submit_answer"] and trajectory.start.max_steps == 3
        prompt = (path.with_suffix(".agent") / "prompt.txt").read_text()
        assert prompt.startswith(QA_AGENT_INSTRUCTIONS) and MCP_AGENT_INSTRUCTIONS not in prompt
    manifest = read_manifest(out)
    name = "command" if agent == COMMAND else agent
    assert (run_kind(manifest.agent), run_name(manifest.agent)) == ("baseline", f"{name} · random")


def test_majority_drives_an_agent_and_the_oracle_is_refused_on_questions(tmp_path):
    out = tmp_path / "run"
    ran = run_cli("intentionqa", "--agent", COMMAND, "--model", "majority", "--intent", "task1", "--limit", "2",
                  "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    assert len(answers(out)) == 2 and all(answers(out).values())
    refused = run_cli("intentionqa", "--agent", COMMAND, "--model", "oracle", "--out", str(tmp_path / "oracle"))
    assert refused.exit_code != 0 and "oracle plays agentic benchmarks only" in refused.output


class AlwaysB(ModelAPI):
    """A model that answers every question "B" (the question player asks it with no tools)."""

    spec = "always-b"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        return ModelOutput(text="B", model=self.spec)


@register_backend("always-b", needs_argument=False, help="test model: answers B")
def _always_b(rest: str, options: Any) -> ModelAPI:
    return AlwaysB()


def test_a_report_names_the_agent_with_its_model_and_never_pairs_with_the_scripted_run(tmp_path):
    from evaluators.results.reports import load_runs, write_report
    from evaluators.results.reports.baseline import choose_baselines
    from evaluators.results.reports.plots import rate_figure
    from shopbench_tui.results.board import board_rows
    from shopbench_tui.runindex import load_run

    agent_run, model_run, agent_model_run = tmp_path / "agent", tmp_path / "model", tmp_path / "agent-model"
    for out, args in ((agent_run, ("--agent", COMMAND, "--model", "random")), (model_run, ("--model", "always-b")),
                      (agent_model_run, ("--agent", COMMAND, "--model", "always-b"))):
        ran = run_cli("intentionqa", *args, "--intent", "task1", "--limit", "2", "--out", str(out), "--no-cache")
        assert ran.exit_code == 0, ran.output
    runs = load_runs([agent_run, model_run])  # the agent's run first: the default pairing must not take it
    agent, model = runs
    assert (agent.label, agent.kind) == ("command · random", "baseline")
    assert (model.label, model.kind) == ("always-b", "model")
    assert choose_baselines(runs)["intentionqa"].run is model
    behind_agents = load_runs([agent_run, agent_model_run])  # no plain model run: the agent with a model is paired
    assert [run.kind for run in behind_agents] == ["baseline", "mcp-client"]
    assert choose_baselines(behind_agents)["intentionqa"].run is behind_agents[1]
    files = write_report(runs, tmp_path / "report")
    report = files.markdown.read_text()
    leaderboard = report.split("eaderboard", 1)[1]
    assert "command · random" in leaderboard and "Baseline for intentionqa: always-b" in report
    figure = rate_figure(runs, "accuracy")
    legend = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    assert "command · random (baseline)" in legend and "always-b (model)" in legend
    rows = [row for run in runs for row in board_rows(run) if row.primary]  # shopbench results
    assert {(row.player, row.kind) for row in rows} == {("command · random", "baseline"), ("always-b", "model")}
    replayed = load_run(agent_run)  # shopbench replay
    assert replayed.label == "command · random (agent)"
    assert {episode.player for episode in replayed.episodes} == {"baseline:command · random"}


async def test_a_reserved_address_lists_its_episode_s_tools_and_says_its_benchmark_s_instructions(default_world,
                                                                                                  tmp_path):
    """A server hosting ShoppingBench and a question benchmark: each reserved episode's address lists that episode's
    tools only and gives its suite's instructions; the plain server still lists everything (mcp_server.server)."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from mcp_server.environment import open_environment
    from mcp_server.episode_keys import episode_key
    from mcp_server.task_tools import reserve_episode
    from mcp_server.trajectory import AgentInfo
    from mcp_server.transports import episode_url, serve_reserved_episodes

    environment = open_environment(["shoppingbench", "intentionqa"], runs_dir=tmp_path / "run", world=default_world)
    state, agent = environment.server.state, AgentInfo(kind="mcp-client", name="agent")
    tasks = {suite.benchmark: listing.task_id for suite, listing in environment.selection(limit=1)}
    question = await reserve_episode(state, tasks["intentionqa"], agent=agent, benchmark="intentionqa")
    shopping = await reserve_episode(state, tasks["shoppingbench"], agent=agent, benchmark="shoppingbench")
    async with serve_reserved_episodes(environment.server) as base:
        for reservation, tools, instructions in ((question, ["submit_answer"], QA_AGENT_INSTRUCTIONS),
                                                 (shopping, list(SHOPPING_TOOLS), MCP_AGENT_INSTRUCTIONS)):
            url = episode_url(base, reservation.token)
            credential = {"Authorization": f"Bearer {episode_key(reservation.token)}"}
            async with Client(streamable_http_client(url, http_client=create_mcp_http_client(headers=credential)),
                              mode="legacy") as session:
                assert [tool.name for tool in (await session.list_tools()).tools] == tools
                assert session.instructions == instructions
    everything = [tool.name for tool in await environment.server.list_tools()]
    assert "submit_answer" in everything and "find_product" in everything and "start_task" in everything


class FumblesThenAnswers(ModelAPI):
    """Calls submit_answer without its answer, then a tool the episode lacks, then answers "A" (then says done)."""

    spec = "fumbles"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        turn = sum(1 for message in messages if message.role == "assistant" and message.tool_calls)
        calls = [("submit_answer", {}), ("view_product_information", {"product_ids": "1"}),
                 ("submit_answer", {"answer": "A"})]
        if turn >= len(calls):
            return ModelOutput(text="done", model=self.spec)
        name, arguments = calls[turn]
        return ModelOutput(tool_calls=[ToolCall(id=f"call_{turn}", name=name, arguments=arguments)], model=self.spec)


@register_backend("fumbles", needs_argument=False, help="test model: two wrong calls, then an answer")
def _fumbles(rest: str, options: Any) -> ModelAPI:
    return FumblesThenAnswers()


def test_two_wrong_calls_do_not_use_up_a_question_s_answer(tmp_path):
    out = tmp_path / "run"
    ran = run_cli("intentionqa", "--agent", COMMAND, "--model", "fumbles", "--intent", "task1", "--limit", "1",
                  "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(out)
    trajectory = read_trajectory(path)
    assert [(step.tool, step.is_error) for step in trajectory.steps] == [
        ("submit_answer", True), ("view_product_information", True), ("submit_answer", False)]
    assert trajectory.end is not None and (trajectory.end.status, trajectory.end.answer) == ("submitted", "A")
