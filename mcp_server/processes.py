"""Whether a process still runs: the one answer the index builds and the installed agents' process trees share.

A zombie (dead, its exit not yet collected by its parent) does not run: its work is over, so a build folder it left
is abandoned and an agent tree that holds only zombies has ended. (The installed agents' watchdog,
evaluators.players.installed.reaper, runs with the standard library alone and keeps its own Linux-only check.)
"""

from __future__ import annotations

import os
from pathlib import Path

NOT_RUNNING = ("Z", "X")
"""/proc/<pid>/stat states of a process that no longer runs: zombie, dead."""


def process_running(pid: int) -> bool:
    """Whether `pid` is a process that still runs (Linux: its /proc state; elsewhere: whether it exists at all)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return state not in NOT_RUNNING
