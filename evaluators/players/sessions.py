"""MCP sessions to the sandbox: in-process (the official SDK's in-memory client) or a running `shopbench serve`.

Both use the initialize handshake (mode="legacy"): shopbench keeps one episode per connection, which the stateless
2026-07-28 protocol cannot hold (see mcp_server/server.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


@asynccontextmanager
async def in_process_session(server: Any) -> AsyncIterator[Any]:
    from mcp import Client

    async with Client(server, mode="legacy") as client:
        yield client


@asynccontextmanager
async def http_session(url: str, token: str | None = None) -> AsyncIterator[Any]:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
    ):
        yield client
