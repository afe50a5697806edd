"""What a Ray worker of `shopbench run --executor ray` does on its node: open the run's player and environment once,
then play the episodes the driver hands it, one at a time, and hand back each finished trajectory file.

The worker's own MCP server (mcp_server.environment.open_environment, as in a local run) writes each trajectory into a
scratch folder on the worker's node; the driver writes the finished file, verbatim, into the run folder
(evaluators.harness.ray_executor). So a worker that dies mid-episode leaves nothing in the run folder, and nodes need
no shared filesystem for runs. The world is the driver's, found on the node: at the same path (a shared filesystem,
or the same machine), or, for the default world, built on the node from the same seed; its catalog's content hash
must be the driver's either way.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.registry import get_benchmark
from evaluators.harness.config import RunConfig, environment_options
from evaluators.harness.orchestrate import WorkUnit
from evaluators.harness.player_choice import make_player
from evaluators.harness.players import Player
from evaluators.players.sessions import in_process_session
from mcp_server.environment import Environment, open_environment
from mcp_server.shopping.world import WORLD_JSON, World
from mcp_server.suites import TaskListing
from mcp_server.trajectory import EndStatus, episode_path


class WorldNotOnNode(RuntimeError):
    """The run's world is neither at its path on this node nor one the node can build."""


@dataclass(frozen=True)
class WorldRef:
    """The driver's world, as a worker finds it."""

    path: str
    content_hash: str
    default: bool
    """The default world (no --world): a node without it at `path` builds it from the same seed."""

    @classmethod
    def of(cls, world: World | None, default: bool) -> WorldRef | None:
        return None if world is None else cls(str(world.root.resolve()), world.info.content_hash, default)

    def open_here(self) -> World:
        from mcp_server.shopping.world_build import default_world

        path = Path(self.path)
        if (path / WORLD_JSON).is_file():
            world = World.open(path)
        elif self.default:
            world = default_world()  # deterministic: the same generator and seed give the same catalog
        else:
            raise WorldNotOnNode(f"world {path} is not on Ray node {socket.gethostname()}: put it on a filesystem "
                                 "every node sees, at the same path")
        if world.info.content_hash != self.content_hash:
            raise WorldNotOnNode(f"world {world.root} on Ray node {socket.gethostname()} holds catalog "
                                 f"{world.info.content_hash[:12]}, not the run's {self.content_hash[:12]}")
        return world


@dataclass(frozen=True)
class Played:
    """One finished episode, as the worker's server wrote it."""

    episode_id: str
    status: EndStatus | None
    trajectory: str
    """The episode's file, verbatim ("" when the server ended it as an error: it could not write it)."""


class EpisodeWorker:
    """A Ray actor (made one by evaluators.harness.ray_executor): one per episode in flight, so a worker that dies
    costs one episode, and Ray's CPU and GPU accounting applies per episode."""

    def __init__(self, config: RunConfig, world: WorldRef | None) -> None:
        self._config, self._world = config, world
        self._scratch = Path(tempfile.mkdtemp(prefix="shopbench-ray-"))
        self._player: Player | None = None
        self._environment: Environment | None = None

    async def open(self) -> dict[str, Any]:
        """Open the player and the world (its indexes on first use); returns where this worker runs."""
        spec = get_benchmark(self._config.benchmark)
        self._player = make_player(self._config, spec)
        world = self._world.open_here() if self._world else None
        self._environment = open_environment([spec.name], runs_dir=self._scratch, world=world,
                                             **environment_options(self._config))
        import ray

        return {"host": socket.gethostname(), "node": ray.get_runtime_context().get_node_id(), "pid": os.getpid()}

    async def play(self, unit: WorkUnit[TaskListing]) -> Played:
        """Play one episode on a fresh MCP session to this worker's server and hand back its file."""
        assert self._player is not None and self._environment is not None, "open() first"
        async with in_process_session(self._environment.server) as session:
            episode_id, status = await self._player.play(session, unit, self._environment.suites[0], unit.episode_id)
        path = episode_path(self._scratch, episode_id)
        text = path.read_text(encoding="utf-8") if status != "error" else ""
        path.unlink(missing_ok=True)
        return Played(episode_id, status, text)

    async def close(self) -> dict[str, Any]:
        """Let go of the model and the scratch folder; returns the player's counters (retries, cache hits)."""
        try:
            if self._player is None:
                return {}
            await self._player.aclose()
            return self._player.counters()
        finally:
            shutil.rmtree(self._scratch, ignore_errors=True)
