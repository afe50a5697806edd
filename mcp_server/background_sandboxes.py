"""Sandboxes opened in a background thread, so that a server answers its client before Java and the indexes load.

An agent that starts `shopbench serve --transport stdio` (Claude Code, Codex) gives it seconds to answer
`initialize`, and opening a world's sandbox takes more: the JVM, the Lucene indexes, or building them. The
handshake, `tools/list`, `list_tasks` and the resources need no sandbox; `start_task` looks its suite's sandbox up
in the worker pool (never on the event loop), and waits there until this thread has opened it. A sandbox that cannot
be opened is one line on stderr when it fails, and the error `start_task` answers on its suite: the server stays up,
so the client reads why.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Mapping, Sequence

from mcp_server.episodes import EpisodeError
from mcp_server.suites import TaskSuite
from mcp_server.toolbox import ToolRunner


class SandboxUnavailable(EpisodeError):
    """A suite's sandbox could not be opened; the message is the cause in one line."""


class BackgroundSandboxes(Mapping[int, ToolRunner]):
    """id(suite) → its sandbox, as `ServerState.sandboxes`, opened one suite after another by a thread `start()`
    begins. Looking one up blocks until it is open (or raises SandboxUnavailable): call it off the event loop."""

    def __init__(self, suites: Sequence[TaskSuite]) -> None:
        self._suites = list(suites)
        self._opened: dict[int, ToolRunner] = {}
        self._failed: dict[int, str] = {}
        self._ready = {id(suite): threading.Event() for suite in self._suites}
        self._thread = threading.Thread(target=self._open_all, name="shopbench-sandboxes", daemon=True)

        self._starting = threading.Lock()

    def start(self) -> None:
        """Begin opening (once; later calls do nothing)."""
        with self._starting:
            if self._thread.ident is None:
                self._thread.start()

    def _open_all(self) -> None:
        for suite in self._suites:
            try:
                self._opened[id(suite)] = suite.open_sandbox()
            except Exception as error:  # reported to the client at start_task; the server stays up
                problem = f"the {suite.benchmark} sandbox could not be opened: {one_line(error)}"
                self._failed[id(suite)] = problem
                print(f"shopbench: {problem}", file=sys.stderr, flush=True)
            finally:
                self._ready[id(suite)].set()

    def __getitem__(self, key: int) -> ToolRunner:
        self.start()  # a lookup before start() (a server used in process) must not wait forever
        self._ready[key].wait()
        if key in self._failed:
            raise SandboxUnavailable(self._failed[key])
        return self._opened[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._ready)

    def __len__(self) -> int:
        return len(self._ready)


def one_line(error: BaseException) -> str:
    """The error's message on one line (its type's name when it has none)."""
    return " ".join(str(error).split()) or type(error).__name__
