"""`shopbench schema`: print or write the trajectory JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("schema")
    def schema(out: Path | None = typer.Option(None, "--out", help="Write to this file instead of stdout.")) -> None:
        """The JSON Schema of trajectory files and run manifests."""
        from mcp_server.trajectory import json_schema

        text = json.dumps(json_schema(), indent=2)
        if out is None:
            typer.echo(text)
        else:
            out.write_text(text + "\n", encoding="utf-8")
