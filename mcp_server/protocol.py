"""Names shared by the shopbench MCP server and its clients: request `_meta` keys, resource URIs, tool names.

Kept apart from the server module so a client (the agent loop, the TUI, outside harnesses) can import them without
loading the server.
"""

from __future__ import annotations

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

RECORD_MALFORMED_TOOL = "record_malformed_turn"
"""Harness-only tool (not listed): records a model turn that held no runnable call, with the raw text, what was
wrong and the feedback the model was shown, as one step of the caller's episode."""
