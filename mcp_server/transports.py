"""The transports around the MCP server (mcp_server.server): stdio, and streamable HTTP with its ASGI middleware
(bearer token, DNS-rebinding checks on loopback, a JSON-RPC guard in front of the SDK's handler).

Kept apart from the server so the server's tools, state and episodes read without the wire; this module imports
the server, never the other way round.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, redirect_stdout
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from mcp_server.episode_keys import carries_episode_key
from mcp_server.episode_sessions import EpisodeSessions
from mcp_server.http_limits import ACCEPT_BACKLOG, HttpLimits, limited_h11
from mcp_server.loopback import serve_on_loopback
from mcp_server.server import ShopbenchServer
from mcp_server.server_state import BINDING_SCOPE_KEY, ServerState

EPISODE_ADDRESS = re.compile(r"/e/(?P<token>[A-Za-z0-9_-]{16,64})/mcp/?")
"""A reserved episode's endpoint path (episode_url writes it)."""

__all__ = [
    "BearerTokenAuth",
    "EpisodeAddresses",
    "JsonRpcGuard",
    "bind_host",
    "endpoint_url",
    "episode_url",
    "garbage_reply",
    "http_app",
    "is_loopback",
    "loopback_security",
    "serve_http",
    "serve_reserved_episodes",
    "serve_stdio",
    "stdout_to_stderr",
]


def require_session_handshake(server: MCPServer[Any]) -> None:
    """Make auto-negotiating HTTP clients use the initialize handshake (which carries a session) by declining
    the stateless `server/discover` probe; their SDKs fall back on any error there."""

    async def decline_discover(ctx: Any, call_next: Any) -> Any:
        if ctx.method == "server/discover":
            raise MCPError(code=METHOD_NOT_FOUND, message="shopbench keeps per-session episodes: use initialize")
        return await call_next(ctx)

    if not any(getattr(mw, "__name__", "") == "decline_discover" for mw in server.middleware):
        server.middleware.append(decline_discover)


