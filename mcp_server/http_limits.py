"""What one local process may hold of `shopbench serve --transport http`, so that none can take the server down.

Without these, any process on the machine (no token is needed on loopback) could exhaust the server's open files
with sessions that each hold a trajectory file (uvicorn's accept loop and the SDK's session task group then fail,
ending every running episode), lock new clients out for the SDK's 30-minute idle period, or hold hundreds of
connections open by sending a request's head a byte at a time. The caps below refuse the excess clearly (HTTP 503)
while clients already in keep playing; the body limits are applied while reading, by mcp_server.transports'
guard.

Light at import (the `serve` command's option defaults come from here): uvicorn and h11 load when a server starts.
"""

from __future__ import annotations

import math
import resource
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest request body, as the SDK's own default (mcp.server.transport_security.DEFAULT_MAX_REQUEST_BODY_SIZE);
handed to the SDK too, so both refuse at the same size."""
DEFAULT_MAX_SESSIONS = 128
"""Room for an evaluation's clients. Not 256: that many need about 1,200 open files, past the hard limit of 1,024 some
systems set, and `serve` would then refuse to start by default; RL rollouts ask for theirs with --max-sessions
(docs/RECIPES.md §9: 256 sessions cost the server about 170 KiB each)."""
DEFAULT_SESSION_IDLE_TIMEOUT_S = 300.0
DEFAULT_REQUEST_TIMEOUT_S = 10.0
CONNECTIONS_PER_SESSION = 2
"""The official client holds two connections per session: its POSTs and the GET event stream."""
SPARE_CONNECTIONS = 32
"""Connections beyond the sessions' own, for clients opening a session or making a stateless call."""
FILES_RESERVED = 256
"""Open files the server needs besides connections and trajectories: the JVM's jars, its Lucene indexes (mapped, so
few stay open), log files, the web-search cache, the manifest lock; 12 were open after a few searches, the rest is
headroom."""
DRAIN_S = 2.0
"""How long the rest of a body is read and dropped after the app answered without it (e.g. 413), before closing."""
ACCEPT_BACKLOG = 128
"""Connections the OS queues for accepting, which asyncio may accept in one go before any is refused."""
REFUSED_CONNECTION = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)


@dataclass(frozen=True)
class HttpLimits:
    """The HTTP server's limits (`shopbench serve --max-sessions/--session-idle-timeout/--request-timeout`)."""

    max_sessions: int = DEFAULT_MAX_SESSIONS
    """Open MCP sessions; one past it is refused with HTTP 503 by the SDK. Each holds at most one running episode
    (start_task abandons the session's previous one), so this also bounds open trajectory files."""
    session_idle_timeout_s: float = DEFAULT_SESSION_IDLE_TIMEOUT_S
    """A session with no request in flight and no open event stream for this long is closed (its episode
    abandoned); the SDK's own default is 30 minutes."""
    request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S
    """Time allowed to send a request's head, and again its body; a connection past it is closed."""
    max_body_bytes: int = MAX_BODY_BYTES

    def __post_init__(self) -> None:
        if self.max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        for name in ("session_idle_timeout_s", "request_timeout_s"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds")

    @property
    def max_connections(self) -> int:
        return CONNECTIONS_PER_SESSION * self.max_sessions + SPARE_CONNECTIONS

    @property
    def open_files_needed(self) -> int:
        """Connections (and a backlog accepted at once), one trajectory file per session, what the server needs
        anyway."""
        return self.max_connections + ACCEPT_BACKLOG + self.max_sessions + FILES_RESERVED


def raise_open_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit, where the OS allows; return the soft limit
    in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY or soft >= hard:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):
        return soft
    return hard


def open_file_problem(limits: HttpLimits, available: int) -> str | None:
    """Why `limits` cannot be held within `available` open files, or None when they fit."""
    if available == resource.RLIM_INFINITY or limits.open_files_needed <= available:
        return None
    return (f"--max-sessions {limits.max_sessions} needs about {limits.open_files_needed} open files, but this "
            f"process may open {available} (ulimit -n): lower --max-sessions or raise the limit")


def limited_h11(limits: HttpLimits) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the limits uvicorn lacks: a cap on open connections (one past it is answered 503
    and closed at once, so its file is back at once rather than when the client gives up), a deadline for a request's
    head (uvicorn waits for headers forever, and any byte restarts its keep-alive timer), and one for the rest of a
    body the app answered without reading (a refusal: uvicorn would read and drop it for as long as it comes)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    message = (b'{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"too many open connections (%d): '
               b'close idle ones or retry later"}}' % limits.max_connections)
    refusal = REFUSED_CONNECTION % (len(message), message)

    class LimitedH11Protocol(H11Protocol):
        watched: type[h11.IDLE] | type[h11.SEND_BODY] | None = None
        """The client's state a deadline runs for: IDLE (no head yet) or SEND_BODY (after the answer)."""
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > limits.max_connections:
                transport.write(refusal)
                transport.close()
                return
            self._watch()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._unwatch()
            super().connection_lost(exc)

        def _watch(self) -> None:
            """Start a deadline when the client enters a state it could stretch forever, and keep it, whatever bytes
            arrive, until the state ends: waiting for a head, or for the rest of a body already answered (the drain
            lets the client read the answer before the close; closing on unread data resets the connection)."""
            state = self.conn.their_state
            answered = self.cycle is not None and self.cycle.response_complete
            wanted = state if state is h11.IDLE or (state is h11.SEND_BODY and answered) else None
            if wanted is self.watched:
                return
            self._unwatch()
            if wanted is not None and not self.transport.is_closing():
                seconds = limits.request_timeout_s if wanted is h11.IDLE else DRAIN_S
                self.deadline = self.loop.call_later(seconds, self._overdue)
                self.watched = wanted

        def _unwatch(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline, self.watched = None, None

        def _overdue(self) -> None:
            self.deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return LimitedH11Protocol
