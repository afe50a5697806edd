"""Finding and ending every process an agent started, wherever it went: a double-forked daemon, a `setsid` child whose
parent exited, what a killed run left behind.

Each agent starts with `SHOPBENCH_AGENT_OF=<harness pid>:<harness start time>:<episode nonce>` in its environment
(`new_marker`), which everything it starts inherits; /proc/<pid>/environ is the environment a process was started
with, readable by its own user. So:
- at an episode's end the harness ends every process carrying that episode's marker (`end_marked`), round after
  round until none is left (a process forked during a round is found in the next);
- a watchdog process started once per harness (`start_watchdog`, this file run as a script) waits for the harness's
  pipe to close — the harness exited, or was killed with SIGKILL — then ends every process carrying the harness's
  marker, so agents die with their harness;
- a run ends, before its first agent starts, what any dead harness left (`end_leftovers`): a marker whose harness
  pid is gone or now has another start time (a recycled pid) is an orphan.
A process is signalled through a pidfd opened before its marker is read again, so a recycled pid is never
signalled. A process that clears its environment and leaves the process tree would escape the marker, so where
this process may make cgroup v2 groups (root, or a delegated subtree) each agent also runs in a cgroup of its own,
`<own cgroup>/shopbench-<harness pid>-<start time>/<nonce>`, entered before the agent's first instruction (a shell
that writes itself into it, then execs the agent): no process can leave it, and `cgroup.kill` ends them all. The
watchdog and the next run remove a dead harness's cgroups the same way. Elsewhere the marker alone is used.

Standard library only: the watchdog runs this file with `python -I` (no site packages, no shopbench imports).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

MARKER = "SHOPBENCH_AGENT_OF"
ROUNDS_S = 5.0
"""How long `end_marked` keeps sweeping before it gives up on processes that will not die."""
CGROUP_PREFIX = "shopbench-"
_watchdog: subprocess.Popen[bytes] | None = None
_cgroups: Path | bool | None = None
"""This harness's cgroup folder; False where it may make none; None until first asked."""


def start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return None


def owner() -> str:
    """This process as markers name it: `<pid>:<start time>`."""
    return f"{os.getpid()}:{start_time(os.getpid())}"


def new_marker() -> str:
    """A marker for one agent of this harness."""
    return f"{owner()}:{secrets.token_hex(8)}"


def marker_of(pid: int) -> str | None:
    """The marker in the environment `pid` was started with, None without one (or when it cannot be read)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    prefix = f"{MARKER}=".encode()
    for entry in environ.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix):].decode(errors="replace")
    return None


def alive(who: str) -> bool:
    """Whether the harness `<pid>:<start time>` still runs (a recycled pid has another start time)."""
    pid, _, started = who.partition(":")
    return pid.isdigit() and start_time(int(pid)) == started


def end_marked(select: Callable[[str], bool], *, deadline_s: float = ROUNDS_S) -> list[int]:
    """SIGKILL every process whose marker `select` accepts, round after round until none is left (or the deadline);
    returns their pids. Dead children of this process among them are reaped."""
    ended: set[int] = set()
    stop = time.monotonic() + deadline_s
    while True:
        found = marked_pids(select)
        live = [pid for pid in found if _running(pid)]
        for pid in found:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)
        if not live or time.monotonic() > stop:
            return sorted(ended)
        for pid in live:
            if _kill(pid, select):
                ended.add(pid)
        time.sleep(0.01)


def marked_pids(select: Callable[[str], bool]) -> list[int]:
    """The processes (running or not yet reaped) whose marker `select` accepts."""
    return [pid for pid in _pids() if pid != os.getpid() and (mark := marker_of(pid)) and select(mark)]


def end_leftovers() -> list[int]:
    """End what harnesses that are no longer running left behind (see the module docstring)."""
    dead = end_harness_cgroups(lambda harness: not alive(harness))
    return sorted({*dead, *end_marked(lambda mark: not alive(mark.rpartition(":")[0]), deadline_s=1.0)})


def start_watchdog() -> None:
    """Start, once per process, the watchdog that ends this harness's agents when the harness goes (however)."""
    global _watchdog
    if sys.platform != "linux" or (_watchdog is not None and _watchdog.poll() is None):
        return
    _watchdog = subprocess.Popen(
        [sys.executable, "-I", "-S", __file__, owner()], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True, env={})


def harness_cgroup() -> Path | None:
    """This harness's cgroup folder, made on first use; None where cgroup v2 is not mounted or not ours to write."""
    global _cgroups
    if _cgroups is None:
        _cgroups = _make_harness_cgroup()
    return _cgroups if isinstance(_cgroups, Path) else None


