"""`shopbench run BENCHMARK --agent NAME` (issue 20): real installed agents — Claude Code, Codex CLI and qwen-code
from their pinned npm packages (installed on first use into $SHOPBENCH_HOME/agents, kept between test sessions),
and a `command:` agent (tests/_mcp_agent.py, a small MCP client) — play offline against the model bridge, the
scripted baselines driving them, on the default world.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evaluators.harness.orchestrate import PARTIAL_DIR, transcript_dir
from evaluators.models import ModelAPI, ModelOutput, TokenUsage, ToolCall, register_backend
from evaluators.players.installed import ADAPTERS
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app

HERE = Path(__file__).resolve().parent
COMMAND = f"command:{sys.executable} {HERE / '_mcp_agent.py'} {{prompt_file}}"
AGENTS = [*ADAPTERS, COMMAND]
VERSIONS = {"claude-code": "2.1.332", "codex": "0.169.0", "qwen-code": "0.24.4"}


def run_cli(*args: str) -> Any:
    result = CliRunner().invoke(app, ["run", *args], catch_exceptions=False)
    return result


def steps_by_task(run_dir: Path) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {(t := read_trajectory(path)).start.task_id: [(s.tool, s.arguments) for s in t.steps]
            for path in iter_episode_files(run_dir)}


def asr_by_intent(run_dir: Path) -> dict[str, float | None]:
    return {row.group: row.value for row in score_run(run_dir).metric_rows() if row.metric == "ASR"}


@pytest.fixture(scope="module")
def built_in(default_world, tmp_path_factory):
    """`shopbench run shoppingbench --model heuristic --limit 1`: what every agent run is held to."""
    out = tmp_path_factory.mktemp("built-in") / "run"
    ran = run_cli("shoppingbench", "--model", "heuristic", "--limit", "1", "--world", str(default_world.root),
                  "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    return out


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: agent.partition(" ")[0].rpartition("/")[2])
def test_each_agent_plays_the_heuristic_exactly_as_the_built_in_loop(agent, built_in, default_world, tmp_path):
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", agent, "--model", "heuristic", "--limit", "1", "--world",
                  str(default_world.root), "--out", str(out), "--no-cache", "--concurrency", "4", "--timeout", "120")
    assert ran.exit_code == 0, ran.output
    assert asr_by_intent(out) == asr_by_intent(built_in)
    assert steps_by_task(out) == steps_by_task(built_in)  # the agent carried every call of the script, unchanged
    name = "command" if agent == COMMAND else agent
    manifest = read_manifest(out)
    assert (manifest.agent.kind, manifest.agent.name) == ("baseline", name)  # driven by the heuristic: a baseline
    assert manifest.parameters["agent"] == name and manifest.parameters["model"] == "heuristic"
    for path in iter_episode_files(out):
        trajectory = read_trajectory(path)
        assert trajectory.start.agent == manifest.agent
        assert trajectory.start.agent.details["version"] == VERSIONS.get(name, manifest.agent.details["version"])
        assert trajectory.end is not None and trajectory.end.status == "terminated"
        transcript = transcript_dir(out, path.stem)
        summary = json.loads((transcript / "agent.json").read_text())
        assert summary["exit"]["reason"] in ("exited", "episode_over") and summary["bridge"]["calls"] >= 1
        assert (transcript / "stdout.jsonl").stat().st_size > 0 and (transcript / "prompt.txt").exists()
        assert trajectory.start.instruction in (transcript / "prompt.txt").read_text()
        if name != "command":
            assert list((transcript / "session").glob("*.jsonl")), "the agent's own session transcript"


class AsksForShell(ModelAPI):
    """Asks for the agent's own shell tool (named in the spec), then terminates; keeps what the agent answered."""

    answers: list[str] = []

    def __init__(self, tool: str) -> None:
        self.spec, self.tool = f"asks-for-shell:{tool}", tool

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        turn = sum(1 for message in messages if message.role == "assistant" and message.tool_calls)
        if turn == 0:
            command = {"command": f"touch {os.environ['SHOPBENCH_TEST_PWNED']}"}
            return ModelOutput(tool_calls=[ToolCall(id="shell", name=self.tool, arguments=command)], model=self.spec)
        if turn == 1:
            AsksForShell.answers.append(next(m.content for m in messages if m.role == "tool"))
            return ModelOutput(tool_calls=[ToolCall(id="end", name="terminate", arguments={"status": "failure"})],
                               model=self.spec)
        return ModelOutput(text="done", model=self.spec)


