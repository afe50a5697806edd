"""What the shopbench MCP server and its clients share: request `_meta` keys, resource URIs, tool names, and the
typed parts of results (`TaskListing`, `EpisodeStatus`, `StartedEpisode`) and of the harness's `record_malformed_turn`
call (`MalformedReport`).

Kept apart from the server so a client (the agent loop, the TUI, outside harnesses) reads results without loading the
server or the episode machinery; both sides import this module, and it imports neither. The plain values are
defined in protocol_constants.py (no pydantic: the command line reads them) and re-exported here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, StrictStr

from mcp_server.protocol_constants import (
    DEFAULT_MAX_STEPS,
    EPISODE_URI,
    MAX_EPOCHS,
    META_AGENT,
    META_EPISODE_ID,
    META_EPOCH,
    META_KEYS,
    META_THOUGHT,
    META_USAGE,
    RECORD_MALFORMED_TOOL,
    SERVER_NAME,
    TASKS_URI,
    TOOLS_URI,
)
from mcp_server.trajectory import EndStatus

__all__ = [
    "DEFAULT_MAX_STEPS",
    "EPISODE_URI",
    "MAX_EPOCHS",
    "META_AGENT",
    "META_EPISODE_ID",
    "META_EPOCH",
    "META_KEYS",
    "META_THOUGHT",
    "META_USAGE",
    "RECORD_MALFORMED_TOOL",
    "SERVER_NAME",
    "TASKS_URI",
    "TOOLS_URI",
    "EpisodeStatus",
    "MalformedReport",
    "StartedEpisode",
    "TaskListing",
]


class TaskListing(BaseModel):
    """One row of `list_tasks`. Holds nothing that could give away an answer."""

    task_id: str
    benchmark: str
    task_set: str
    intent: str | None = None
    """ShoppingBench intent, or the QA task name (e.g. "task1", "multiple-choice")."""


class EpisodeStatus(BaseModel):
    """Where an episode stands. Every episode tool's result carries it (structured content key "episode"), so
    clients — the agent loop, the TUI, the demo, outside agents — read the end from here, never from text."""

    episode_id: str
    state: Literal["running", "ended"]
    end_reason: EndStatus | None = None
    """Why it ended: terminated, submitted, step_limit, abandoned or error; None while running."""
    steps_used: int
    steps_left: int
    max_steps: int


class StartedEpisode(BaseModel):
    """What start_task returned (structured content)."""

    episode_id: str
    task_id: str
    benchmark: str
    task_set: str
    intent: str | None = None
    kind: str
    instruction: str
    max_steps: int
    tools: list[str] = Field(default_factory=list)
    question: dict[str, Any] | None = None
    """Question benchmarks: {system, user, max_tokens, temperature, samples} as the reference sent the question."""
    episode: EpisodeStatus


class MalformedReport(BaseModel):
    """The arguments of `record_malformed_turn`: a model turn that held no runnable call, as the harness saw it — its
    raw text, what was wrong, the feedback the model is shown, and the tool it attempted (when it named one). The
    client writes them from this model and the server reads them with it; the episode records them as a step."""

    raw: StrictStr
    error: StrictStr
    feedback: StrictStr
    tool: StrictStr | None = None

    def arguments(self) -> dict[str, Any]:
        """The call's arguments (no `tool` key when none was named)."""
        return self.model_dump(exclude_none=True)
