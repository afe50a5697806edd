"""The MCP sessions an installed agent opens on its episode's address (/e/<token>/mcp), bounded by the episode.

An agent may open a few sessions on its address (Claude Code opens one; a client that reconnects opens another),
and may never close them: one killed at its episode's end sends no DELETE. Left to the SDK, such a session stays
open until its idle timeout, and a run of a few hundred episodes reaches the server's session cap and refuses its
own agents. So each reserved address holds at most SESSIONS_PER_EPISODE sessions (one more is refused with 503, to
that agent only), and when the harness releases the episode (mcp_server.task_tools.release_episode) its sessions
are closed at once, as the client would close them: a DELETE with the session's id, handed to the SDK in process.
A server holding `concurrency` episodes at a time then needs `session_cap(concurrency)` sessions, whatever the
run's length.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.responses import JSONResponse

from mcp_server.server_state import BINDING_SCOPE_KEY, ServerState

SESSIONS_PER_EPISODE = 4
"""Sessions one episode's address may hold at once: the harness's readiness check, the agent's, and room for an
agent that reconnects."""
SESSION_HEADER = b"mcp-session-id"
DROPPED_HEADERS = {b"content-type", b"content-length", b"accept", SESSION_HEADER}
"""Headers of a session's request not carried over to the DELETE that closes it."""

log = logging.getLogger("shopbench.server")


def session_cap(concurrency: int) -> int:
    """The sessions a server needs for `concurrency` episodes at a time (and one more, whose sessions are still
    being closed)."""
    return SESSIONS_PER_EPISODE * (concurrency + 1)


class EpisodeSessions:
    """ASGI middleware behind mcp_server.transports.EpisodeAddresses: counts the sessions open on each reserved
    episode's address, refuses one past SESSIONS_PER_EPISODE, and closes them when the episode is released."""

    def __init__(self, app: Any, state: ServerState) -> None:
        self.app = app
        self.open: dict[str, dict[str, dict[str, Any]]] = {}
        """Address token → its open sessions: id → the scope of the session's latest request (what its DELETE is
        made from: the same headers pass the SDK's checks)."""
        self.closing: set[asyncio.Task[None]] = set()
        state.on_release.append(self.release)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        token = scope.get(BINDING_SCOPE_KEY) if scope["type"] == "http" else None
        if token is None:
            await self.app(scope, receive, send)
            return
        sessions = self.open.setdefault(token, {})
        session_id = dict(scope.get("headers") or []).get(SESSION_HEADER, b"").decode("latin-1")
        if not session_id and scope["method"] == "POST" and len(sessions) >= SESSIONS_PER_EPISODE:
            message = f"this episode's address already holds {SESSIONS_PER_EPISODE} open sessions: close one"
            await JSONResponse({"error": message}, status_code=503)(scope, receive, send)
            return
        if session_id in sessions:
            sessions[session_id] = scope

        async def noting(message: Any) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                given = dict(message.get("headers") or []).get(SESSION_HEADER, b"").decode("latin-1")
                if scope["method"] == "DELETE":
                    sessions.pop(session_id, None)
                elif given and token not in self.open:  # opened while its episode was being released
                    self._schedule(given, scope)
                elif given:
                    sessions[given] = scope
            await send(message)

        await self.app(scope, receive, noting)

    def release(self, token: str) -> None:
        """Close the sessions open on a released episode's address (called where nothing may be awaited: the
        DELETEs run as tasks of their own, kept until done)."""
        for session_id, scope in self.open.pop(token, {}).items():
            self._schedule(session_id, scope)

    def _schedule(self, session_id: str, scope: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._close(session_id, scope))
        self.closing.add(task)
        task.add_done_callback(self.closing.discard)

    async def _close(self, session_id: str, last: dict[str, Any]) -> None:
        headers = [(name, value) for name, value in last.get("headers") or [] if name not in DROPPED_HEADERS]
        scope = {**last, "method": "DELETE", "headers": [*headers, (SESSION_HEADER, session_id.encode("latin-1"))]}
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await asyncio.Event().wait()  # no disconnect: the request is answered before anything more is read
            return {"type": "http.disconnect"}

        async def send(message: Any) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 400 and message["status"] != 404:
                log.warning("closing session %s of a released episode: HTTP %s", session_id, message["status"])

        await self.app(scope, receive, send)
