"""Serving an ASGI app on a free loopback port of this process, in this event loop: the per-run MCP server for
installed agents (mcp_server.transports.serve_reserved_episodes) and the model bridge (evaluators.bridge) both serve
this way; `mcp_server.http_launch.free_port` picks a port the same way for a server started as a process."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

LOOPBACK = "127.0.0.1"


def loopback_socket(host: str = LOOPBACK) -> socket.socket:
    """A TCP socket bound to `host` (an IPv4 or IPv6 address) on a port the OS picks.

    IPPROTO_TCP is spelled out: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and without it every
    keep-alive response (head and body written apart) waited 40 ms for the client's delayed ACK."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.bind((host, 0))
    except OSError:
        sock.close()
        raise
    return sock


@asynccontextmanager
async def serve_on_loopback(app: Any, name: str, **config: Any) -> AsyncIterator[str]:
    """Serve `app` with uvicorn on a free loopback port while the block runs; yields its base URL
    (http://127.0.0.1:PORT). `config`: uvicorn.Config's options beyond the quiet defaults (e.g. `http`, `lifespan`).
    The process's signal handlers are left to the caller (a run stops in its own order); `name` says what stopped
    when the server fails to start."""
    import uvicorn

    class Quiet(uvicorn.Server):
        """Leaves SIGINT/SIGTERM to the program that serves."""

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    sock = loopback_socket()
    server = Quiet(uvicorn.Config(app, **{"log_level": "warning", "access_log": False,
                                          "timeout_graceful_shutdown": 2, **config}))
    task = asyncio.ensure_future(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError(f"{name} stopped while starting")
            await asyncio.sleep(0.005)
        yield f"http://{LOOPBACK}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()
