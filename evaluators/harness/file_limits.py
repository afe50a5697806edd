"""A run's concurrency checked against the open files this process may hold, before anything starts.

A run past its open-file limit does not fail cleanly: sockets, pipes and trajectory files fail at random places
("Too many open files" in the accept loop, in a subprocess's pipes, in an episode's file) and, with installed
agents, no episode finishes. So `run` raises its soft limit to the hard one (as `shopbench serve` does,
mcp_server.http_limits) and refuses, in one line naming the concurrency that fits, a run that would still need more.
"""

from __future__ import annotations

import resource

from evaluators.harness.config import RunOptionError
from mcp_server.http_limits import raise_open_file_limit

RUN_FILES_RESERVED = 64
"""Open files a run holds whatever its concurrency: the JVM's jars and indexes, the run's log, the manifest, stdio
(12 were open in a run of one episode at a time)."""


def check_open_files(concurrency: int, episodes: int, files_per_episode: int) -> None:
    """Raise RunOptionError when `concurrency` (of a run of `episodes`) episodes at a time, each holding about
    `files_per_episode` open files, cannot fit this process's open-file limit (its soft limit raised to the hard
    one first)."""
    available = raise_open_file_limit()
    at_once = min(concurrency, episodes)
    needed = RUN_FILES_RESERVED + files_per_episode * at_once
    if available == resource.RLIM_INFINITY or needed <= available:
        return
    fits = max(1, (available - RUN_FILES_RESERVED) // files_per_episode)
    plays = f" ({at_once} episodes at a time)" if at_once < concurrency else ""
    raise RunOptionError(f"--concurrency {concurrency}{plays} needs about {needed} open files, but this process may "
                         f"open {available} (ulimit -n): use --concurrency {fits} or less, or raise the limit")
