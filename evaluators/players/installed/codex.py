"""Codex CLI (`@openai/codex`): OpenAI Responses to the bridge, shopbench over streamable HTTP.

`codex exec --json -` runs one turn non-interactively, its prompt read from stdin. Its config home (`CODEX_HOME`) holds
a config.toml naming the bridge as the model provider and shopbench as a required MCP server, its credential read from
the environment (`required = true`: the turn waits for it; `default_tools_approval_mode = "approve"`: its tools run
without asking, which `approval_policy = "never"` would otherwise refuse). The shell is disabled outright, not sandboxed
(a read-only sandbox still lets a shell read files), and so are its other tools and every feature that reaches the
network.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evaluators.players.installed.adapter import (
    AgentAdapter,
    EpisodeSetup,
    Launch,
    base_env,
    json_lines,
    newest_files,
    prompt_file,
    write_private,
)
from mcp_server.protocol import SERVER_NAME

DISABLED = ("shell_tool", "unified_exec", "view_image", "multi_agent", "goals", "apps", "plugins", "tool_suggest",
            "skill_search", "image_generation", "browser_use", "computer_use", "sleep_tool")
SETTINGS = ('web_search="disabled"', "analytics.enabled=false", "check_for_update_on_startup=false",
            'otel.exporter="none"', "feedback.enabled=false")
FLAGS = ["exec", "--json", "--skip-git-repo-check", *(flag for name in DISABLED for flag in ("--disable", name)),
         *(flag for setting in SETTINGS for flag in ("-c", setting))]
KEY_VARIABLE = "SHOPBENCH_BRIDGE_KEY"
MCP_KEY_VARIABLE = "SHOPBENCH_MCP_KEY"


class Codex(AgentAdapter):
    name = "codex"
    package = "@openai/codex@0.169.0"
    executable = "codex"
    wire = "openai-responses"
    shell_tool = "exec_command"
    fixed_flags = FLAGS

    def launch(self, executable: Path, setup: EpisodeSetup) -> Launch:
        home = self._codex_home(setup)
        write_private(home / "config.toml", config_toml(setup))
        env = base_env(setup) | {"CODEX_HOME": str(home), KEY_VARIABLE: setup.api_key, MCP_KEY_VARIABLE: setup.mcp_key}
        return Launch([str(executable), *FLAGS, "-"], env, stdin=prompt_file(setup))

    def session_files(self, setup: EpisodeSetup) -> list[Path]:
        return newest_files(self._codex_home(setup) / "sessions", "**/*.jsonl")

    def reported_usage(self, stdout: Iterable[str]) -> dict[str, Any]:
        """The sum of its `turn.completed` usage (tokens only: it reports no cost)."""
        turns = [line.get("usage") or {} for line in json_lines(stdout) if line.get("type") == "turn.completed"]
        if not turns:
            return {}
        return {"input_tokens": sum(turn.get("input_tokens", 0) for turn in turns),
                "output_tokens": sum(turn.get("output_tokens", 0) for turn in turns), "turns": len(turns)}

    @staticmethod
    def _codex_home(setup: EpisodeSetup) -> Path:
        return setup.home / ".codex"


def config_toml(setup: EpisodeSetup) -> str:
    """$CODEX_HOME/config.toml (TOML basic strings are written as JSON strings, whose escapes they share)."""
    def text(value: str) -> str:
        return json.dumps(value)

    return "\n".join([
        f"model = {text(setup.model)}",
        'model_provider = "shopbench"',
        'approval_policy = "never"',
        'sandbox_mode = "read-only"',
        "",
        "[model_providers.shopbench]",
        'name = "shopbench model bridge"',
        f"base_url = {text(setup.openai_base_url)}",
        'wire_api = "responses"',
        f"env_key = {text(KEY_VARIABLE)}",
        "",
        f"[mcp_servers.{SERVER_NAME}]",
        f"url = {text(setup.mcp_url)}",
        f"bearer_token_env_var = {text(MCP_KEY_VARIABLE)}",
        "required = true",
        "startup_timeout_sec = 60",
        'default_tools_approval_mode = "approve"',
        "",
    ])
