"""What the tests of runs with installed agents share: the `command:` agent (tests/_mcp_agent.py) and `shopbench run`
in process. (Importing them from a test module would import that module twice, its test models registered again.)"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from shopbench.cli import app

COMMAND = f"command:{sys.executable} {Path(__file__).resolve().parent / '_mcp_agent.py'} {{mcp_url}} {{prompt_file}}"


def run_cli(*args: str) -> Any:
    """`shopbench run ARGS` in this process."""
    return CliRunner().invoke(app, ["run", *args], catch_exceptions=False)
