"""The server's resources and prompt: the task list (`shopbench://tasks`), the tool documentation
(`shopbench://tools`), each episode's trajectory (`shopbench://episodes/{episode_id}`, readable by the client that
started it), and the `shopping_agent` prompt (the hosted suites' agent instructions, as the server's)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from mcp_server.protocol import DEFAULT_MAX_STEPS, EPISODE_URI, META_KEYS, TASKS_URI, TOOLS_URI
from mcp_server.server_state import ServerState, ShopbenchContext
from mcp_server.suites import suites_instructions
from mcp_server.toolbox import EpisodeTool
from mcp_server.trajectory import episode_path


def add_resources(server: MCPServer[ServerState], state: ServerState) -> None:
    """Declare the resources and the prompt on `server`, over its shared state."""

    @server.resource(TASKS_URI, name="tasks", description="Every task this server can start (no answers).",
                     mime_type="application/json")
    def tasks_resource() -> str:
        suites = [
            {
                "benchmark": suite.benchmark,
                "task_set": suite.task_set,
                "kind": suite.kind,
                "unavailable_reason": suite.unavailable_reason(),
                "tasks": [listing.model_dump() for listing in suite.listings()],
            }
            for suite in state.suites
        ]
        return json.dumps({"suites": suites}, ensure_ascii=False)

    @server.resource(TOOLS_URI, name="tools", description="How to use this server's tools and _meta keys.",
                     mime_type="text/markdown")
    def tools_resource() -> str:
        return tool_documentation(state.tools, state.max_steps)

    @server.resource(EPISODE_URI, name="episode", mime_type="application/jsonl",
                     description="An episode's trajectory file as written (JSONL: start, steps, end), for the client "
                     "that started the episode, e.g. to copy it into a local run folder.")
    async def episode_resource(episode_id: str, ctx: ShopbenchContext) -> str:
        client = state.client(ctx)
        if episode_id not in client.started:
            raise ResourceError(f"no episode {episode_id!r} was started on this connection; a client can read only "
                                "the episodes it started")
        path = episode_path(state.runs_dir, episode_id)
        return await state.run(functools.partial(path.read_text, encoding="utf-8"))

    @server.prompt(name="shopping_agent", description="Instructions for an agent taking tasks on this server.")
    def shopping_agent() -> str:
        return suites_instructions(state.suites)


def tool_documentation(tools: Mapping[str, EpisodeTool], max_steps: int = DEFAULT_MAX_STEPS) -> str:
    """The tools resource: every listed episode tool with its parameters, the episode rules, and the `_meta` keys."""
    lines = [
        "# shopbench tools",
        "",
        "Call `list_tasks`, then `start_task(task_id)`; it returns the instruction. Each tool call is one step of",
        f"the episode, which ends at `terminate`, at `submit_answer` (question benchmarks) or after {max_steps} steps.",
        "A malformed call is answered with an error you can act on, and counts as a step. Every episode tool's",
        'structured result is {"result": ..., "episode": {state, end_reason, steps_used, steps_left, max_steps}}.',
        f"Keep one connection for the whole task. Your trajectory: the resource `{EPISODE_URI}`.",
        "",
    ]
    for tool in tools.values():
        model = tool.arguments
        lines += [f"## {tool.name}", "", tool.description, ""]
        required = set(model.model_json_schema().get("required", []))
        for param, info in model.model_fields.items():
            flag = "required" if param in required else "optional"
            lines.append(f"- `{param}` ({flag}): {info.description}")
        lines.append("")
    lines += ["## Request `_meta` keys (optional)", "", "Send them with a call, e.g. "
              "`session.call_tool(name, args, meta={...})`:", ""]
    lines += [f"- `{key}`: {text}" for key, text in META_KEYS.items()]
    return "\n".join(lines) + "\n"
