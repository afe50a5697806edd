"""`shopbench serve`: the sandbox as an MCP server over stdio or streamable HTTP."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from pathlib import Path

import typer


class Transport(StrEnum):
    stdio = "stdio"
    http = "http"


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        transport: Transport = typer.Option(Transport.stdio, "--transport", help="stdio (one client) or http."),
        host: str = typer.Option("127.0.0.1", "--host", help="HTTP bind address; beyond loopback needs --token."),
        port: int = typer.Option(8765, "--port", help="HTTP port (the endpoint is http://HOST:PORT/mcp)."),
        world: Path | None = typer.Option(None, "--world", help="World folder (default: the default world)."),
        tasks: str | None = typer.Option(None, "--tasks", help="Task set to serve (default: the world's generated "
                                         "set; `official` needs an imported official world)."),
        runs: Path | None = typer.Option(None, "--runs", help="Trajectory folder (default ./runs/serve-<time>)."),
        token: str | None = typer.Option(None, "--token", envvar="SHOPBENCH_TOKEN",
                                         help="HTTP: require Authorization: Bearer TOKEN on every request."),
        max_steps: int = typer.Option(30, "--max-steps", min=1, help="Steps per episode."),
        benchmarks: list[str] = typer.Option(["shoppingbench"], "--benchmark",
                                             help="Benchmark to serve (repeatable): shoppingbench, shopping-mmlu, "
                                             "intentionqa, session-intent."),
        items: Path | None = typer.Option(None, "--items", help="Question items file (one question benchmark)."),
        prompting: str = typer.Option("zero-shot", "--prompting", help="Question prompt style (zero-shot, cot)."),
    ) -> None:
        """Serve the shopping sandbox to MCP clients (Claude Code, Claude Desktop, agents).

        Examples: `shopbench serve` (stdio) · `shopbench serve --transport http --port 8765` ·
        `shopbench serve --benchmark shoppingbench --benchmark intentionqa`
        """
        import anyio

        from mcp_server.qa_suites import qa_suites
        from mcp_server.server import build_server, is_loopback, serve_http, serve_stdio, stdout_to_stderr
        from mcp_server.shopping_suite import ShoppingSuite
        from mcp_server.world import GENERATED_SET

        if transport is Transport.http and not is_loopback(host) and not token:
            raise typer.BadParameter(f"binding {host} exposes the server beyond this machine; pass --token",
                                     param_hint="--token")
        runs_dir = runs or Path("runs") / f"serve-{datetime.now():%Y%m%d-%H%M%S}"
        questions = [name for name in dict.fromkeys(benchmarks) if name != "shoppingbench"]
        loaded = None
        suites = []
        with stdout_to_stderr():
            if "shoppingbench" in benchmarks:
                try:
                    loaded = _open_world(world)
                    suites.append(ShoppingSuite(loaded, tasks or GENERATED_SET))
                except (FileNotFoundError, KeyError) as error:
                    raise typer.BadParameter(str(error).strip("'\""), param_hint="--world/--tasks") from None
            if questions:
                try:
                    suites.extend(qa_suites(questions, items, prompting))
                except (KeyError, ValueError) as error:
                    raise typer.BadParameter(str(error).strip("'\""), param_hint="--benchmark/--items") from None
        server = build_server(loaded, suites, runs_dir, max_steps=max_steps,
                              single_client=transport is Transport.stdio)
        if transport is Transport.stdio:
            anyio.run(serve_stdio, server)
        else:
            typer.echo(f"shopbench: serving http://{host}:{port}/mcp (runs in {runs_dir})", err=True)
            anyio.run(lambda: serve_http(server, host=host, port=port, token=token))


def _open_world(path: Path | None):
    from mcp_server.world import World, default_world

    return World.open(path) if path is not None else default_world()
