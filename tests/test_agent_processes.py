"""Nothing an installed agent starts outlives its episode or its run (issue 26): a double-forked daemon and a `setsid`
child that ignore SIGTERM are gone when their episode ends, even when the agent exited first; after `kill -9` of
`shopbench run` no agent process is left; a later run ends what a dead one left, and nothing else."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evaluators.players.installed import reaper
from evaluators.players.installed.reaper import MARKER, end_leftovers, harness_cgroup, owner, start_time
from mcp_server.trajectory import iter_episode_files, read_trajectory
from shopbench.cli import app

HERE = Path(__file__).resolve().parent
AGENT = f"command:{sys.executable} {HERE / '_mcp_agent.py'} {{prompt_file}}"
REPO = HERE.parent


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for a parent that will not reap it has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in ("Z", "X")
    except OSError:
        return False


def left_running(pids: list[int], within_s: float) -> list[int]:
    deadline = time.monotonic() + within_s
    while (left := [pid for pid in pids if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.parametrize("containment", ["cgroup", "marker"])
def test_daemons_and_a_setsid_child_are_gone_when_their_agent_exits_first(containment, default_world, tmp_path,
                                                                          monkeypatch):
    """With a cgroup per agent (where the machine allows one) every process is ended, even one started with an
    emptied environment; with the environment marker alone, every process that kept it."""
    if containment == "cgroup" and harness_cgroup() is None:
        pytest.skip("this machine lets this user make no cgroup v2 group")
    if containment == "marker":
        monkeypatch.setattr(reaper, "_cgroups", False)
    strays = tmp_path / "strays.json"
    ran = CliRunner().invoke(app, ["run", "shoppingbench", "--agent", f"{AGENT} --strays {strays}", "--model",
                                   "heuristic", "--task-id", "product-0000", "--world", str(default_world.root),
                                   "--out", str(tmp_path / "run"), "--no-cache"], catch_exceptions=False)
    assert ran.exit_code == 0, ran.output
    (path,) = iter_episode_files(tmp_path / "run")
    assert read_trajectory(path).steps  # it played, then exited by itself, leaving them behind
    pids = json.loads(strays.read_text())
    assert set(pids) == {"daemon", "scrubbed", "setsid"}
    try:
        ended = [pids["daemon"], pids["setsid"], *([pids["scrubbed"]] if containment == "cgroup" else [])]
        assert left_running(ended, 0.0) == []
        assert containment == "cgroup" or running(pids["scrubbed"])  # the marker's known limit
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pids["scrubbed"], signal.SIGKILL)  # what the marker alone cannot find


def test_kill_9_of_a_run_leaves_no_agent_process(default_world, tmp_path):
    hung, strays = tmp_path / "hung.json", tmp_path / "strays.json"
    run = subprocess.Popen(
        [sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", "--agent",
         f"{AGENT} --strays {strays} --hang {hung}", "--model", "heuristic", "--task-id", "product-0000", "--world",
         str(default_world.root), "--out", str(tmp_path / "run"), "--no-cache", "--timeout", "300"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    try:
        deadline = time.monotonic() + 180
        while not hung.exists() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert hung.exists(), "the agent never reached its first tool call"
        time.sleep(0.2)  # the pid file is written before it is complete
        pids = [*json.loads(hung.read_text()), *json.loads(strays.read_text()).values()]
        assert left_running(pids, 0.0) == pids  # agent, its child, two daemons, a setsid child: all running
    finally:
        run.kill()  # what a scheduler's preemption does
        run.wait()
    assert left_running(pids, 5.0) == []


def test_a_run_ends_what_a_dead_run_left_and_nothing_else():
    done = subprocess.Popen(["true"])
    dead = f"{done.pid}:{start_time(done.pid)}"
    done.wait()

    def sleeper(marker: str | None) -> subprocess.Popen[bytes]:
        env = {"PATH": os.environ["PATH"], **({MARKER: marker} if marker else {})}
        return subprocess.Popen(["sleep", "60"], env=env, start_new_session=True)

    left, recycled = sleeper(f"{dead}:a"), sleeper(f"{os.getpid()}:1:b")  # a dead harness; a recycled pid
    live, unmarked = sleeper(f"{owner()}:c"), sleeper(None)  # a running harness's agent; anyone's process
    grouped, group = [], harness_cgroup()
    if group is not None:  # an unmarked process in a dead harness's cgroup
        dead_group = group.parent / f"{reaper.CGROUP_PREFIX}{dead.replace(':', '-')}" / "d"
        dead_group.mkdir(parents=True)
        grouped = [subprocess.Popen(reaper.entering(dead_group, ["sleep", "60"]), start_new_session=True)]
    time.sleep(0.2)
    try:
        ended = set(end_leftovers())
        assert {left.pid, recycled.pid, *(process.pid for process in grouped)} <= ended
        assert not {live.pid, unmarked.pid} & ended
        assert left_running([left.pid, recycled.pid, *(process.pid for process in grouped)], 1.0) == []
        assert left_running([live.pid, unmarked.pid], 0.0) == [live.pid, unmarked.pid]
        assert group is None or not dead_group.parent.exists()
    finally:
        for process in (left, recycled, live, unmarked, *grouped):
            process.kill()
            process.wait()
