"""`shopbench run … --executor ray [--address ADDR]`: the run's episodes played by Ray workers across a cluster.

The run pipeline is the local one (evaluators.harness.run: options, player, environment, work units, manifest,
run_episodes with its resume, failure and stop rules); only where an episode is played changes. Each of
run_episodes' workers holds one Ray actor (evaluators.harness.ray_worker.EpisodeWorker) as its session: the actor
opens the run's player and world once on its node and plays one episode at a time on its own in-process MCP server;
the driver writes each finished trajectory file, verbatim and atomically, into the run folder, as a run against a
remote `shopbench serve` copies them.

Why the driver writes, not the workers: a file lands whole or not at all, so a worker or node that dies leaves
nothing in the run folder; its episode comes back as `WorkerLost`, and run_episodes plays it again on a fresh actor.
Only a result the driver received is written, and each unit is in one actor's hands at a time, so no episode is
played into the run twice. Nodes need no shared filesystem for runs (only for a world that is not the default one).

Resources: one CPU per worker, and one GPU with `--n-gpu-layers` (Ray sets CUDA_VISIBLE_DEVICES for it); workers
are spread over the nodes, and there are as many as `--concurrency` asks and the cluster holds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from benchmarks.jsonl import write_text_atomic
from evaluators.harness.config import RunConfig, RunOptionError
from evaluators.harness.fault_handlers import fault_handlers_kept
from evaluators.harness.orchestrate import EpisodeNotRecorded, WorkerLost, WorkUnit
from evaluators.harness.ray_worker import EpisodeWorker, Played, WorldRef
from mcp_server.shopping.world import World
from mcp_server.suites import SuiteWorld, TaskListing
from mcp_server.trajectory import episode_path

log = logging.getLogger("shopbench.runs")

OPEN_TIMEOUT_S = 600.0
"""How long a worker may take to be placed and to open its model and world (a default world built on a fresh node
takes about a minute) before its episode is given to another."""
CLOSE_TIMEOUT_S = 60.0


class RayExecutor:
    """Ray workers for one run: `session()` starts one (an actor), `play(unit, actor)` plays a unit on it and writes
    the finished file into the run folder."""

    def __init__(self, config: RunConfig, world: WorldRef | None, run_dir: Path, *, owns: bool, workers: int,
                 gpus: int, resources: dict[str, float], nodes: int) -> None:
        import ray

        self.config, self.world, self.run_dir = config, world, Path(run_dir)
        self.workers, self.owns = workers, owns
        self._cluster = {"nodes": nodes, "resources": resources, "workers": workers}
        self._actor: Any = ray.remote(EpisodeWorker).options(
            num_cpus=1, num_gpus=gpus, scheduling_strategy="SPREAD", max_restarts=0, max_task_retries=0)
        self._counters: dict[str, Any] = {}
        self._nodes: set[str] = set()
        self.started = 0

    @classmethod
    def start(cls, config: RunConfig, world: SuiteWorld | None, run_dir: Path) -> RayExecutor:
        """Join the cluster (`--address`, else RAY_ADDRESS, else a Ray instance started for the run) and size the
        worker pool; refuses in one line, before the run folder is made, when Ray is missing or the cluster cannot
        hold one worker. Workers open the world again where they run: a ShoppingBench world, or none."""
        if world is not None and not isinstance(world, World):
            raise RunOptionError(f"--executor ray: workers open ShoppingBench worlds only, not {world!r}")
        try:
            import ray
        except ImportError:
            raise RunOptionError("--executor ray needs Ray: pip install 'shopbench[ray]'") from None
        address = config.execution.address
        owns = not ray.is_initialized()
        if owns:
            try:
                with fault_handlers_kept():  # a JVM in this process keeps the handlers it lives on
                    ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
            except (ConnectionError, ValueError, RuntimeError) as error:
                where = f"at {address}" if address else "(RAY_ADDRESS, or a new local instance)"
                raise RunOptionError(f"--executor ray: cannot join the Ray cluster {where}: "
                                     f"{_first_line(error)}") from None
        try:
            gpus = 1 if config.backend.n_gpu_layers else 0
            resources = {name: value for name, value in ray.cluster_resources().items() if name in ("CPU", "GPU")}
            capacity = int(resources.get("GPU" if gpus else "CPU", 0))
            if capacity < 1:
                needed = "a GPU (--n-gpu-layers)" if gpus else "a CPU"
                raise RunOptionError(f"--executor ray: each worker needs {needed}; the cluster has {resources}")
            nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
        except BaseException:
            if owns:
                with fault_handlers_kept():
                    ray.shutdown()
            raise
        ref = WorldRef.of(world, default=config.options.world is None)
        return cls(config, ref, run_dir, owns=owns, workers=min(config.execution.concurrency, capacity), gpus=gpus,
                   resources=resources, nodes=nodes)

    def notes(self) -> dict[str, Any]:
        """For the manifest's notes: the executor and the cluster it found (not decisive: a Ray run resumes and
        merges with local ones)."""
        return {"executor": "ray", "ray": dict(self._cluster)}

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Any]:
        """A fresh worker, opened; gone (killed) when the session ends. Its counters join the run's when it ends in
        order."""
        import ray
        from ray.exceptions import RayActorError, RayTaskError

        actor: Any = self._actor.remote(self.config, self.world)
        self.started += 1
        try:
            try:
                where = await asyncio.wait_for(_awaited(actor.open.remote()), OPEN_TIMEOUT_S)
            except RayActorError as error:
                raise WorkerLost(f"a Ray worker died while opening the run ({type(error).__name__})") from error
            except TimeoutError:
                raise WorkerLost(f"no Ray worker was placed and opened within {OPEN_TIMEOUT_S:.0f} s") from None
            except RayTaskError as error:
                raise _cause(error) from error
            log.debug("Ray worker opened on %s (node %s, pid %s)", where["host"], where["node"], where["pid"])
            self._nodes.add(where["node"])
            yield actor
            try:
                counters = await asyncio.wait_for(_awaited(actor.close.remote()), CLOSE_TIMEOUT_S)
            except (RayActorError, TimeoutError):  # it died after its last episode: only its counters are lost
                log.debug("a Ray worker could not be closed in order", exc_info=True)
            else:
                self._counters = merge_counters(self._counters, counters)
        finally:
            ray.kill(actor)

    async def play(self, unit: WorkUnit[TaskListing], handle: Any) -> None:
        """Play `unit` on the worker `handle` (a session's actor) and write its finished file into the run folder."""
        from ray.exceptions import RayActorError, RayTaskError

        try:
            played: Played = await handle.play.remote(unit)
        except RayActorError as error:
            raise WorkerLost(f"its Ray worker died ({type(error).__name__})") from error
        except RayTaskError as error:
            raise _cause(error) from error
        if played.status == "error":
            raise EpisodeNotRecorded(f"the Ray worker's server ended episode {played.episode_id} as an error (it "
                                     "could not write its trajectory; the worker's log says why)")
        write_text_atomic(episode_path(self.run_dir, unit.episode_id), played.trajectory)

    def counters(self) -> dict[str, Any]:
        """The workers' counters added up (retries, cache hits), how many workers were started and on how many
        nodes they ran."""
        return {**self._counters, "ray_workers_started": self.started, "ray_nodes_used": len(self._nodes)}

    def close(self) -> None:
        """Leave the cluster; a Ray instance started for the run stops."""
        import ray

        if self.owns:
            with fault_handlers_kept():  # Ray's shutdown resets them to the default, the JVM's included
                ray.shutdown()


def merge_counters(total: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Counters of several workers as one: numbers add, lists join, anything else keeps its first value."""
    merged = dict(total)
    for name, value in more.items():
        if name not in merged:
            merged[name] = value
        elif isinstance(value, int | float) and not isinstance(value, bool):
            merged[name] += value
        elif isinstance(value, list):
            merged[name] = [*merged[name], *value]
    return merged


async def _awaited(ref: Any) -> Any:
    return await ref


def _cause(error: Any) -> BaseException:
    """The worker's own exception inside Ray's wrapper, so a failure reads as in a local run."""
    cause = getattr(error, "cause", None)
    return cause if isinstance(cause, Exception) else RuntimeError(_first_line(error))


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
