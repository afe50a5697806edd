"""`shopbench --help` starts light: it builds every command's options and help texts (the registry's benchmarks, the
step limit, the epoch bound, the agent kinds) without loading numpy, the protocol's pydantic models or anything of
the layers that play and score (they load when a command runs)."""

from __future__ import annotations

from pathlib import Path

from tests._cold_python import run_python

HELP = """
import sys
from shopbench.cli import app
try:
    app(["--help"])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""

LIGHT_SERVER_MODULES = {"mcp_server", "mcp_server.protocol_constants", "mcp_server.http_limits"}
"""The server modules the command line reads defaults from; they import only the standard library."""


def test_help_loads_no_numpy_and_nothing_that_plays_or_scores(tmp_path: Path) -> None:
    done = run_python(HELP, home=tmp_path)
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.splitlines()[-1].split())
    assert "shopbench.commands.run" in modules and "benchmarks.shopping_mmlu.adapter" in modules  # it did build them
    assert "numpy" not in modules
    upper = {m for m in modules if m.split(".")[0] in ("mcp_server", "evaluators", "shopbench_tui")}
    assert upper <= LIGHT_SERVER_MODULES, sorted(upper - LIGHT_SERVER_MODULES)
