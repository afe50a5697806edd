"""Clean interruption: a `shopbench run` sent SIGINT (Ctrl-C) or SIGTERM mid-episode stops in order — exit code
128 + signal, one line saying how to resume, no traceback, no JVM crash report (hs_err_pid*.log) in its folder — and
`--resume` then completes the run to the full count with no episode played twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaluators.harness.orchestrate import episode_state
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from tests._fake_llm import FakeLLMServer, shopping_policy
from tests._run_cli import EXPECTED, run_command


def _states(out: Path) -> dict[str, str]:
    return {p.stem: episode_state(out, p.stem) for p in iter_episode_files(out)} if out.exists() else {}


def _interrupt_then_resume(world: Path, tmp_path: Path, sent: signal.Signals, *extra: str) -> None:
    out, cwd = tmp_path / "run", tmp_path / "cwd"
    cwd.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with FakeLLMServer("openai", shopping_policy, delay=0.6) as fake:
        spec = f"openai-compatible:{fake.base_url}#slow-model"
        process = subprocess.Popen(run_command(spec, world, out, *extra), cwd=cwd, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 240
        # mid-episode: at least one finished, and one started but not yet ended
        while time.monotonic() < deadline and process.poll() is None:
            states = _states(out)
            if "finished" in states.values() and "unfinished" in states.values():
                break
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()[1][-2000:]
        asked = len(fake.requests)
        process.send_signal(sent)
        try:
            _, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        assert process.returncode == 128 + sent, stderr[-2000:]
        assert len(fake.requests) <= asked + 2  # no new episode was started after the signal
        lines = [line for line in stderr.splitlines() if line.strip()]
        assert "Traceback" not in stderr and "hs_err" not in stderr, stderr[-2000:]
        stops = [line for line in lines if line.startswith("interrupted:")]
        assert len(stops) == 1 and f"stopped by {sent.name}" in stops[0] and "--resume --out" in stops[0], stderr
        assert not list(cwd.glob("hs_err*")) and not list(tmp_path.rglob("hs_err*"))
        states = _states(out)
        done_before = {episode for episode, state in states.items() if state == "finished"}
        assert done_before and len(done_before) < len(EXPECTED), states
        assert set(states) - done_before, "the episode in flight is left for --resume"
        for episode in done_before:
            assert read_trajectory(out / "episodes" / f"{episode}.jsonl").end.status == "terminated"
        resumed = subprocess.run(run_command(spec, world, out, "--resume", *extra), cwd=cwd, capture_output=True,
                                 text=True, env=env, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    notes = read_manifest(out).notes
    assert notes["skipped"] == len(done_before) and notes["completed"] == len(EXPECTED) - len(done_before)
    assert {episode for episode, state in _states(out).items() if state == "finished"} == EXPECTED
    for path in iter_episode_files(out):
        text = path.read_text(encoding="utf-8")
        assert text.count('"event":"start"') == 1 and text.count('"event":"end"') == 1, path
        assert [s.tool for s in read_trajectory(path).steps] == ["find_product", "recommend_product", "terminate"]
    assert not list(cwd.glob("hs_err*"))


def test_sigint_mid_episode_stops_cleanly_and_resume_completes(default_world, tmp_path):
    _interrupt_then_resume(default_world.root, tmp_path, signal.SIGINT)


@pytest.mark.parametrize("concurrency", ["2"])
def test_sigterm_with_episodes_in_parallel_stops_cleanly_and_resume_completes(default_world, tmp_path, concurrency):
    _interrupt_then_resume(default_world.root, tmp_path, signal.SIGTERM, "--concurrency", concurrency)


def test_sigint_during_a_llama_cpp_step_leaves_no_jvm_crash(default_world, tmp_path):
    """The reported crash: Ctrl-C while llama.cpp computes a step (the JVM took SIGINT, exited the process under the
    running step: SIGSEGV in ggml, hs_err_pid*.log in the cwd). Now: exit 130, the episode abandoned, no hs_err."""
    out, cwd = tmp_path / "run", tmp_path / "cwd"
    cwd.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    command = [sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", "--model", "llama-cpp:smollm2",
               "--world", str(default_world.root), "--intent", "product", "--limit", "1", "--max-steps", "3",
               "--out", str(out), "--no-cache"]
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None and "unfinished" not in _states(out).values():
        time.sleep(0.05)
    time.sleep(1.0)  # the model is loaded and computing its first step
    assert process.poll() is None, process.communicate()[1][-2000:]
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 130, stderr[-3000:]
    assert "Traceback" not in stderr and "SIGSEGV" not in stderr and "fatal error" not in stderr, stderr[-3000:]
    assert not list(cwd.glob("hs_err*")) and not list(tmp_path.rglob("hs_err*"))
    assert _states(out) == {"product-0000-e0": "unfinished"}
    assert read_trajectory(out / "episodes" / "product-0000-e0.jsonl").end.status == "abandoned"
