"""The plain values of the shopbench MCP protocol: limits, request `_meta` keys, resource URIs, tool names and who may
play. `mcp_server.protocol` re-exports them beside the typed results.

Apart from protocol.py because it imports only the standard library: the command line reads its option defaults
and help texts from here (`--max-steps`, `--epochs`, `--agent-kind`), and `shopbench --help` should not pay for
pydantic models it never builds.
"""

from __future__ import annotations

from enum import StrEnum

SERVER_NAME = "shopbench"

DEFAULT_MAX_STEPS = 30
"""Steps an episode may take unless the server is told otherwise (`--max-steps`); the one place this default is
written: every player passes None for it (serve, run, play, Inspect, Gym)."""

MAX_EPOCHS = 1000
"""Epochs are numbered 0..MAX_EPOCHS-1: start_task refuses a larger epoch and `run --epochs` a larger count, so one
stray episode cannot make pass^k (computed for every k up to the epochs a task has) run for hours."""


class AgentKind(StrEnum):
    """What plays an episode: a model (run, Inspect), a person (play), an outside MCP client, or a scripted
    baseline."""

    model = "model"
    human = "human"
    mcp_client = "mcp-client"
    baseline = "baseline"


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

TASKS_URI = "shopbench://tasks"
TOOLS_URI = "shopbench://tools"
EPISODE_URI = "shopbench://episodes/{episode_id}"
"""Resource template: an episode's trajectory file (JSONL), for the client that started the episode."""

RECORD_MALFORMED_TOOL = "record_malformed_turn"
"""Harness-only tool (not listed): records a model turn that held no runnable call, with the raw text, what was
wrong and the feedback the model was shown, as one step of the caller's episode."""