@register_backend("asks-for-shell", needs_argument=True, help="test model: asks for a shell tool, then terminates")
def _asks_for_shell(rest: str, options: Any) -> ModelAPI:
    return AsksForShell(rest)


@pytest.mark.parametrize("agent", list(ADAPTERS))
def test_each_agent_refuses_its_own_shell_tool(agent, default_world, tmp_path, monkeypatch):
    pwned = tmp_path / "pwned"
    monkeypatch.setenv("SHOPBENCH_TEST_PWNED", str(pwned))
    from evaluators.players.installed import get_adapter

    shell = get_adapter(agent).shell_tool
    AsksForShell.answers.clear()
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", agent, "--model", f"asks-for-shell:{shell}", "--task-id",
                  "product-0000", "--world", str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(out)
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps] == ["terminate"]  # nothing of the shell call reached the episode
    assert not pwned.exists()
    (answer,) = AsksForShell.answers
    refusal = {"claude-code": "No such tool available", "codex": "unsupported call",
               "qwen-code": "permission was declined"}[agent]
    assert refusal in answer


def test_a_hanging_agent_is_ended_at_its_timeout_with_its_whole_tree(default_world, tmp_path):
    pidfile = tmp_path / "pids.json"
    hanging = f"{COMMAND} --hang {pidfile}"
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", hanging, "--model", "heuristic", "--task-id", "product-0000",
                  "--world", str(default_world.root), "--out", str(out), "--no-cache", "--timeout", "4")
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(out)
    end = read_trajectory(path).end
    assert end is not None and end.status == "timeout" and "4 s" in (end.message or "")
    pids = json.loads(pidfile.read_text())  # the agent, and its child that ignores SIGTERM
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} of the agent's tree is left"
    summary = json.loads((transcript_dir(out, path.stem) / "agent.json").read_text())
    assert summary["exit"]["reason"] == "timeout" and set(pids) <= set(summary["exit"]["pids"])


def test_the_step_limit_ends_an_agent_s_episode(default_world, tmp_path):
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", "claude-code", "--model", "heuristic", "--task-id", "product-0000",
                  "--max-steps", "2", "--world", str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(out)
    trajectory = read_trajectory(path)
    assert trajectory.end is not None and (trajectory.end.status, len(trajectory.steps)) == ("step_limit", 2)
    assert read_manifest(out).parameters["max_steps"] == 2


def test_an_agent_that_cannot_reach_the_server_is_a_harness_error_not_a_score(default_world, tmp_path, monkeypatch):
    from contextlib import asynccontextmanager

    import evaluators.harness.installed as installed
    from mcp_server.http_launch import free_port

    @asynccontextmanager
    async def nothing_listens(server: Any, limits: Any = None):
        yield f"http://127.0.0.1:{free_port()}"

    monkeypatch.setattr(installed, "serve_reserved_episodes", nothing_listens)
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", "claude-code", "--model", "heuristic", "--limit", "1", "--world",
                  str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 1
    causes = [line for line in ran.output.splitlines() if line.startswith("failed ")]
    assert len(causes) == 1 and "AgentHarnessError: the MCP server did not list its tools" in causes[0]
    assert iter_episode_files(out) == []  # nothing to score: every episode was set aside for --resume
    assert list((out / PARTIAL_DIR).glob("*.jsonl"))
    assert not list(out.rglob("*.agent")), "no agent is started before its server answers"
    monkeypatch.undo()
    resumed = run_cli("shoppingbench", "--agent", "claude-code", "--model", "heuristic", "--limit", "1", "--world",
                      str(default_world.root), "--out", str(out), "--no-cache", "--resume", "--concurrency", "4")
    assert resumed.exit_code == 0, resumed.output
    assert len(iter_episode_files(out)) == 4 and all(transcript_dir(out, p.stem).is_dir()
                                                     for p in iter_episode_files(out))


