"""The player's side of the MCP connection: every action is a tool call through the official client.

A person plays through exactly the interface an agent uses (list_tasks, start_task, the sandbox tools,
submit_answer), so the server records the episode in the same trajectory format, with agent kind "human".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mcp import Client

from mcp_server.server import META_AGENT, META_EPISODE_ID, META_THOUGHT

ENDING_TOOLS = ("terminate", "submit_answer")


@dataclass(frozen=True)
class ToolOutcome:
    """A tool's answer as the player sees it."""

    observation: Any
    """The structured result when the server gave one, else the text (the error message when `is_error`)."""
    is_error: bool
    text: str


@dataclass
class PlaySession:
    """One player's connection: which task runs, how many steps it has taken, whether it is over."""

    client: Client
    player: str
    details: dict[str, Any] = field(default_factory=dict)
    task: dict[str, Any] | None = None
    """What start_task returned: episode_id, task_id, benchmark, task_set, intent, kind, instruction, max_steps."""
    steps: int = 0
    ended: bool = False
    end_reason: str = ""

    async def list_tasks(self, benchmark: str | None = None) -> list[dict[str, Any]]:
        outcome = await self._call("list_tasks", {"benchmark": benchmark} if benchmark else {})
        if outcome.is_error:
            raise ValueError(outcome.text)
        return list(outcome.observation["tasks"])

    async def start(self, task_id: str, *, benchmark: str | None = None, task_set: str | None = None,
                    episode_id: str | None = None) -> dict[str, Any]:
        """Begin an episode as this human player (raises ValueError with the server's words when it cannot)."""
        meta: dict[str, Any] = {META_AGENT: {"kind": "human", "name": self.player, "details": self.details}}
        if episode_id:
            meta[META_EPISODE_ID] = episode_id
        arguments = {"task_id": task_id, "benchmark": benchmark, "task_set": task_set}
        outcome = await self._call("start_task", {k: v for k, v in arguments.items() if v}, meta)
        if outcome.is_error:
            raise ValueError(outcome.text)
        self.task, self.steps, self.ended, self.end_reason = dict(outcome.observation), 0, False, ""
        return self.task

    @property
    def max_steps(self) -> int:
        return int(self.task["max_steps"]) if self.task else 0

    async def act(self, tool: str, arguments: dict[str, Any], thought: str | None = None) -> ToolOutcome:
        """One step of the episode. Malformed calls count as steps on the server, so they count here too."""
        outcome = await self._call(tool, arguments, {META_THOUGHT: thought} if thought else None)
        self.steps += 1
        if tool in ENDING_TOOLS and not outcome.is_error:
            self.ended, self.end_reason = True, "terminated" if tool == "terminate" else "submitted"
        elif self.steps >= self.max_steps:
            self.ended, self.end_reason = True, "step_limit"
        return outcome

    async def _call(self, tool: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None) -> ToolOutcome:
        result = await self.client.call_tool(tool, arguments, meta=meta)
        text = "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")
        if result.is_error:
            return ToolOutcome(text, True, text)
        structured = result.structured_content
        if isinstance(structured, dict) and set(structured) == {"result"}:
            return ToolOutcome(structured["result"], False, text)
        if structured is not None:
            return ToolOutcome(structured, False, text)
        try:
            return ToolOutcome(json.loads(text), False, text)
        except json.JSONDecodeError:
            return ToolOutcome(text, False, text)
