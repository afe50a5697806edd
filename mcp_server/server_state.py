"""What the server's handlers share: the hosted suites, the run folder, the worker pool, and each client's state.

Per-client state. Each client has its own episode; two clients never see each other's. A client is its MCP
connection: the stdio process (one client per process), a streamable-HTTP session (Mcp-Session-Id), or an
in-memory connection made with the initialize handshake. MCP 2026-07-28 connections are stateless (every request is
its own connection), so over HTTP the server declines `server/discover` and clients fall back to the handshake,
which carries a session; an in-memory client must connect with `mode="legacy"`.

Sandbox work — Lucene, a live web search, trajectory and manifest writes — runs in a bounded worker pool
(`anyio.to_thread.run_sync` with one CapacityLimiter), never on the event loop, so one client's slow call never holds
another's. Lucene calls still take turns on `lucene_runtime.java_lock`, inside the search layer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcp_server.episodes import Episode
from mcp_server.protocol import SERVER_NAME, StartedEpisode, TaskListing
from mcp_server.suites import SuiteWorld, TaskSuite
from mcp_server.toolbox import EpisodeTool, ToolRunner
from mcp_server.trajectory import Usage

SANDBOX_WORKERS = 16
"""Worker threads for sandbox work. Lucene calls take turns on the Java lock anyway; the other workers keep slow
calls (a live web search waits up to 30 s) from queueing everyone else."""
T = TypeVar("T")


BINDING_SCOPE_KEY = "shopbench.episode_token"
"""Where mcp_server.transports puts the token of a reserved episode's address (/e/<token>/mcp) in the HTTP scope."""


@dataclass(eq=False)
class ClientState:
    """What one client has going: at most one episode at a time, and the ids of the episodes it started."""

    episode: Episode | None = None
    started: set[str] = field(default_factory=set)
    reserved: StartedEpisode | None = None
    """Set when the harness started the episode for an installed agent before the agent ran (task_tools.
    reserve_episode): every connection on the episode's address is this one client, it plays that episode only
    (start_task returns it, list_tasks lists its task), and a connection closing does not end it — the harness does."""
    usage: Callable[[], Usage | None] | None = None
    """A reserved episode's source of step usage: what the agent's model calls since the previous step cost (the
    harness's model bridge counts them), for tool calls that carry no usage in `_meta`."""

    def abandon(self, message: str) -> None:
        """End its running episode, if any (the client went, the server stops)."""
        if self.episode is not None and not self.episode.over:
            self.episode.abandon(message)


@dataclass
class ServerState:
    """Everything the server's handlers share; the lifespan hands it to them (ctx.request_context.lifespan_context)."""

    world: SuiteWorld | None
    suites: list[TaskSuite]
    runs_dir: Path
    max_steps: int
    agent_defaults: dict[str, Any]
    single_client: bool
    tools: dict[str, EpisodeTool]
    """The episode tools the server lists (mcp_server.suite_registry.listed_tools)."""
    sandboxes: Mapping[int, ToolRunner] = field(default_factory=dict)
    """id(suite) → the sandbox its episodes share, opened when the server was built or in the background (a lookup
    then waits for it, in the worker pool)."""
    workers: int = SANDBOX_WORKERS
    listings: list[TaskListing] = field(default_factory=list)
    """Every task of every suite, listed once."""
    holders: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """task_id → the (benchmark, task_set) pairs that hold it, so start_task finds its suite without a scan."""
    shared_client: ClientState = field(default_factory=ClientState)
    clients: set[ClientState] = field(default_factory=set)
    """Connected clients (HTTP sessions, in-memory connections), so shutdown can end their episodes."""
    reservations: dict[str, ClientState] = field(default_factory=dict)
    """Address token → the client of an episode reserved for an installed agent (task_tools.reserve_episode)."""
    on_release: list[Callable[[str], None]] = field(default_factory=list)
    """Called with a reserved episode's token when the harness releases it (the HTTP layer closes its sessions:
    mcp_server.episode_sessions)."""
    last_disconnect_abandon: float | None = None
    """When (monotonic) an episode was last abandoned because its client's connection closed."""
    limiter: anyio.CapacityLimiter | None = None
    open_lifespans: int = 0

    async def run(self, work: Callable[[], T]) -> T:
        """Run blocking sandbox work (Lucene, live search, file writes) in the worker pool, off the event loop."""
        if self.limiter is None:  # a handler called outside the server's lifespan (tests calling it directly)
            self.limiter = anyio.CapacityLimiter(self.workers)
        return await anyio.to_thread.run_sync(work, limiter=self.limiter)

    def reserved_client(self, context: ShopbenchContext) -> ClientState | None:
        """The reserved episode's client when the request came to its address (/e/<token>/mcp), else None; an
        address whose episode was released is an error."""
        request = context.request_context.request
        token = getattr(request, "scope", {}).get(BINDING_SCOPE_KEY)
        if token is None:
            return None
        client = self.reservations.get(token)
        if client is None:
            raise ToolError("this episode's address is closed: the episode is over")
        return client

    def client(self, context: ShopbenchContext) -> ClientState:
        """The calling client's state; an error when the connection cannot hold any (see the module docstring).
        A request to a reserved episode's address is that episode's client, whatever its connection."""
        reserved = self.reserved_client(context)
        if reserved is not None:
            return reserved
        if self.single_client:
            return self.shared_client
        session = context.request_context.session
        if session.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise ToolError(
                "this MCP connection is stateless (protocol 2026-07-28), so it cannot hold an episode: connect with "
                'the initialize handshake (python SDK: Client(..., mode="legacy")) or over stdio'
            )
        # The SDK's per-connection scratch space (Connection.state, with an exit stack run when the client goes) is
        # what per-client state needs. The handler-facing Context exposes no public handle to it: the low-level
        # `mcp.server.context.Context.connection` is public but the SDK's runner does not build that Context, and
        # ServerSession keeps its connection private. So this one line reaches into `session._connection`.
        connection = session._connection  # noqa: SLF001 - no public handle (see above)
        client = connection.state.get(SERVER_NAME)
        if client is None:
            client = connection.state[SERVER_NAME] = ClientState()
            self.clients.add(client)
            connection.exit_stack.callback(self._disconnected, client)
        return client

    def _disconnected(self, client: ClientState) -> None:
        if client.episode is not None and not client.episode.over:
            self.last_disconnect_abandon = time.monotonic()
        client.abandon("the client disconnected")
        self.clients.discard(client)

    def abandon_all(self, message: str) -> None:
        """End every episode still running, so no trajectory is left looking like a crash."""
        for client in [self.shared_client, *self.clients, *self.reservations.values()]:
            client.abandon(message)


ShopbenchContext = Context[ServerState, Any]
"""The Context our handlers receive: its lifespan context is the ServerState (a runtime class, so the SDK finds
the parameter by its annotation)."""


def state_of(context: ShopbenchContext) -> ServerState:
    """The server's shared state, as the lifespan handed it to this request."""
    return context.request_context.lifespan_context
