"""When an agent whose episode is over has finished: nothing of its model call is pending, and its whole process
tree has been asleep, using no CPU, for SETTLE_S.

An agent usually exits by itself once its episode is over (its model answers the tool result that ended it with
text, it prints its summary and exits), but one may linger: an MCP client that never closes its session, an agent
waiting on a subprocess of its own. The harness ends such an agent as soon as it has finished rather than after the
whole grace period (evaluators.harness.installed.END_GRACE_S): a run of hundreds of episodes with an agent that
lingers takes as long as one with an agent that exits. An agent still working — a model call in flight, a process
running, CPU time still rising as it writes its transcript — is left its grace period.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from evaluators.models.base import ChatMessage, GenerateConfig, ModelOutput, ToolSpec, WrappedModel
from evaluators.players.installed.process import tree

SETTLE_S = 0.2
"""How long an agent's tree must stay asleep, with no model call pending, to count as finished."""
ASLEEP = frozenset("SIZT")
"""/proc states of a process waiting on something (sleeping, idle, a zombie, stopped); R and D are working."""


class CallsInFlight(WrappedModel):
    """Counts the model calls the agent has made through the bridge that are not answered yet."""

    pending = 0

    async def generate(self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None,
                       config: GenerateConfig | None = None) -> ModelOutput:
        self.pending += 1
        try:
            return await self.inner.generate(messages, tools, config)
        finally:
            self.pending -= 1


class Finished:
    """Called with the agent's pid while its episode is over: whether it has finished (see the module docstring)."""

    def __init__(self, calls: CallsInFlight) -> None:
        self.calls = calls
        self.seen: Any = None
        self.since = 0.0

    def __call__(self, pid: int) -> bool:
        now = time.monotonic()
        state = None if self.calls.pending else cpu_state(descendants(pid))
        if state is None or state != self.seen:
            self.seen, self.since = state, now
            return False
        return now - self.since >= SETTLE_S


def descendants(root: int) -> list[int]:
    """`root` and every process below it, read from each thread's /proc children list (a few reads for a few
    processes, where a scan of /proc costs ~10 ms on a busy machine); the scan where those lists are missing."""
    found, frontier = [root], [root]
    while frontier:
        pid = frontier.pop()
        try:
            children = [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
                        for child in (task / "children").read_text().split()]
        except FileNotFoundError:
            if pid == root and Path(f"/proc/{root}").exists():  # no children lists (an old kernel)
                return [root, *tree(root)]
            continue
        except (OSError, ValueError):
            continue  # gone since it was listed
        found += children
        frontier += children
    return found


def cpu_state(pids: list[int]) -> tuple[int, ...] | None:
    """The CPU clock ticks each of `pids` has used, or None while any of them is working (or off Linux, where this
    is not known)."""
    if sys.platform != "linux":
        return None
    ticks = []
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone since it was listed
        if fields[0] not in ASLEEP:
            return None
        ticks.append(int(fields[11]) + int(fields[12]))
    return tuple(ticks)

