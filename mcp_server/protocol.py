"""What the shopbench MCP server and its clients share: request `_meta` keys, resource URIs, tool names, and the
typed parts of results (`TaskListing`, `EpisodeStatus`, `StartedEpisode`).

Kept apart from the server so a client (the agent loop, the TUI, outside harnesses) reads results without loading the
server or the episode machinery; both sides import this module, and it imports neither.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from mcp_server.trajectory import EndStatus

SERVER_NAME = "shopbench"

DEFAULT_MAX_STEPS = 30
"""Steps an episode may take unless the server is told otherwise (`--max-steps`); the one place this default is
written: every player passes None for it (serve, run, play, Inspect, Gym)."""

META_THOUGHT = "shopbench/thought"
META_USAGE = "shopbench/usage"
META_EPISODE_ID = "shopbench/episode_id"
META_EPOCH = "shopbench/epoch"
META_AGENT = "shopbench/agent"
META_KEYS: dict[str, str] = {
    META_THOUGHT: "any tool call: the agent's reasoning before this call (str), recorded with the step",
    META_USAGE: "any tool call: what the model call behind this step cost, "
    "{input_tokens, output_tokens, latency_s, cost_usd} (all optional)",
    META_EPISODE_ID: "start_task: the episode id to use (1-128 of A-Z a-z 0-9 . _ -); default: generated "
    "(or pass the episode_id argument)",
    META_EPOCH: "start_task: the epoch number (int, for repeated runs of one task); default 0 (or pass epoch)",
    META_AGENT: 'start_task: who plays, {kind: "model"|"human"|"mcp-client"|"baseline", name, details}; '
    "default: the server's --agent-name/--agent-kind, else the client's name from initialize "
    "(or pass agent_name / agent_kind)",
}

MAX_EPOCHS = 1000
"""Epochs are numbered 0..MAX_EPOCHS-1: start_task refuses a larger epoch and `run --epochs` a larger count, so one
stray episode cannot make pass^k (computed for every k up to the epochs a task has) run for hours."""

TASKS_URI = "shopbench://tasks"
TOOLS_URI = "shopbench://tools"
EPISODE_URI = "shopbench://episodes/{episode_id}"
"""Resource template: an episode's trajectory file (JSONL), for the client that started the episode."""

RECORD_MALFORMED_TOOL = "record_malformed_turn"
"""Harness-only tool (not listed): records a model turn that held no runnable call, with the raw text, what was
wrong and the feedback the model was shown, as one step of the caller's episode."""


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
