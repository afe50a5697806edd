"""Inspect samples played through shopbench's MCP server: one environment per eval (`open_environment`, in process),
one MCP connection per sample, every episode recorded by the server's Episode into a shopbench run folder.

The connection is the official MCP client over an in-memory transport (`Client(server, mode="legacy")`), read
through `mcp_server.episode_client.EpisodeClient`, the one client-side reader of tool results — so the end of an
episode comes from the episode status, never from a message's wording, and `start_task` carries the Inspect
identity (model name, epoch, sample id) into the trajectory.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from mcp_server.environment import Environment, open_environment
from mcp_server.episode_client import EpisodeClient
from mcp_server.server import ShopbenchServer
from mcp_server.trajectory import AgentInfo, AgentKind

_ENVIRONMENTS: dict[tuple[Any, ...], Environment] = {}
_LOCK = threading.Lock()
HARNESS = "inspect_ai"


def default_runs_dir(benchmark: str) -> Path:
    return Path("runs") / f"inspect-{benchmark}-{datetime.now():%Y%m%d-%H%M%S-%f}"


def shared_environment(
    benchmark: str,
    runs_dir: Path,
    *,
    world: str | Path | None = None,
    task_set: str | None = None,
    items: str | Path | None = None,
    prompting: str | None = None,
    max_steps: int | None = None,
) -> Environment:
    """The eval's environment (opened once per benchmark, world, task set, items, prompting, step limit and run
    folder in this process); `max_steps` None is the opener's default step limit."""
    key = (benchmark, str(Path(runs_dir).resolve()), str(world), task_set, str(items), prompting, max_steps)
    with _LOCK:
        if key not in _ENVIRONMENTS:
            _ENVIRONMENTS[key] = open_environment(
                [benchmark], runs_dir=Path(runs_dir), world=None if world is None else Path(world), task_set=task_set,
                items=items, prompting=prompting, max_steps=max_steps, agent_defaults={"kind": AgentKind.model},
            )
        return _ENVIRONMENTS[key]


def inspect_agent(model: str, *, sample_id: Any, epoch: int, eval_id: str | None = None) -> AgentInfo:
    """Who plays, as the trajectory records it: the Inspect model name, and the Inspect sample and epoch."""
    details: dict[str, Any] = {"harness": HARNESS, "inspect_sample_id": sample_id, "inspect_epoch": epoch}
    if eval_id:
        details["inspect_eval_id"] = eval_id
    return AgentInfo(kind=AgentKind.model, name=model, details=details)


@asynccontextmanager
async def episode_client(server: ShopbenchServer) -> AsyncIterator[tuple[Any, EpisodeClient]]:
    """One MCP connection (one client, one episode at a time) to the eval's server."""
    from mcp import Client

    async with Client(server, mode="legacy") as session:
        yield session, EpisodeClient(session)
