"""Crash safety and remote play: a run killed with SIGKILL resumes with no episode lost or duplicated, a run
against a running `shopbench serve` (streamable HTTP) leaves a complete, scorable run directory locally, and a run
whose `--user` differs from the server's is refused before anything is written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from evaluators.harness.config import RunOptionError
from evaluators.harness.orchestrate import PARTIAL_DIR, episode_state
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import score_run
from mcp_server.http_launch import free_port, wait_until_listening
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from tests._fake_llm import FakeLLMServer, shopping_policy
from tests._run_cli import EXPECTED, run_command


def _finished(out) -> set[str]:
    return {p.stem for p in iter_episode_files(out) if episode_state(out, p.stem) == "finished"}


def test_a_killed_run_resumes_without_losing_or_duplicating_episodes(default_world, tmp_path):
    out = tmp_path / "run"
    with FakeLLMServer("openai", shopping_policy, delay=0.25) as fake:
        spec = f"openai-compatible:{fake.base_url}#slow-model"
        process = subprocess.Popen(run_command(spec, default_world.root, out), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=os.environ.copy())
        deadline = time.monotonic() + 240
        while len(_finished(out)) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGKILL)
        process.wait()
        done_before = _finished(out)
        assert 2 <= len(done_before) < len(EXPECTED), "the kill should land mid-run"
        resumed = subprocess.run(run_command(spec, default_world.root, out, "--resume"), capture_output=True,
                                 text=True, env=os.environ.copy(), timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    notes = read_manifest(out).notes
    assert notes["skipped"] == len(done_before) and notes["completed"] == len(EXPECTED) - len(done_before)
    assert len(notes["resumed"]) == 1
    assert _finished(out) == EXPECTED
    for path in iter_episode_files(out):
        lines = path.read_text().splitlines()
        assert sum('"event":"start"' in line for line in lines) == 1
        assert sum('"event":"end"' in line for line in lines) == 1
        trajectory = read_trajectory(path)
        assert [s.tool for s in trajectory.steps] == ["find_product", "recommend_product", "terminate"]
    partial = list((out / PARTIAL_DIR).glob("*.jsonl")) if (out / PARTIAL_DIR).exists() else []
    assert all(p.name.split(".")[0] in EXPECTED - done_before for p in partial)
    assert score_run(out).to_json()["intents"][0]["episodes"] == 3


def _serve(world, port: int, runs, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--port", str(port),
         "--world", str(world.root), "--runs", str(runs), *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy(),
    )


async def test_run_against_a_running_http_server_records_locally(default_world, tmp_path):
    port = free_port()
    server_runs = tmp_path / "server-runs"
    server = _serve(default_world, port, server_runs)
    try:
        wait_until_listening(server, port, timeout_s=120)
        conversational = tmp_path / "conversational"
        with pytest.raises(RunOptionError, match="plays its tasks without a user"):
            await run_benchmark(RunConfig(benchmark="shoppingbench", model="heuristic", world=default_world.root,
                                          limit=1, user="rules", out=conversational,
                                          server_url=f"http://127.0.0.1:{port}/mcp"))
        assert not conversational.exists()
        out = tmp_path / "local"
        result = await run_benchmark(RunConfig(benchmark="shoppingbench", model="oracle", world=default_world.root,
                                               limit=1, out=out, server_url=f"http://127.0.0.1:{port}/mcp"))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert result.summary.completed == 4 and not result.summary.failed
    local = {p.stem: read_trajectory(p) for p in iter_episode_files(out)}
    assert set(local) == {f"{intent}-0000-e0" for intent in ("product", "shop", "voucher", "web")}
    remote = [read_trajectory(p) for p in iter_episode_files(server_runs)]
    assert sorted(t.start.task_id for t in remote) == sorted(t.start.task_id for t in local.values())
    remote_files = {p.stem: p.read_text() for p in iter_episode_files(server_runs)}
    for name, trajectory in local.items():
        assert trajectory.end.status == "terminated" and len(trajectory.steps) == 4
        # copied verbatim from the server's shopbench://episodes/{id} resource
        assert (out / "episodes" / f"{name}.jsonl").read_text() == remote_files[trajectory.episode_id]
    scored = score_run(out).to_json()
    assert all(summary["asr"]["value"] == 1.0 for summary in scored["intents"])


async def test_a_run_without_the_servers_user_is_refused_and_one_with_it_is_played_as_a_conversation(
        default_world, tmp_path):
    port = free_port()
    server = _serve(default_world, port, tmp_path / "server-runs", "--user", "rules")
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        wait_until_listening(server, port, timeout_s=120)
        plain = tmp_path / "plain"
        with pytest.raises(RunOptionError, match="plays its tasks as conversations"):
            await run_benchmark(RunConfig(benchmark="shoppingbench", model="heuristic", world=default_world.root,
                                          limit=1, out=plain, server_url=url))
        assert not plain.exists()
        out = tmp_path / "asked"
        result = await run_benchmark(RunConfig(benchmark="shoppingbench", model="heuristic", intents=["product"],
                                               world=default_world.root, limit=1, user="rules", out=out,
                                               server_url=url))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert result.summary.completed == 1 and read_manifest(out).parameters["user"] == "rules"
    (trajectory,) = [read_trajectory(path) for path in iter_episode_files(out)]
    asked = [step for step in trajectory.steps if step.tool == "ask_user"]
    assert asked and all(step.user is not None and step.user.user == "rules" for step in asked)


async def test_a_run_against_a_server_that_cannot_be_reached_is_refused_in_one_line(default_world, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(RunOptionError, match=r"cannot be reached \(ConnectError") as refused:
        await run_benchmark(RunConfig(benchmark="shoppingbench", model="oracle", world=default_world.root, limit=1,
                                      out=out, server_url=f"http://127.0.0.1:{free_port()}/mcp"))
    assert "\n" not in str(refused.value) and not out.exists()
