"""Serving an app on a free loopback port (mcp_server.loopback), as the model bridge and the installed agents' MCP
server do: it answers while the block runs and is gone after it, and its socket is one asyncio sets TCP_NODELAY on
(without it, keep-alive calls waited 40 ms each for the client's delayed ACK)."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from mcp_server.loopback import loopback_socket, serve_on_loopback


async def _hello(request: Any) -> PlainTextResponse:
    return PlainTextResponse("hello")


async def test_the_app_answers_on_a_loopback_port_until_the_block_ends() -> None:
    async with serve_on_loopback(Starlette(routes=[Route("/", _hello)]), "the test app", lifespan="off") as url:
        assert url.startswith("http://127.0.0.1:")
        async with httpx.AsyncClient() as client:
            assert (await client.get(url)).text == "hello"
    with pytest.raises(httpx.ConnectError):
        async with httpx.AsyncClient() as client:
            await client.get(url)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_the_socket_says_tcp_so_asyncio_sets_tcp_nodelay(host: str) -> None:
    with loopback_socket(host) as sock:
        assert sock.proto == socket.IPPROTO_TCP and sock.getsockname()[0] == host and sock.getsockname()[1] > 0
