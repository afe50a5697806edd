"""How a run is named wherever it is shown — leaderboards, figure legends, `shopbench results`, `replay`,
`compare`, score headers: one function for the name and one for the kind, so every screen says the same.

A run is named for what thinks in it. A model run, a baseline and a person are their agent's name; an installed
agent (Claude Code, Codex, qwen-code, a `command:` agent) is the agent and the model behind it, `claude-code ·
heuristic`, since Codex behind `heuristic` and Codex behind `oracle` are different players. Its kind says what it
is: an agent driven by a scripted baseline is a baseline (runs recorded before the harness said so included).
"""

from __future__ import annotations

from mcp_server.trajectory import AgentInfo

SEPARATOR = " · "


def behind(agent: AgentInfo) -> str | None:
    """The model spec behind an installed agent (its `adapter` detail says it is one), else None."""
    model = agent.details.get("model")
    return str(model) if "adapter" in agent.details and model else None


def run_name(agent: AgentInfo) -> str:
    """The run's player as shown: `claude-code · heuristic` for an installed agent, else the agent's name."""
    model = behind(agent)
    return f"{agent.name}{SEPARATOR}{model}" if model else agent.name


def run_kind(agent: AgentInfo) -> str:
    """The run's kind as shown (model, mcp-client, human, baseline): an installed agent driven by a scripted
    baseline is a baseline."""
    model = behind(agent)
    if model is not None and agent.kind != "baseline":
        from evaluators.players.baselines import find_baseline

        if find_baseline(model) is not None:
            return "baseline"
    return str(agent.kind)


def player_text(agent: AgentInfo, separator: str = ": ") -> str:
    """Kind and name as shown, e.g. `baseline: claude-code · heuristic` (a score's header, a replay's player)."""
    return f"{run_kind(agent)}{separator}{run_name(agent)}"
