"""`shopbench serve`: the sandbox as an MCP server over stdio or streamable HTTP."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from mcp_server.http_limits import DEFAULT_MAX_SESSIONS, DEFAULT_REQUEST_TIMEOUT_S, DEFAULT_SESSION_IDLE_TIMEOUT_S
from mcp_server.protocol_constants import AgentKind
from shopbench.commands import error_message
from shopbench.options import (
    AgentKindOption,
    AgentName,
    Items,
    MaxSteps,
    Prompting,
    Runs,
    Seed,
    Shots,
    Stated,
    TaskSet,
    User,
    World,
)


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        transport: Transport = typer.Option(Transport.stdio, "--transport", help="stdio (one client) or http."),
        host: str = typer.Option("127.0.0.1", "--host", help="HTTP bind address; beyond loopback needs --token."),
        port: int = typer.Option(8765, "--port", help="HTTP port (the endpoint is http://HOST:PORT/mcp)."),
        world: World = None,
        tasks: TaskSet = None,
        runs: Runs = None,
        token: str | None = typer.Option(None, "--token", envvar="SHOPBENCH_TOKEN",
                                         help="HTTP: require Authorization: Bearer TOKEN on every request."),
        max_steps: MaxSteps = None,
        benchmarks: list[str] = typer.Option(["shoppingbench"], "--benchmark",
                                             help="Benchmark to serve (repeatable); `shopbench run --help` lists "
                                             "the registered ones."),
        items: Items = None,
        prompting: Prompting = None,
        shots: Shots = None,
        seed: Seed = 0,
        user: User = None,
        stated: Stated = None,
        agent_name: AgentName = None,
        agent_kind: AgentKindOption = None,
        max_sessions: int = typer.Option(DEFAULT_MAX_SESSIONS, "--max-sessions", min=1,
                                         help="HTTP: most open MCP sessions (each plays one episode at a time); "
                                         "one more is refused with 503 until a session closes or idles out."),
        session_idle_timeout: float = typer.Option(DEFAULT_SESSION_IDLE_TIMEOUT_S, "--session-idle-timeout",
                                                   min=0.1, help="HTTP: seconds a session may go without a request "
                                                   "or an open event stream before it is closed (its running "
                                                   "episode abandoned)."),
        request_timeout: float = typer.Option(DEFAULT_REQUEST_TIMEOUT_S, "--request-timeout", min=0.1,
                                              help="HTTP: seconds a client may take to send a request's headers, "
                                              "and again its body."),
        build_world: bool = typer.Option(False, "--build-world",
                                         help="stdio: build the default world first when it is missing (about a "
                                         "minute, before the handshake) instead of refusing; HTTP always does."),
    ) -> None:
        """Serve the shopping sandbox to MCP clients (Claude Code, Claude Desktop, Inspect AI, agents).

        Examples: `shopbench serve` (stdio) · `shopbench serve --transport http --port 8765` ·
        `shopbench serve --benchmark shoppingbench --benchmark intentionqa`
        """
        import anyio

        from mcp_server.environment import open_environment
        from mcp_server.http_limits import HttpLimits, open_file_problem, raise_open_file_limit
        from mcp_server.shopping.world_build import WorldNotBuilt
        from mcp_server.suites import NotPlayable, UnknownTaskSet
        from mcp_server.transports import endpoint_url, is_loopback, serve_http, serve_stdio, stdout_to_stderr
        from mcp_server.users import conversation_options

        limits = HttpLimits(max_sessions=max_sessions, session_idle_timeout_s=session_idle_timeout,
                            request_timeout_s=request_timeout)
        if transport is Transport.http:
            if not is_loopback(host) and not token:
                raise typer.BadParameter(f"binding {host} exposes the server beyond this machine; pass --token",
                                         param_hint="--token")
            problem = open_file_problem(limits, raise_open_file_limit())
            if problem:
                typer.echo(f"shopbench serve: {problem}", err=True)
                raise typer.Exit(2)
        runs_dir = runs or Path("runs") / f"serve-{datetime.now():%Y%m%d-%H%M%S}"
        stdio = transport is Transport.stdio
        with stdout_to_stderr():
            try:
                # Over stdio an agent waits seconds for the handshake: the sandboxes open once it is answerable,
                # and a default world is never built inside that wait unless asked for.
                environment = open_environment(benchmarks, runs_dir=runs_dir, world=world, task_set=tasks,
                                               items=items, prompting=prompting, shots=shots or 0, seed=seed,
                                               max_steps=max_steps, **conversation_options(user, stated),
                                               agent_defaults=_agent_defaults(agent_name, agent_kind),
                                               single_client=stdio, background=stdio,
                                               build_world=build_world or not stdio)
                environment.selection()
            except WorldNotBuilt as error:
                typer.echo(f"shopbench serve: {error}: build it first (`shopbench demo --scripted` does, in about "
                           "a minute), or pass --world DIR, or --build-world", err=True)
                raise typer.Exit(2) from None
            except NotPlayable as error:
                typer.echo(f"shopbench serve: {error}", err=True)
                raise typer.Exit(2) from None
            except (FileNotFoundError, UnknownTaskSet, ValueError) as error:
                typer.echo(f"shopbench serve: {error_message(error)}", err=True)
                raise typer.Exit(2) from None
        server = environment.server
        if stdio:
            anyio.run(serve_stdio, server, environment.open_in_background)
        else:
            typer.echo(f"shopbench: serving {endpoint_url(host, port)} (runs in {runs_dir})", err=True)
            anyio.run(lambda: serve_http(server, host=host, port=port, token=token, limits=limits))


def _agent_defaults(name: str | None, kind: AgentKind | None) -> dict[str, Any]:
    """The identity recorded for episodes whose client names no agent (`--agent-name`, `--agent-kind`)."""
    defaults: dict[str, Any] = {}
    if name:
        defaults["name"] = name
        defaults["details"] = {}
    if kind is not None:
        defaults["kind"] = kind.value
    elif name:
        defaults["kind"] = AgentKind.mcp_client.value
    return defaults