def test_an_agent_without_its_tools_is_a_harness_error_that_resume_plays_again(default_world, tmp_path):
    """An agent started without its MCP tools reports no error: it answers without them. Its episode is not scored
    as the agent's failure."""
    out = tmp_path / "run"
    args = ("shoppingbench", "--model", "heuristic", "--task-id", "product-0000", "--world", str(default_world.root),
            "--out", str(out), "--no-cache")
    ran = run_cli(*args, "--agent", f"{COMMAND} --no-tools")
    assert ran.exit_code == 1
    assert "AgentHarnessError: the agent never had shopbench's tools" in ran.output
    assert iter_episode_files(out) == []
    (moved,) = (out / PARTIAL_DIR).glob("*.jsonl")
    assert read_trajectory(moved).end.status == "error" and moved.with_suffix(".agent").is_dir()
    assert run_cli(*args, "--agent", f"{COMMAND} --no-tools", "--resume").exit_code == 1  # the same agent again
    assert len(list((out / PARTIAL_DIR).glob("*.jsonl"))) == 2 and iter_episode_files(out) == []


class AnswersA(ModelAPI):
    """Answers every question by calling submit_answer with "A"; each call reports 50 tokens in, 5 out."""

    spec = "answers-a"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        usage = TokenUsage(input_tokens=50, output_tokens=5)
        if any(message.role == "tool" for message in messages):
            return ModelOutput(text="submitted", model=self.spec, usage=usage)
        return ModelOutput(tool_calls=[ToolCall(id="a", name="submit_answer", arguments={"answer": "A"})],
                           model=self.spec, usage=usage)


@register_backend("answers-a", needs_argument=False, help="test model: submits A")
def _answers_a(rest: str, options: Any) -> ModelAPI:
    return AnswersA()


