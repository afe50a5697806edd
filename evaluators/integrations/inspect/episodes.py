"""Inspect samples played through shopbench's MCP server: one environment per eval (`shared_environment`, in process),
one MCP connection per sample, every episode recorded by the server's Episode into a shopbench run folder.

The connection is the official MCP client over an in-memory transport (`Client(server, mode="legacy")`), read
through `mcp_server.episode_client.EpisodeClient`, the one client-side reader of tool results — so the end of an
episode comes from the episode status, never from a message's wording, and `start_task` carries the Inspect
identity (model name, epoch, sample id) into the trajectory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from evaluators.integrations.environments import default_runs_dir as runs_dir_for
from evaluators.integrations.environments import shared_environment as shared_environment  # tasks and plugins
from mcp_server.episode_client import EpisodeClient
from mcp_server.server import ShopbenchServer
from mcp_server.trajectory import AgentInfo, AgentKind

HARNESS = "inspect_ai"


def default_runs_dir(benchmark: str) -> Path:
    return runs_dir_for("inspect", benchmark)


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
