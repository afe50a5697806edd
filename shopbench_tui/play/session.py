"""The player's side of the MCP connection: every action is a tool call through the official client.

A person plays through exactly the interface an agent uses (list_tasks, start_task, the sandbox tools,
submit_answer) and the same client code (`mcp_server.episode_client.EpisodeClient`), so the server records the
episode in the same trajectory format, with agent kind "human", and the end of an episode is read from the episode
status the server returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp_server.episode_client import EpisodeCallError, EpisodeClient, McpSession, ToolReply
from mcp_server.trajectory import AgentInfo, AgentKind


@dataclass
class PlaySession:
    """One player's connection: which task runs, how many steps it has taken, whether it is over."""

    session: McpSession
    player: str
    details: dict[str, Any] = field(default_factory=dict)
    client: EpisodeClient = field(init=False)
    task: dict[str, Any] | None = None
    """What start_task returned: episode_id, task_id, benchmark, task_set, intent, kind, instruction, max_steps."""

    def __post_init__(self) -> None:
        self.client = EpisodeClient(self.session)

    async def list_tasks(self, benchmark: str | None = None) -> list[dict[str, Any]]:
        try:
            return await self.client.list_tasks(benchmark=benchmark)
        except EpisodeCallError as error:
            raise ValueError(str(error)) from None

    async def start(self, task_id: str, *, benchmark: str | None = None, task_set: str | None = None,
                    episode_id: str | None = None) -> dict[str, Any]:
        """Begin an episode as this human player (raises ValueError with the server's words when it cannot)."""
        agent = AgentInfo(kind=AgentKind.human, name=self.player, details=self.details)
        try:
            started = await self.client.start(task_id, agent=agent, benchmark=benchmark, task_set=task_set,
                                              episode_id=episode_id)
        except EpisodeCallError as error:
            raise ValueError(str(error)) from None
        self.task = started.model_dump(mode="json")
        return self.task

    @property
    def steps(self) -> int:
        return self.client.status.steps_used if self.client.status else 0

    @property
    def max_steps(self) -> int:
        return self.client.status.max_steps if self.client.status else 0

    @property
    def ended(self) -> bool:
        return self.client.over

    @property
    def end_reason(self) -> str:
        status = self.client.status
        return status.end_reason or "" if status else ""

    async def tool_schemas(self) -> dict[str, dict[str, Any]]:
        """Every tool the server lists: name → {description, input_schema} (for a screen that builds its form from
        them)."""
        listed = await self.session.list_tools()
        return {tool.name: {"description": tool.description, "input_schema": tool.input_schema}
                for tool in listed.tools}

    async def act(self, tool: str, arguments: dict[str, Any], thought: str | None = None) -> ToolReply:
        """One step of the episode (a malformed call counts as a step on the server, and so here)."""
        return await self.client.call(tool, arguments, thought=thought)