def test_a_question_benchmark_through_an_installed_agent(tmp_path):
    out = tmp_path / "run"
    ran = run_cli("intentionqa", "--agent", "claude-code", "--model", "answers-a", "--limit", "1", "--intent",
                  "task1", "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(out)
    trajectory = read_trajectory(path)
    assert trajectory.end is not None and (trajectory.end.status, trajectory.end.answer) == ("submitted", "A")
    (step,) = trajectory.steps  # its usage: the model call before it, as the bridge counted it
    assert step.usage is not None and (step.usage.input_tokens, step.usage.output_tokens) == (50, 5)
    assert trajectory.start.instruction in (transcript_dir(out, path.stem) / "prompt.txt").read_text()
    assert score_run(out).metric_rows()  # scored as any intentionqa run


def test_resume_and_merge_carry_the_transcripts(tmp_path):
    from evaluators.harness.merge import merge_runs
    from evaluators.harness.orchestrate import WorkUnit, pending_units
    from mcp_server.trajectory import (
        AgentInfo,
        EndEvent,
        RunManifest,
        StartEvent,
        TrajectoryWriter,
        episode_path,
        write_manifest,
    )

    agent = AgentInfo(kind="mcp-client", name="claude-code")
    for run, episode, end in (("a", "t0-e0", "terminated"), ("a", "t1-e0", None), ("b", "t2-e0", "timeout")):
        with TrajectoryWriter(episode_path(tmp_path / run, episode)) as writer:
            writer.write(StartEvent(episode_id=episode, benchmark="test", task_set="s", task_id=episode[:2],
                                    instruction="do it", agent=agent, max_steps=3))
            if end:
                writer.write(EndEvent(status=end))
        transcript_dir(tmp_path / run, episode).mkdir()
        (transcript_dir(tmp_path / run, episode) / "stdout.jsonl").write_text(f"{episode}\n")
        write_manifest(tmp_path / run, RunManifest(run_id=run, benchmark="test", task_set="s", agent=agent))
    pending, done = pending_units(tmp_path / "a", [WorkUnit("t0-e0", "t0"), WorkUnit("t1-e0", "t1")], resume=True)
    assert ([unit.episode_id for unit in pending], done) == (["t1-e0"], 1)
    assert not transcript_dir(tmp_path / "a", "t1-e0").exists()  # set aside with its unfinished episode
    assert (tmp_path / "a" / PARTIAL_DIR / "t1-e0.attempt1.agent" / "stdout.jsonl").read_text() == "t1-e0\n"
    merge_runs([tmp_path / "a", tmp_path / "b"], tmp_path / "merged")
    for episode in ("t0-e0", "t2-e0"):
        assert (transcript_dir(tmp_path / "merged", episode) / "stdout.jsonl").read_text() == f"{episode}\n"


@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: agent.partition(" ")[0].rpartition("/")[2])
def test_an_agent_gets_its_address_and_nothing_of_the_world_or_the_user(agent, tmp_path, monkeypatch):
    """Its config names only its episode's address and bridge endpoint; its working directory stays empty; its
    environment is built from scratch (no user HOME, no API key but the bridge's)."""
    from evaluators.players.installed import get_adapter
    from evaluators.players.installed.adapter import EpisodeSetup

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-real-anthropic")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-real-openai")
    workdir, home = tmp_path / "work", tmp_path / "home"
    workdir.mkdir()
    home.mkdir()
    setup = EpisodeSetup(workdir=workdir, home=home, mcp_url="http://127.0.0.1:1/e/TOKEN/mcp",
                         base_url="http://127.0.0.1:2/e/B", openai_base_url="http://127.0.0.1:2/e/B/v1",
                         api_key="bridge-key", model="heuristic", prompt="the request", mcp_key="mcp-key")
    launch = get_adapter(agent).launch(Path("/agents/bin/agent"), setup)
    assert list(workdir.iterdir()) == []
    written = "\n".join(path.read_text() for path in home.rglob("*") if path.is_file())
    assert "http://127.0.0.1:1/e/TOKEN/mcp" in written
    home_dir, cache = str(Path.home()), os.environ["SHOPBENCH_HOME"]
    assert cache not in written and "world" not in written.lower() and "sk-real" not in written
    env = launch.env
    assert env["HOME"] == str(home) and not any(home_dir == value for value in env.values())
    assert not any(value.startswith("sk-real") for value in env.values())
    assert not any(cache in value for value in env.values()) and "SHOPBENCH_HOME" not in env
    assert set(env) - {"PATH", "HOME", "LANG"} <= {
        "CLAUDE_CONFIG_DIR", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "MCP_CONNECTION_NONBLOCKING",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING",
        "DISABLE_AUTOUPDATER", "CODEX_HOME", "SHOPBENCH_BRIDGE_KEY", "SHOPBENCH_MCP_URL", "OPENAI_BASE_URL",
        "OPENAI_API_KEY", "OPENAI_MODEL", "SHOPBENCH_MCP_KEY"}
    assert all(value == ("mcp-key" if name == "SHOPBENCH_MCP_KEY" else "bridge-key")
               for name, value in env.items() if name.endswith("_KEY"))
    # Config files are this user's only; the command line holds no key, address or prompt.
    assert all(path.stat().st_mode & 0o077 == 0 for path in home.rglob("*"))
    assert not any(secret in word for word in launch.argv for secret in ("key", "127.0.0.1", "the request"))


def test_run_help_names_every_agent():
    from shopbench.options import Agent

    help_text = Agent.__metadata__[0].help
    assert all(name in help_text for name in ADAPTERS)
