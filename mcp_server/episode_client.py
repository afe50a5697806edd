"""The client side of an episode: the one place where a tool result from the shopbench server is read.

Every player — the built-in agent loop, the question runner, the TUI, the demo — talks to the server through an
official MCP client session and reads what comes back with `read_reply`: the observation (structured content's
"result", or the text), whether it was an error, and the typed `EpisodeStatus` the server attaches to every
episode tool's result. Whether an episode has ended is read from that status, never from the wording of a message.

`EpisodeClient` wraps a session (anything with the `mcp.Client` methods `list_tools` and `call_tool`) with the
episode calls: `list_tasks`, `start`, `call` (one tool call, with the step's thought and usage in `_meta`) and
`malformed` (a model turn that held no runnable call, recorded as it was).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from mcp_server.protocol import (
    META_AGENT,
    META_THOUGHT,
    META_USAGE,
    RECORD_MALFORMED_TOOL,
    EpisodeStatus,
    MalformedReport,
    StartedEpisode,
)
from mcp_server.trajectory import AgentInfo, Usage


class McpSession(Protocol):
    """What EpisodeClient needs of an MCP client session (`mcp.Client` has these)."""

    async def list_tools(self) -> Any: ...

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, *, meta: Any = None) -> Any: ...


class EpisodeCallError(RuntimeError):
    """The server refused a call outside an episode (list_tasks, start_task); the message is the server's."""


@dataclass(frozen=True)
class ToolReply:
    """One tool result as a player sees it."""

    observation: Any
    """The structured result when the server gave one, else the text (the error message when `is_error`)."""
    text: str
    """The result's text content, as a text-only client would see it."""
    is_error: bool
    status: EpisodeStatus | None = None
    """The episode after this call; None for calls that are not part of an episode (list_tasks, ...)."""

    @property
    def ended(self) -> bool:
        return self.status is not None and self.status.state == "ended"


def read_reply(result: Any) -> ToolReply:
    """Read a CallToolResult: structured content {"result", "episode"} when the server sent it, else the text."""
    text = "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")
    structured = result.structured_content
    status = None
    if isinstance(structured, dict) and isinstance(structured.get("episode"), dict):
        status = EpisodeStatus.model_validate(structured["episode"])
    if result.is_error:
        return ToolReply(text, text, True, status)
    if isinstance(structured, dict) and "result" in structured:
        return ToolReply(structured["result"], text, False, status)
    if structured is not None:
        return ToolReply(structured, text, False, status)
    try:
        return ToolReply(json.loads(text), text, False, status)
    except json.JSONDecodeError:
        return ToolReply(text, text, False, status)


class EpisodeClient:
    """One player's connection to the server, with at most one episode at a time."""

    def __init__(self, session: McpSession) -> None:
        self.session = session
        self.started: StartedEpisode | None = None
        self.status: EpisodeStatus | None = None
        """The episode's status after the last call."""

    @property
    def over(self) -> bool:
        return self.status is not None and self.status.state == "ended"

    async def list_tasks(self, **filters: Any) -> list[dict[str, Any]]:
        """Every task the server lists for these filters (benchmark, intent, ...), paging through them."""
        wanted = {key: value for key, value in filters.items() if value is not None}
        tasks: list[dict[str, Any]] = []
        while True:
            reply = read_reply(await self.session.call_tool("list_tasks", {**wanted, "offset": len(tasks)}))
            if reply.is_error:
                raise EpisodeCallError(reply.text)
            page = list(reply.observation.get("tasks", []))
            tasks += page
            if not page or len(tasks) >= int(reply.observation.get("total", len(tasks))):
                return tasks

    async def start(
        self,
        task_id: str,
        *,
        agent: AgentInfo | None = None,
        benchmark: str | None = None,
        task_set: str | None = None,
        episode_id: str | None = None,
        epoch: int | None = None,
    ) -> StartedEpisode:
        """Begin an episode (raises EpisodeCallError with the server's words when it cannot)."""
        arguments = {"task_id": task_id, "benchmark": benchmark, "task_set": task_set, "episode_id": episode_id,
                     "epoch": epoch}
        meta = {META_AGENT: agent.model_dump(mode="json")} if agent is not None else None
        result = await self.session.call_tool(
            "start_task", {key: value for key, value in arguments.items() if value is not None}, meta=meta
        )
        reply = read_reply(result)
        if reply.is_error:
            raise EpisodeCallError(f"start_task({task_id!r}) was refused: {reply.text}")
        self.started = StartedEpisode.model_validate(result.structured_content)
        self.status = self.started.episode
        return self.started

    async def call(
        self, tool: str, arguments: dict[str, Any], *, thought: str | None = None, usage: Usage | None = None
    ) -> ToolReply:
        """One step of the episode (a malformed call is answered with an error and counts as a step)."""
        reply = read_reply(await self.session.call_tool(tool, arguments, meta=_step_meta(thought, usage)))
        self._track(reply)
        return reply

    async def malformed(
        self,
        raw: str,
        error: str,
        feedback: str,
        *,
        tool: str | None = None,
        thought: str | None = None,
        usage: Usage | None = None,
    ) -> ToolReply:
        """Record a model turn that held no runnable call: the raw text, what was wrong, and the feedback the model
        is shown. It counts as a step."""
        arguments = MalformedReport(raw=raw, error=error, feedback=feedback, tool=tool or None).arguments()
        reply = read_reply(
            await self.session.call_tool(RECORD_MALFORMED_TOOL, arguments, meta=_step_meta(thought, usage))
        )
        self._track(reply)
        return reply

    def _track(self, reply: ToolReply) -> None:
        if reply.status is not None:
            self.status = reply.status


def _step_meta(thought: str | None, usage: Usage | None) -> dict[str, Any] | None:
    meta: dict[str, Any] = {}
    if thought:
        meta[META_THOUGHT] = thought
    if usage is not None:
        meta[META_USAGE] = usage.model_dump(exclude_none=True)
    return meta or None