class BearerTokenAuth:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>` (the scheme in any case, as
    RFC 9110 says), else 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app, self.expected = app, token.encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            supplied = dict(scope.get("headers") or []).get(b"authorization", b"")
            scheme, _, credentials = supplied.strip().partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(credentials.strip(), self.expected):
                response = JSONResponse(
                    {"error": "unauthorized: send Authorization: Bearer <token>"},
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_security(host: str) -> TransportSecuritySettings:
    """DNS-rebinding protection for a loopback bind: only Host/Origin headers naming this machine are accepted. (The
    SDK turns it on by itself for 127.0.0.1, ::1 and localhost only; any other loopback address, e.g. 127.0.0.2,
    gets it here.)"""
    hosts = list(dict.fromkeys([url_host(host), "127.0.0.1", "localhost", "[::1]"]))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:*" for name in hosts],
        allowed_origins=[f"http://{name}:*" for name in hosts],
    )


def http_app(server: ShopbenchServer, *, host: str = "127.0.0.1", token: str | None = None,
             limits: HttpLimits | None = None, reserved_only: bool = False) -> Any:
    """The streamable-HTTP ASGI app (path /mcp, and /e/<token>/mcp for each reserved episode: EpisodeAddresses).
    Binding beyond loopback requires a token; on any loopback address the Host/Origin (DNS-rebinding) checks stay
    on. `limits` bounds sessions, their idle time and request bodies. `reserved_only` serves reserved episodes'
    addresses only (what a harness serves its installed agents)."""
    if not is_loopback(host) and not token:
        raise ValueError(f"binding {host} exposes the server beyond this machine: pass --token to require bearer auth")
    limits = limits or HttpLimits()
    require_session_handshake(server)
    security = loopback_security(host) if is_loopback(host) else None
    # Plain JSON responses: the tools send no progress or server-to-client requests mid-call, and an SSE stream per
    # POST costs the server a task, a memory stream and a socket per call.
    sdk_app = server.streamable_http_app(
        host=host, transport_security=security, json_response=True, max_request_body_size=limits.max_body_bytes,
        session_idle_timeout=limits.session_idle_timeout_s, max_sessions=limits.max_sessions,
    )
    sessions = EpisodeSessions(JsonRpcGuard(sdk_app, security, limits), server.state)
    app = EpisodeAddresses(sessions, server.state, reserved_only=reserved_only)
    return BearerTokenAuth(app, token) if token else app


class EpisodeAddresses:
    """ASGI middleware: /e/<token>/mcp is the MCP endpoint of one reserved episode (mcp_server.task_tools.
    reserve_episode). The request goes on to /mcp with the token in its scope, where ServerState.client finds the
    episode; a token that names no open reservation is 404 before anything is read, and a request without the
    episode's credential (mcp_server.episode_keys) is 401, logged."""

    def __init__(self, app: Any, state: ServerState, *, reserved_only: bool) -> None:
        self.app, self.state, self.reserved_only = app, state, reserved_only

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            match = EPISODE_ADDRESS.fullmatch(scope["path"])
            if match is not None and match["token"] in self.state.reservations:
                if not carries_episode_key(scope, match["token"]):
                    await JSONResponse({"error": "unauthorized: this address needs its episode's credential"},
                                       status_code=401, headers={"WWW-Authenticate": "Bearer"})(scope, receive, send)
                    return
                scope = {**scope, "path": "/mcp", "raw_path": b"/mcp", BINDING_SCOPE_KEY: match["token"]}
            elif match is not None or self.reserved_only:
                await JSONResponse({"error": "no open episode at this address"}, status_code=404)(scope, receive,
                                                                                                  send)
                return
        await self.app(scope, receive, send)


def episode_url(base_url: str, token: str) -> str:
    """The MCP endpoint of the episode reserved under `token`, on the server at `base_url` (serve_reserved_episodes'
    URL)."""
    return f"{base_url}/e/{token}/mcp"


def bind_host(host: str) -> str:
    """The address to bind: an IPv6 literal without the brackets a URL puts around it (`[::1]` → `::1`)."""
    return host.strip("[]")


def url_host(host: str) -> str:
    """The host as a URL or a Host header writes it: an IPv6 literal in brackets (`::1` → `[::1]`)."""
    bare = bind_host(host)
    return f"[{bare}]" if ":" in bare else bare


def endpoint_url(host: str, port: int) -> str:
    """The endpoint as a client writes it (an IPv6 literal in brackets)."""
    return f"http://{url_host(host)}:{port}/mcp"


async def serve_http(server: ShopbenchServer, *, host: str = "127.0.0.1", port: int = 8765,
                     token: str | None = None, limits: HttpLimits | None = None) -> None:
    """Serve over streamable HTTP until interrupted; running episodes are abandoned on the way out. Connections are
    capped and must send each request's head in time (mcp_server.http_limits)."""
    import uvicorn

    limits = limits or HttpLimits()
    host = bind_host(host)
    app = http_app(server, host=host, token=token, limits=limits)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", http=limited_h11(limits),
                            backlog=ACCEPT_BACKLOG)
    try:
        await uvicorn.Server(config).serve()
    finally:
        server.abandon_all()


@asynccontextmanager
async def serve_reserved_episodes(server: ShopbenchServer, limits: HttpLimits | None = None) -> AsyncIterator[str]:
    """Serve the reserved episodes' addresses over streamable HTTP on a free loopback port, in this event loop, while
    the block runs; yields the base URL (an episode's endpoint is `{url}/e/{token}/mcp`). The process's signal
    handlers are left to the caller (a run stops in its own order)."""
    limits = limits or HttpLimits()
    app = http_app(server, limits=limits, reserved_only=True)
    async with serve_on_loopback(app, "the MCP server for installed agents", http=limited_h11(limits)) as url:
        yield url


async def serve_stdio(server: ShopbenchServer, after_handshake: Callable[[], object] | None = None) -> None:
    """Serve one client over stdin/stdout; when it closes the pipe, its running episode is abandoned. A line that is
    not a JSON-RPC message gets a JSON-RPC error reply (and a line on stderr) instead of silence.

    `after_handshake` is called at the client's first message after `initialize` (its `notifications/initialized`),
    so that what it starts (`serve`: the JVM and the Lucene indexes, in a thread) neither competes with the answer to
    `initialize` (on 2 cores that cost the answer 0.1 s at the median) nor writes on the protocol channel (while the
    transport holds stdout, fd 1 points at stderr)."""
    from mcp.server.stdio import stdio_server

    if after_handshake is not None:
        call_after_handshake(server, after_handshake)
    try:
        # MCPServer.run_stdio_async() is stdio_server() + the low-level run, and the SDK's stdin reader hands an
        # unparsable line to the session as an Exception, which the session only logs: the client then waits forever.
        # There is no public hook for it, so the same two steps are done here with a filter in between that answers
        # those Exceptions (the SDK keeps its stdin/stdout claim; `_lowlevel_server` is the one private name used).
        async with stdio_server() as (read_stream, write_stream):
            sender, receiver = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def answer_garbage() -> None:
                async with sender:
                    async for item in read_stream:
                        if isinstance(item, Exception):
                            reply = garbage_reply(item)
                            log_garbage("stdio", reply)
                            await write_stream.send(SessionMessage(reply))
                        else:
                            await sender.send(item)

            lowlevel = server._lowlevel_server
            async with anyio.create_task_group() as group:
                group.start_soon(answer_garbage)
                await lowlevel.run(receiver, write_stream, lowlevel.create_initialization_options())
                group.cancel_scope.cancel()
    finally:
        server.abandon_all("the client disconnected")


def call_after_handshake(server: MCPServer[Any], then: Callable[[], object]) -> None:
    """Call `then` once, when the first message after `initialize` reaches the server (the answer to `initialize`
    has then been sent)."""

    async def after_handshake(ctx: Any, call_next: Any) -> Any:
        if ctx.method != "initialize" and after_handshake in server.middleware:
            server.middleware.remove(after_handshake)
            then()
        return await call_next(ctx)

    server.middleware.append(after_handshake)


def garbage_reply(error: Exception) -> JSONRPCError:
    """The JSON-RPC error answering a message that could not be read: -32700 Parse error for bytes that are not JSON
    (invalid JSON, lone surrogates, nesting past the parser's depth limit), -32600 Invalid Request for JSON that is not
    one request object (a batch, a number, a request with a bad field) with its id where one can be read. The message
    never carries pydantic's wording."""
    details = error.errors() if isinstance(error, ValidationError) else []
    if not details or any(detail["type"] == "json_invalid" for detail in details):
        reason = next((str(d.get("ctx", {}).get("error", "")) for d in details if d["type"] == "json_invalid"), "")
        message = f"Parse error: the message is not valid JSON ({reason})" if reason else "Parse error"
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message=message))
    whole = next((d["input"] for d in details if len(d["loc"]) <= 1), None)
    if isinstance(whole, list):
        message = "Invalid Request: batches are not supported; send one JSON-RPC request object per message"
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=INVALID_REQUEST, message=message))
    if not isinstance(whole, dict):
        whole = next((d["input"] for d in details if isinstance(d["input"], dict) and "jsonrpc" in d["input"]), None)
    request_id = whole.get("id") if isinstance(whole, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        request_id = None
    fields = sorted({str(d["loc"][1]) for d in details if len(d["loc"]) >= 2 and d["loc"][0] == "JSONRPCRequest"})
    hint = f" (check {', '.join(fields)})" if fields and isinstance(whole, dict) else ""
    message = f"Invalid Request: not a JSON-RPC 2.0 request, notification or response object{hint}"
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=INVALID_REQUEST, message=message))


def log_garbage(transport: str, reply: JSONRPCError) -> None:
    print(f"shopbench serve ({transport}): answered an unreadable message with {reply.error.code} "
          f"{reply.error.message}", file=sys.stderr, flush=True)


class JsonRpcGuard:
    """ASGI middleware in front of the SDK's streamable-HTTP handler, on every POST whatever its path.

    Before reading a byte of the body it applies the SDK's own Content-Type, Host and Origin checks and refuses a
    declared Content-Length over the size limit; while reading it counts bytes (a chunked body is refused as it
    passes the limit) against a deadline. After a refusal the rest of the body is never kept, so a 300 MB
    cross-origin text/plain POST (what a web page may send without a preflight) costs the server no memory.

    A body that is not one JSON-RPC message gets HTTP 400 with a JSON-RPC -32700 / -32600 error (see garbage_reply)
    before it reaches the SDK, whose own answer to such bodies is -32602 with pydantic's validation text. Good bodies
    pass through untouched (replayed)."""

    def __init__(self, app: Any, security: TransportSecuritySettings | None, limits: HttpLimits) -> None:
        self.app, self.limits = app, limits
        self.headers_check = TransportSecurityMiddleware(security)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body: bytes | None = None
        request = Request(scope)
        refusal = await self.headers_check.validate_request(request, is_post=True)
        refusal = refusal or self._declared_too_large(request)
        if refusal is None:
            body, refusal = await self._read_body(receive)
        if refusal is not None:  # what follows of the body is dropped, for a moment (http_limits.DRAIN_S)
            await refusal(scope, receive, send)
            return
        if body is None:  # the client went away
            return
        try:
            jsonrpc_message_adapter.validate_json(body, by_name=False)
        except ValidationError as error:
            reply = garbage_reply(error)
            log_garbage("http", reply)
            content = reply.model_dump(mode="json", by_alias=True, exclude_unset=True)
            await JSONResponse(content, status_code=400)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _declared_too_large(self, request: Request) -> Response | None:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limits.max_body_bytes:
            return self._too_large()
        return None

    def _too_large(self) -> Response:
        return Response(f"Request body too large (at most {self.limits.max_body_bytes} bytes)", status_code=413)

    async def _read_body(self, receive: Any) -> tuple[bytes | None, Response | None]:
        """The whole body, or why it was refused; (None, None) when the client disconnected."""
        chunks: list[bytes] = []
        size = 0
        with anyio.move_on_after(self.limits.request_timeout_s):
            while True:
                event = await receive()
                if event["type"] == "http.disconnect":
                    return None, None
                chunk = event.get("body", b"")
                size += len(chunk)
                if size > self.limits.max_body_bytes:
                    return None, self._too_large()
                chunks.append(chunk)
                if not event.get("more_body", False):
                    return b"".join(chunks), None
        timeout = self.limits.request_timeout_s
        return None, Response(f"Request body not received within {timeout:g} s", status_code=408)


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send everything written to stdout — by Python, the JVM under Pyserini or C libraries — to stderr while the
    world loads, so nothing lands on the stdio protocol channel before the transport claims it."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