def agent_cgroup(marker: str) -> Path | None:
    """A fresh cgroup for the agent marked `marker`, None where there are none (see harness_cgroup)."""
    parent = harness_cgroup()
    if parent is None:
        return None
    try:
        (parent / marker.rpartition(":")[2]).mkdir()
    except OSError:
        return None
    return parent / marker.rpartition(":")[2]


def entering(cgroup: Path | None, argv: list[str]) -> list[str]:
    """`argv` started inside `cgroup`: a shell writes itself into the cgroup and execs the agent (the same pid), so
    the agent runs no instruction outside it. Where the write fails the agent still starts (the marker still holds)."""
    if cgroup is None:
        return argv
    return ["/bin/sh", "-c", 'echo $$ > "$0" 2>/dev/null; exec "$@"', str(cgroup / "cgroup.procs"), *argv]


def end_cgroup(cgroup: Path, *, deadline_s: float = ROUNDS_S) -> list[int]:
    """SIGKILL every process in `cgroup` (`cgroup.kill`, else one by one until it is empty), reap the dead children of
    this process among them, and remove it; returns their pids."""
    ended: set[int] = set()
    stop = time.monotonic() + deadline_s
    while (pids := members(cgroup)) and time.monotonic() < stop:
        ended.update(pids)
        with contextlib.suppress(OSError):
            if (cgroup / "cgroup.kill").exists():
                (cgroup / "cgroup.kill").write_text("1")
            else:
                for pid in pids:
                    os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
    for pid in ended:
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)
    with contextlib.suppress(OSError):
        cgroup.rmdir()
    return sorted(ended)


def end_harness_cgroups(select: Callable[[str], bool]) -> list[int]:
    """End every agent cgroup of the harnesses `select` accepts (`<pid>:<start time>`), beside this process's own."""
    here = _own_cgroup()
    ended: list[int] = []
    if here is None or not here.is_dir():
        return ended
    for folder in here.glob(f"{CGROUP_PREFIX}*"):
        harness = folder.name.removeprefix(CGROUP_PREFIX).replace("-", ":", 1)
        if folder.is_dir() and select(harness):
            for cgroup in [path for path in folder.iterdir() if path.is_dir()]:
                ended += end_cgroup(cgroup, deadline_s=1.0)
            with contextlib.suppress(OSError):
                folder.rmdir()
    return ended


def _make_harness_cgroup() -> Path | bool:
    here = _own_cgroup()
    if here is None:
        return False
    folder = here / f"{CGROUP_PREFIX}{owner().replace(':', '-')}"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return False
    return folder if os.access(here / "cgroup.procs", os.W_OK) else False


def _own_cgroup() -> Path | None:
    """This process's cgroup v2 folder (where the cgroup2 file system is mounted, plus its path), None without one."""
    if sys.platform != "linux":
        return None
    try:
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
        own = next(line[3:].strip() for line in Path("/proc/self/cgroup").read_text().splitlines()
                   if line.startswith("0::"))
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields, _, kind = line.partition(" - ")
        if kind.split()[:1] == ["cgroup2"]:
            return Path(fields.split()[4]) / own.lstrip("/")
    return None


def members(cgroup: Path) -> list[int]:
    """The pids in `cgroup` (none once it is gone)."""
    try:
        return [int(pid) for pid in (cgroup / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _kill(pid: int, select: Callable[[str], bool]) -> bool:
    try:
        handle = os.pidfd_open(pid)
    except OSError:
        return False
    try:
        mark = marker_of(pid)  # read again through the pid the handle holds: the same process, or no signal
        if not (mark and select(mark)):
            return False
        signal.pidfd_send_signal(handle, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(handle)


def _pids() -> list[int]:
    """The pids of this user's processes (Linux /proc; elsewhere none: there only the agent's process group is
    ended). Another user's processes are never touched, even by root."""
    if sys.platform != "linux":
        return []
    mine = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and entry.stat().st_uid == os.geteuid():
                mine.append(int(entry.name))
    return mine


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _watch(harness: str) -> None:
    """The watchdog: wait for the harness's pipe to close, then end everything its agents left."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        while sys.stdin.buffer.read(4096):
            pass
    end_harness_cgroups(lambda other: other == harness)
    end_marked(lambda mark: mark.startswith(f"{harness}:"))


if __name__ == "__main__":
    _watch(sys.argv[1])
