"""qwen-code (`@qwen-code/qwen-code`): OpenAI Chat Completions to the bridge, shopbench over streamable HTTP.

`qwen -o stream-json` with its prompt on stdin (not a terminal) runs one turn non-interactively; the bridge's address
and key are in its environment (OPENAI_BASE_URL, OPENAI_API_KEY), never on its command line. `$HOME/.qwen/settings.json`
denies every built-in tool by its own name (qwen-code 0.24's tool table) and allows shopbench's; the MCP config loads
shopbench's tools up front (`alwaysLoadTools`: by default they hide behind its tool_search tool) and trusts them (no
confirmation asked). Usage statistics and telemetry are off, so it reaches nothing but the bridge and the server.
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
    mcp_headers,
    newest_files,
    prompt_file,
    result_usage,
    write_json,
)
from mcp_server.protocol import SERVER_NAME

DENIED = ("exec", "edit", "write_file", "read_file", "zoom_image", "grep_search", "glob", "run_shell_command",
          "todo_write", "save_memory", "agent", "skill", "exit_plan_mode", "enter_plan_mode", "web_fetch",
          "web_search", "image_gen", "list_directory", "lsp", "ask_user_question", "cron_create", "cron_list",
          "cron_delete", "loop_wakeup", "create_sub_session", "list_agents", "task_stop", "task_create",
          "task_update", "task_list", "team_create", "team_delete", "team_plan_approval", "request_shutdown",
          "send_message", "monitor", "notebook_edit", "tool_call", "tool_search", "read_mcp_resource",
          "enter_worktree", "exit_worktree", "workflow", "artifact", "record_artifact", "record_source",
          "report_findings", "get_goal", "update_goal")
"""Every built-in tool of qwen-code 0.24.4 (its ToolNames table)."""
SETTINGS = {
    "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False}, "tools": {"toolSearch": {"enabled": False}},
    "permissions": {"allow": [f"mcp__{SERVER_NAME}"], "deny": list(DENIED)},
}
FLAGS = ["--auth-type", "openai", "-o", "stream-json", "--allowed-mcp-server-names", SERVER_NAME]


class QwenCode(AgentAdapter):
    name = "qwen-code"
    package = "@qwen-code/qwen-code@0.24.4"
    executable = "qwen"
    wire = "openai-chat"
    shell_tool = "run_shell_command"
    fixed_flags = FLAGS

    def launch(self, executable: Path, setup: EpisodeSetup) -> Launch:
        write_json(setup.home / ".qwen" / "settings.json", SETTINGS)
        server = {"httpUrl": setup.mcp_url, "headers": mcp_headers(setup), "trust": True, "timeout": 60000,
                  "alwaysLoadTools": True}
        config = write_json(setup.home / "mcp.json", {"mcpServers": {SERVER_NAME: server}})
        env = base_env(setup) | {"OPENAI_BASE_URL": setup.openai_base_url, "OPENAI_API_KEY": setup.api_key,
                                 "OPENAI_MODEL": setup.model}
        return Launch([str(executable), *FLAGS, "-m", setup.model, "--mcp-config", str(config)], env,
                      stdin=prompt_file(setup))

    def session_files(self, setup: EpisodeSetup) -> list[Path]:
        return newest_files(setup.home / ".qwen" / "projects", "*/chats/*.jsonl")

    def reported_usage(self, stdout: Iterable[str]) -> dict[str, Any]:
        """The `result` line's usage (tokens only: it reports no cost)."""
        return result_usage(stdout)
