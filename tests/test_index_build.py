"""Index builds on a shared filesystem: a temporary build folder left by a killed process on this machine (dead, or a
zombie not yet reaped) is cleaned up, while one named by another machine (whose pid means nothing here, and which
may still be building) is kept."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from mcp_server.processes import process_running
from mcp_server.shopping.search import index_build

DEAD_PID = 2**22 + 12345  # above Linux's pid_max: no process has it


def test_only_this_hosts_abandoned_builds_are_removed(tmp_path: Path) -> None:
    source = tmp_path / "catalog.jsonl"
    source.write_text('{"id": 1}\n', encoding="utf-8")
    root = tmp_path / "index"
    key = index_build.content_hash(source)
    mine = root / f".{key}.building-{index_build._HOST}-{DEAD_PID}-1"
    other_host = root / f".{key}.building-another_node-{DEAD_PID}-1"
    for folder in (mine, other_host):
        folder.mkdir(parents=True)

    index_dir, _ = index_build.open_or_build(source, root, lambda out: out.mkdir())

    assert index_dir == root / key and index_dir.is_dir()
    assert not mine.exists(), "a build abandoned on this machine is cleaned up"
    assert other_host.exists(), "another machine's build in progress is left alone"


def test_a_zombie_builds_folder_is_abandoned(tmp_path: Path) -> None:
    """A build whose process was killed but not yet reaped (a zombie) is over: its folder goes, as a dead one's."""
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 10
        while process_running(zombie.pid) and time.monotonic() < deadline:
            time.sleep(0.01)  # exited, never waited for: a zombie until wait() below
        assert Path(f"/proc/{zombie.pid}").exists() and not process_running(zombie.pid)
        source = tmp_path / "catalog.jsonl"
        source.write_text('{"id": 1}\n', encoding="utf-8")
        root = tmp_path / "index"
        key = index_build.content_hash(source)
        left = root / f".{key}.building-{index_build._HOST}-{zombie.pid}-1"
        left.mkdir(parents=True)
        index_build.open_or_build(source, root, lambda out: out.mkdir())
        assert not left.exists()
    finally:
        zombie.wait()
    assert process_running(os.getpid())
