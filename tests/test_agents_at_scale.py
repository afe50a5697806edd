"""Installed agents over a whole task set (issue 26): a run longer than its server's session cap plays every
episode — with Claude Code from npm, and with a `command:` agent that never closes its session and is ended by the
harness as promptly as one that exits by itself; agent output is cut at its cap; a missing executable is one error
before any episode.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from mcp_server import episode_sessions
from mcp_server.episode_sessions import session_cap
from mcp_server.trajectory import iter_episode_files, read_trajectory
from tests._agent_runs import COMMAND, run_cli

REPO = Path(__file__).resolve().parent.parent
INTENTS = 4
"""The default world's intents: `--limit N` plays N × INTENTS episodes."""


SMALL_CAP_CLI = ("import mcp_server.episode_sessions as sessions; sessions.SESSIONS_PER_EPISODE = 1; "
                 "from shopbench.cli import app; app()")
SMALL_CAP = 1 * (2 + 1)
"""session_cap(2) with one session per episode (the agent's: the harness's readiness check closes its own)."""


def all_played(out: Path, episodes: int) -> None:
    files = iter_episode_files(out)
    ends = [read_trajectory(path).end for path in files]
    assert len(files) == episodes and all(end is not None and end.status == "terminated" for end in ends), ends


def test_claude_code_plays_more_episodes_than_twice_the_session_cap(default_world, tmp_path, monkeypatch):
    """Claude Code leaves its session open when it exits: without the episode's sessions closed at its end, the
    run's server refuses the agent of the episode after the cap."""
    monkeypatch.setattr(episode_sessions, "SESSIONS_PER_EPISODE", 1)  # for a short test
    limit = 2 * session_cap(2) // INTENTS + 1
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", "claude-code", "--model", "heuristic", "--limit", str(limit),
                  "--world", str(default_world.root), "--out", str(out), "--no-cache", "--concurrency", "2",
                  "--timeout", "120")
    assert ran.exit_code == 0, ran.output
    assert limit * INTENTS > 2 * session_cap(2)
    all_played(out, limit * INTENTS)


def test_an_agent_that_never_closes_its_session_is_ended_as_promptly_as_one_that_exits(default_world, tmp_path):
    """The two runs go side by side (each `shopbench run` in its own process, sharing the machine's load), with
    more episodes than twice the server's session cap (one session per episode, for a short test)."""
    limit = 2 * SMALL_CAP // INTENTS + 1
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = {}
    for name, agent in (("exits", COMMAND), ("lingers", f"{COMMAND} --linger")):
        out = tmp_path / name
        argv = [sys.executable, "-c", SMALL_CAP_CLI, "run", "shoppingbench", "--agent", agent, "--model",
                "heuristic", "--limit", str(limit), "--world", str(default_world.root), "--out", str(out),
                "--no-cache", "--timeout", "120", "--concurrency", "2"]
        with open(tmp_path / f"{name}.log", "w") as log:
            runs[name] = (out, time.perf_counter(), subprocess.Popen(argv, env=env, stdout=log,
                                                                      stderr=subprocess.STDOUT))
    wall: dict[str, float] = {}
    deadline = time.perf_counter() + 600
    while len(wall) < len(runs) and time.perf_counter() < deadline:
        for name, (_, began, process) in runs.items():
            if name not in wall and process.poll() is not None:
                wall[name] = time.perf_counter() - began
        time.sleep(0.05)
    for name, (out, _, process) in runs.items():
        if process.poll() is None:
            process.kill()
        assert process.wait() == 0, (tmp_path / f"{name}.log").read_text()
        all_played(out, limit * INTENTS)
    assert wall["lingers"] <= 1.2 * wall["exits"], wall


def test_agent_output_is_cut_at_its_cap_with_a_marker(default_world, tmp_path, monkeypatch):
    from evaluators.harness.orchestrate import transcript_dir
    from evaluators.players.installed import capture

    monkeypatch.setattr(capture, "OUTPUT_CAP_BYTES", 256 * 1024)
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", f"{COMMAND} --flood {4 * 1024 * 1024}", "--model", "heuristic",
                  "--task-id", "product-0000", "--world", str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 0, ran.output
    all_played(out, 1)
    (path,) = iter_episode_files(out)
    stdout = (transcript_dir(out, path.stem) / "stdout.jsonl").read_bytes()
    kept, _, marker = stdout.rpartition(b"\n[shopbench: stdout.jsonl cut here at 262144 bytes; the agent wrote ")
    assert len(kept) == 256 * 1024 and marker.endswith(b" bytes in all]\n")
    assert int(marker.split()[0]) > 4 * 1024 * 1024  # all it wrote was read (it never blocked), and counted


def test_a_command_agent_without_its_executable_fails_once_before_any_episode(default_world, tmp_path):
    out = tmp_path / "run"
    ran = run_cli("shoppingbench", "--agent", "command:/nonexistent/agent {mcp_url}", "--model", "heuristic",
                  "--limit", "1", "--world", str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 2
    assert ran.output.strip().splitlines() == [
        "error: --agent command:/nonexistent/agent {mcp_url}: '/nonexistent/agent': not an executable file"]
    assert not out.exists()
    ran = run_cli("shoppingbench", "--agent", "command:no-such-agent-here", "--model", "heuristic", "--limit", "1",
                  "--world", str(default_world.root), "--out", str(out), "--no-cache")
    assert ran.exit_code == 2 and "'no-such-agent-here': not found on PATH" in ran.output and not out.exists()


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "never-closes", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def test_a_released_episode_s_sessions_are_closed_and_an_address_holds_a_few(default_world, tmp_path):
    """Sessions opened and never closed (no DELETE), as by an agent that is killed: with the server's cap at four,
    a second episode opens its session only because releasing the first closed the first's four."""
    import httpx

    from mcp_server.environment import open_environment
    from mcp_server.episode_keys import episode_key
    from mcp_server.http_limits import HttpLimits
    from mcp_server.task_tools import release_episode, reserve_episode
    from mcp_server.trajectory import AgentInfo
    from mcp_server.transports import episode_url, serve_reserved_episodes

    environment = open_environment(["shoppingbench"], runs_dir=tmp_path / "run", world=default_world)
    state = environment.server.state
    agent = AgentInfo(kind="mcp-client", name="never-closes")
    task = environment.selection(limit=1, intents=["product"])[0][1].task_id
    first = await reserve_episode(state, task, agent=agent, episode_id="first")
    async with serve_reserved_episodes(environment.server, HttpLimits(max_sessions=4)) as base, \
            httpx.AsyncClient(headers=HEADERS) as http:
        first_key = {"Authorization": f"Bearer {episode_key(first.token)}"}
        opened = [await http.post(episode_url(base, first.token), json=INITIALIZE, headers=first_key)
                  for _ in range(5)]
        assert [reply.status_code for reply in opened] == [200, 200, 200, 200, 503]
        assert "holds 4 open sessions" in opened[4].text
        release_episode(state, first, "agent_exited", "killed")
        second = await reserve_episode(state, task, agent=agent, episode_id="second")
        second_key = {"Authorization": f"Bearer {episode_key(second.token)}"}
        reply = await http.post(episode_url(base, second.token), json=INITIALIZE, headers=second_key)
        assert reply.status_code == 200, reply.text
        session = {"mcp-session-id": opened[0].headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18",
                   **second_key}
        gone = await http.post(f"{base}/e/{second.token}/mcp", headers=session,
                               json={"jsonrpc": "2.0", "id": 2, "method": "ping"})
        assert gone.status_code == 404  # the first episode's session is closed in the SDK too
        release_episode(state, second, "agent_exited", "killed")
