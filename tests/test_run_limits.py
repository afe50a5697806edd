"""A run fits the machine it is on (issue 26): its concurrency is checked against the open-file limit before any
episode, and a run whose log cannot be written stops before any episode; each in one line, without a traceback."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from mcp_server.trajectory import iter_episode_files
from tests._agent_runs import COMMAND, run_cli

REPO = Path(__file__).resolve().parent.parent


LIMIT = min(1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
"""The open-file limit many machines set (soft and hard 1024), or this machine's lower hard limit."""


def common_limit() -> None:
    """LIMIT as soft and hard limit, in the child about to run."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


def test_a_concurrency_past_the_open_file_limit_is_refused_in_one_line(default_world, tmp_path):
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", "--agent", COMMAND, "--model", "heuristic",
         "--limit", "100", "--concurrency", "1000", "--world", str(default_world.root), "--out", str(out),
         "--no-cache"], env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "300"}, capture_output=True,
        text=True, timeout=300, preexec_fn=common_limit, check=False)
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2 and len(said) == 1, said
    assert said[0].startswith("error: --concurrency 1000 (400 episodes at a time) needs about ")
    assert f"may open {LIMIT} (ulimit -n): use --concurrency " in said[0] and not out.exists()


def test_a_run_whose_log_cannot_be_written_stops_before_any_episode(default_world, tmp_path):
    out = tmp_path / "run"
    (out / "run.log").mkdir(parents=True)
    ran = run_cli("shoppingbench", "--model", "heuristic", "--limit", "1", "--world", str(default_world.root),
                  "--out", str(out), "--no-cache")
    assert ran.exit_code == 1
    (line,) = ran.output.strip().splitlines()
    assert line.startswith(f"shopbench run: cannot write to {out} (run.log: Is a directory)")
    assert iter_episode_files(out) == []
