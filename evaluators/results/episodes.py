"""Reading a run folder's episodes for scoring: which files could not be read, and whose episodes they are.

Every scorer of run folders reads them here, so each bad file is reported the same way (one line, `FILE:LINE:
problem`, counted against the files there are: `shopbench score` and `report` then exit non-zero), and a folder
that holds several agents' episodes is never pooled into one score. Several agents happen when one folder is shared:
two `shopbench serve` processes, or two MCP clients of one server, write into the same `--out`; the manifest names
only the first. Their episodes are scored one agent at a time (`--agent`), because a score, its JSON and a report's
column each describe one agent, and the scorer cannot tell which of them the researcher meant.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.errors import BadInput
from benchmarks.jsonl import DataFileError
from mcp_server.trajectory import AgentInfo, RunManifest, Trajectory, iter_episode_files, read_trajectory


class MixedAgentsError(BadInput):
    """A run folder holds episodes of several agents (or of another agent than its manifest names)."""


def agent_key(agent: AgentInfo) -> str:
    """How an agent is named on the command line and in messages: "kind:name" (details, e.g. versions, not)."""
    return f"{agent.kind}:{agent.name}"


@dataclass
class RunEpisodes:
    """The readable episodes of one agent in a run folder, and the files that could not be read."""

    agent: AgentInfo
    """Whose episodes these are (the manifest's agent, or the one chosen with --agent)."""
    trajectories: list[Trajectory] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    """One line per episode file that could not be read: "FILE:LINE: problem"."""
    files: int = 0
    """How many episode files the folder holds (read or not)."""


def read_run_episodes(run_dir: Path, manifest: RunManifest, agent: str | None = None) -> RunEpisodes:
    """Every episode file of `run_dir`, of one agent. Without `agent`, a folder whose episodes name several agents,
    or another agent than the manifest, is refused (MixedAgentsError, listing them); `agent` ("kind:name" or just
    the name) keeps that agent's episodes."""
    trajectories, unreadable = [], []
    for path in iter_episode_files(run_dir):
        try:
            trajectories.append(read_trajectory(path))
        except DataFileError as error:
            unreadable.append(str(error))
        except FileNotFoundError:
            continue  # moved aside since the folder was listed (`run --resume` replaying it): not in the run now
    files = len(trajectories) + len(unreadable)
    players = Counter(agent_key(t.start.agent) for t in trajectories)
    if agent is None:
        chosen = manifest.agent
        if set(players) - {agent_key(chosen)}:
            raise MixedAgentsError(_mixed(run_dir, manifest, players))
    else:
        matching = [t.start.agent for t in trajectories if agent in (agent_key(t.start.agent), t.start.agent.name)]
        if not matching:
            raise MixedAgentsError(f"{run_dir}: no episode was played by {agent!r}; its episodes were played by "
                                   f"{_listed(players) or 'nobody (no readable episode)'}")
        chosen = matching[0]
        if len({agent_key(a) for a in matching}) > 1:
            raise MixedAgentsError(f"{run_dir}: {agent!r} names several agents ({_listed(players)}); give "
                                   "--agent KIND:NAME")
        trajectories = [t for t in trajectories if agent_key(t.start.agent) == agent_key(chosen)]
    return RunEpisodes(chosen, trajectories, unreadable, files)


def _listed(players: Counter[str]) -> str:
    return ", ".join(f"{key} ({count} episode{'s' if count != 1 else ''})" for key, count in players.most_common())


def _mixed(run_dir: Path, manifest: RunManifest, players: Counter[str]) -> str:
    named = agent_key(manifest.agent)
    where = (f"episodes of {len(players)} agents" if len(players) > 1
             else f"episodes of another agent than its manifest ({named})")
    return (f"{run_dir} holds {where}: {_listed(players)}; scoring them together would pool different agents: "
            f"score one at a time with `shopbench score {run_dir} --agent KIND:NAME`")


def unreadable_lines(run_dir: Path | str, unreadable: list[str], files: int) -> list[str]:
    """What `score` and `report` print (then exit non-zero) when episode files could not be read: how many of how
    many, then each file's problem in one line. Empty when every file was read."""
    if not unreadable:
        return []
    return [f"{run_dir}: {len(unreadable)} of {files} episode files could not be read (not scored):",
            *(f"  {line}" for line in unreadable)]
