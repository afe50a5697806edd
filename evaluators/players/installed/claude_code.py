"""Claude Code (`@anthropic-ai/claude-code`): Anthropic Messages to the bridge, shopbench over streamable HTTP.

`claude -p --output-format stream-json` runs one turn non-interactively, its prompt read from stdin. `--tools ""`
removes every built-in tool (shell, files, web, sub-agents), `--allowedTools mcp__shopbench` with `--permission-mode
dontAsk` refuses anything else it could still be asked for, and `--strict-mcp-config` ignores every MCP config but ours.
`MCP_CONNECTION_NONBLOCKING=false` makes it wait for the MCP server before its first request (by default `-p` sends it
without the server's tools). The DISABLE_* variables keep it off the network (no telemetry, update checks or error
reports).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evaluators.players.installed.adapter import (
    AgentAdapter,
    EpisodeSetup,
    Launch,
    base_env,
    mcp_servers,
    newest_files,
    prompt_file,
    result_usage,
    write_json,
)
from mcp_server.protocol import SERVER_NAME

FLAGS = ["--output-format", "stream-json", "--verbose", "--strict-mcp-config", "--tools", "",
         "--allowedTools", f"mcp__{SERVER_NAME}", "--permission-mode", "dontAsk"]
QUIET = {"MCP_CONNECTION_NONBLOCKING": "false", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
         "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1", "DISABLE_AUTOUPDATER": "1"}


class ClaudeCode(AgentAdapter):
    name = "claude-code"
    package = "@anthropic-ai/claude-code@2.1.332"
    executable = "claude"
    wire = "anthropic-messages"
    shell_tool = "Bash"
    fixed_flags = FLAGS

    def launch(self, executable: Path, setup: EpisodeSetup) -> Launch:
        config = write_json(setup.home / "mcp.json", mcp_servers(setup))
        env = base_env(setup) | QUIET | {"CLAUDE_CONFIG_DIR": str(self._config_dir(setup)),
                                         "ANTHROPIC_BASE_URL": setup.base_url, "ANTHROPIC_API_KEY": setup.api_key}
        return Launch([str(executable), "-p", *FLAGS, "--mcp-config", str(config), "--model", setup.model], env,
                      stdin=prompt_file(setup))

    def session_files(self, setup: EpisodeSetup) -> list[Path]:
        return newest_files(self._config_dir(setup) / "projects", "*/*.jsonl")

    def reported_usage(self, stdout: Iterable[str]) -> dict[str, Any]:
        """The `result` line: its own token count and the cost at its own prices (for Claude models only)."""
        return result_usage(stdout, with_cost=True)

    @staticmethod
    def _config_dir(setup: EpisodeSetup) -> Path:
        return setup.home / ".claude"
