"""One `shopbench serve --transport http`, many rollouts (issue 22 item 3, at a test's scale): 64 sessions from 4
client processes, each playing an episode at once, are all held (one more is refused); when the processes are
killed, leaving their sessions open, the server reaps every one (its episode ends abandoned) and serves new clients.
perf/bench_rollouts.py does the same with 256 sessions and prints the figures."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from mcp_server.episode_client import EpisodeClient
from mcp_server.http_launch import ServerDidNotStart, free_port, wait_until_listening
from mcp_server.trajectory import iter_episode_files, read_trajectory
from tests._rollouts import RolloutWorkers

PROCESSES, SESSIONS, CALLS = 4, 16, 3
IDLE_TIMEOUT_S = 2.0
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "one-too-many", "version": "1"}}}


def held_trajectories(pid: int, runs: Path) -> set[str]:
    """The episode ids whose trajectory files the server holds open (one per session with a running episode)."""
    held = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = Path(fd.readlink())
        except OSError:  # closed meanwhile
            continue
        if target.suffix == ".jsonl" and target.parent == runs / "episodes":
            held.add(target.stem)
    return held


async def play_one_episode(url: str) -> None:
    async with Client(url, read_timeout_seconds=60) as client:
        episode = EpisodeClient(client)
        await episode.start((await episode.list_tasks())[0]["task_id"], episode_id="after-the-reaping")
        assert not (await episode.call("find_product", {"q": "shirt", "page": 1})).is_error
        assert (await episode.call("terminate", {"status": "failure"})).ended


def test_many_sessions_from_many_processes_are_held_and_abandoned_ones_reaped(default_world, tmp_path: Path) -> None:
    total = PROCESSES * SESSIONS
    runs, port = tmp_path / "runs", free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    stderr = (tmp_path / "server-stderr.txt").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--port", str(port), "--runs",
         str(runs), "--max-sessions", str(total), "--session-idle-timeout", str(IDLE_TIMEOUT_S)],
        stdout=subprocess.DEVNULL, stderr=stderr)
    workers: RolloutWorkers | None = None
    try:
        try:
            wait_until_listening(server, port)
        except ServerDidNotStart as error:
            pytest.fail(f"{error}: {(tmp_path / 'server-stderr.txt').read_text()}")
        workers = RolloutWorkers(url, processes=PROCESSES, sessions=SESSIONS, calls=CALLS)
        assert workers.ready() == total
        started = {f"rollout{p}-{s}" for p in range(PROCESSES) for s in range(SESSIONS)}
        assert held_trajectories(server.pid, runs) == started
        refused = httpx.post(url, json=INITIALIZE, headers={"Accept": "application/json, text/event-stream"})
        assert refused.status_code == 503  # the cap: every session is held, none spare

        latencies, errors = workers.play()
        assert errors == [] and len(latencies) == total * CALLS

        workers.kill()
        deadline = time.monotonic() + IDLE_TIMEOUT_S + 30
        while held := held_trajectories(server.pid, runs):
            assert time.monotonic() < deadline, f"{len(held)} abandoned sessions were never reaped"
            time.sleep(0.2)
        anyio.run(play_one_episode, url)  # room again
    finally:
        if workers is not None:
            workers.kill()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)
        stderr.close()
    trajectories = {path.stem: read_trajectory(path) for path in iter_episode_files(runs)}
    assert set(trajectories) == started | {"after-the-reaping"}
    for episode_id in started:
        trajectory = trajectories[episode_id]
        assert trajectory.end is not None and trajectory.end.status == "abandoned", episode_id
        assert len(trajectory.steps) == CALLS
    assert trajectories["after-the-reaping"].end.status == "terminated"  # type: ignore[union-attr]
