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
signalled. A process that clears its environment and leaves the process tree escapes this (the harness, a
subreaper, still finds it by its parent chain while it lives).

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
_watchdog: subprocess.Popen[bytes] | None = None


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
    return end_marked(lambda mark: not alive(mark.rpartition(":")[0]), deadline_s=1.0)


def start_watchdog() -> None:
    """Start, once per process, the watchdog that ends this harness's agents when the harness goes (however)."""
    global _watchdog
    if sys.platform != "linux" or (_watchdog is not None and _watchdog.poll() is None):
        return
    _watchdog = subprocess.Popen(
        [sys.executable, "-I", "-S", __file__, owner()], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True, env={})


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
    """Every pid on the machine (Linux /proc; elsewhere none: there only the agent's process group is ended)."""
    if sys.platform != "linux":
        return []
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


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
    end_marked(lambda mark: mark.startswith(f"{harness}:"))


if __name__ == "__main__":
    _watch(sys.argv[1])
