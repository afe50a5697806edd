"""Installed agents (Claude Code, Codex CLI, qwen-code, or any command) playing shopbench episodes: one adapter per
agent, registered here by the name `shopbench run --agent NAME` takes; `command:TEMPLATE` starts any other.

The harness (evaluators.harness.installed) starts each episode before its agent runs and serves it at an address
of its own; the runner here starts the agent on it with its model calls going through the model bridge, and ends it.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.names import did_you_mean
from evaluators.players.installed.adapter import AgentAdapter, AgentSetupError
from evaluators.players.installed.command import PREFIX, CommandAgent


def _claude_code() -> type[AgentAdapter]:
    from evaluators.players.installed.claude_code import ClaudeCode

    return ClaudeCode


def _codex() -> type[AgentAdapter]:
    from evaluators.players.installed.codex import Codex

    return Codex


def _qwen_code() -> type[AgentAdapter]:
    from evaluators.players.installed.qwen_code import QwenCode

    return QwenCode


ADAPTERS: dict[str, Callable[[], type[AgentAdapter]]] = {
    "claude-code": _claude_code,
    "codex": _codex,
    "qwen-code": _qwen_code,
}
"""--agent NAME → a loader of its adapter class (its module is imported only when the agent is chosen)."""


def get_adapter(name: str) -> AgentAdapter:
    """The adapter `--agent NAME` names; an unknown name is one line listing the known ones."""
    if name.startswith(PREFIX):
        return CommandAgent(name[len(PREFIX):])
    if name not in ADAPTERS:
        raise AgentSetupError(f"unknown agent {name!r}.{did_you_mean(name, ADAPTERS)} Agents: {', '.join(ADAPTERS)}, "
                              f"or {PREFIX}TEMPLATE")
    adapter: AgentAdapter = ADAPTERS[name]()()
    return adapter


__all__ = ["ADAPTERS", "AgentAdapter", "AgentSetupError", "get_adapter"]
