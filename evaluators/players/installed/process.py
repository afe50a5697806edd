"""Running one agent process: in a session of its own, its output to files, until it exits, its time runs out, or
its episode has been over for a grace period — then its whole process tree is ended (SIGTERM, then SIGKILL) and
reaped, so nothing of it is left running and no zombie stays behind.

The tree is the agent's process group, every descendant found through /proc (a child that started a session of its own
is found by its parent chain, while that parent lives), and every process carrying the agent's marker in its
environment, wherever it went (evaluators.players.installed.reaper, which also ends the agents of a harness that died).
A process whose parent dies is handed to the nearest "subreaper" ancestor, else to PID 1 — which in a container may
never reap it — so the harness makes itself a subreaper (Linux) and reaps its agents' orphans itself, by pid.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from evaluators.players.installed.adapter import AgentSetupError, Launch
from evaluators.players.installed.capture import capped_output
from evaluators.players.installed.reaper import (
    MARKER,
    agent_cgroup,
    end_cgroup,
    end_marked,
    entering,
    marked_pids,
    members,
    new_marker,
    start_watchdog,
)
from mcp_server.processes import process_running

POLL_S = 0.05
TERM_GRACE_S = 3.0
"""How long the tree has to exit after SIGTERM before SIGKILL."""

PR_SET_CHILD_SUBREAPER = 36
"""prctl option (linux/prctl.h)."""

Stopped = Literal["exited", "timeout", "episode_over"]


@dataclass
class AgentExit:
    """How the agent's process ended."""

    reason: Stopped
    """exited: on its own; timeout: its time ran out; episode_over: ended by the harness after its episode ended."""
    returncode: int | None
    duration_s: float
    pids: list[int] = field(default_factory=list)
    """Every process of its tree seen while it was ended (for the record, and for tests that check each is gone)."""


async def run_agent(launch: Launch, *, cwd: Path, stdout: Path, stderr: Path, timeout_s: float,
                    episode_over: Callable[[], bool], grace_s: float,
                    finished: Callable[[int], bool] | None = None) -> AgentExit:
    """Run the agent to one of its ends (see AgentExit.reason); stdout and stderr go to files as they come, each
    cut at its cap (evaluators.players.installed.capture). Once its episode is over it is ended after `grace_s`, or
    as soon as `finished(pid)` says it has nothing left to do (evaluators.players.installed.settle)."""
    began = time.monotonic()
    adopt_orphans()
    start_watchdog()
    marker = new_marker()
    cgroup = agent_cgroup(marker)
    if cgroup is not None and shutil.which(launch.argv[0], path=launch.env.get("PATH")) is None:
        end_cgroup(cgroup)  # the shell entering it would only say so on stderr
        raise AgentSetupError(f"{launch.argv[0]} could not be started (no such executable)")
    async with capped_output(stdout) as out, capped_output(stderr) as err:
        try:
            with open(launch.stdin or os.devnull, "rb") as given:  # the child holds its own copy once started
                process = await asyncio.create_subprocess_exec(
                    *entering(cgroup, launch.argv), cwd=cwd, env={**launch.env, MARKER: marker}, stdin=given,
                    stdout=out, stderr=err, start_new_session=True)
        except OSError as error:
            if cgroup is not None:
                end_cgroup(cgroup)
            raise AgentSetupError(f"{launch.argv[0]} could not be started ({error.strerror or error})") from None
        reason: Stopped = "exited"
        over_since: float | None = None
        try:
            while process.returncode is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(process.wait()), POLL_S)
                if process.returncode is not None:
                    break
                now = time.monotonic()
                if now - began >= timeout_s:
                    reason = "timeout"
                    break
                if episode_over():
                    over_since = now if over_since is None else over_since
                    if now - over_since >= grace_s or (finished is not None and finished(process.pid)):
                        reason = "episode_over"
                        break
        finally:
            pids = await end_tree(process, marker, cgroup)
    return AgentExit(reason, process.returncode, time.monotonic() - began, pids)


async def end_tree(process: asyncio.subprocess.Process, marker: str, cgroup: Path | None = None) -> list[int]:
    """End every process of the agent's tree, of its cgroup and carrying its marker, and reap the agent; returns the
    pids that were in it. Runs whether the agent exited (its children may linger) or not."""
    def mine(mark: str) -> bool:
        return mark == marker

    grouped = members(cgroup) if cgroup is not None else []
    pids = sorted(set(tree(process.pid)) | set(marked_pids(mine)) | set(grouped))
    if process.returncode is not None and not pids:
        if cgroup is not None:
            end_cgroup(cgroup)  # empty: only removed
        return [process.pid]  # it exited and nothing of it is left: none could start another process
    _signal_all(process.pid, pids, signal.SIGTERM)
    deadline = time.monotonic() + TERM_GRACE_S
    while time.monotonic() < deadline and any(process_running(pid) for pid in [process.pid, *pids]):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(process.wait()), POLL_S)
    pids = sorted(set(pids) | set(tree(process.pid)) | set(marked_pids(mine)))
    _signal_all(process.pid, pids, signal.SIGKILL)
    await process.wait()
    if cgroup is not None:
        pids = sorted(set(pids) | set(await asyncio.to_thread(end_cgroup, cgroup)))
    pids = sorted(set(pids) | set(await asyncio.to_thread(end_marked, mine)))
    deadline = time.monotonic() + TERM_GRACE_S
    while time.monotonic() < deadline and any(map(_exists, pids)):
        for pid in pids:
            _reap(pid)
        await asyncio.sleep(POLL_S)
    return sorted({process.pid, *pids})


def adopt_orphans() -> None:
    """Make this process the subreaper of its descendants (Linux PR_SET_CHILD_SUBREAPER), so an agent's orphaned
    children come to it to be reaped (see the module docstring); elsewhere, nothing."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _reap(pid: int) -> None:
    """Collect `pid`'s exit if it is a dead child of this process (an adopted orphan); nothing otherwise. Only the
    agent's own tree is waited for, by pid: never a wait for any child, which could take another's exit status."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


def _exists(pid: int) -> bool:
    """Whether `pid` is still in the process table (running, or dead and not yet reaped)."""
    return Path(f"/proc/{pid}").exists() if sys.platform == "linux" else process_running(pid)


def tree(root: int) -> list[int]:
    """The pids of `root`'s process group and of its descendants (Linux /proc; elsewhere the group only)."""
    parents: dict[int, int] = {}
    groups: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = entry.read_text().rpartition(")")[2].split()
            pid = int(entry.parent.name)
            parents[pid], groups[pid] = int(fields[1]), int(fields[2])
    found = {pid for pid, group in groups.items() if group == root}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in found]
        found.update(children)
        frontier.extend(children)
    found.discard(root)
    return sorted(found)


def _signal_all(root: int, pids: list[int], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)

