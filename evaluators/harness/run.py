"""`shopbench run BENCHMARK`: one run pipeline for every registered benchmark.

benchmark (registry) → options checked against what its player takes (evaluators.harness.config) → the player
(its parts' player: a model, or a baseline, made ready) → the environment (`open_environment`: suites, world and the
selection — one clear error before any run folder exists) → work units (task × epoch, sharded) → the manifest →
`run_episodes`, where each worker holds one MCP session to the environment's server and plays its units on it.

In-process, the server's Episode writes every trajectory straight into the run folder. Against a running
`shopbench serve` (`--server URL`) the server writes it, and once the episode has ended its file is copied verbatim
into the local run folder from the server's `shopbench://episodes/{episode_id}` resource.

Every failed episode is one line (episode id, cause) on the terminal and a traceback in the run's `run.log`;
identical causes are counted in the summary, and a run whose first episodes all fail for one cause stops early.
A run folder that cannot be written (a full disk, a run.log that cannot be opened) stops the run with
`RunFolderUnwritable`: no episode is started after it, the files hold whole events only, and `--resume` plays the
rest once there is space. An episode the server ended as an error (it could not write its trajectory) counts as
failed, never as played. SIGINT or SIGTERM stops the run in order (evaluators.harness.signals) with `RunInterrupted`.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import re
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from benchmarks.jsonl import write_text_atomic
from benchmarks.registry import get_benchmark
from benchmarks.shoppingbench.conversation.instructions import ASK_USER_TOOL
from evaluators.harness.config import RunConfig, RunOptionError, environment_options
from evaluators.harness.file_limits import check_open_files
from evaluators.harness.manifest import (
    git_revision,
    new_run_id,
    open_run,
    package_versions,
    prompt_hashes,
    update_notes,
)
from evaluators.harness.orchestrate import (
    EpisodeNotRecorded,
    ProgressSink,
    RunFolderUnwritable,
    RunSummary,
    SessionFactory,
    WorkUnit,
    episode_state,
    failure_cause,
    run_episodes,
)
from evaluators.harness.player_choice import check_options, make_player
from evaluators.harness.players import Player
from evaluators.harness.ray_executor import RayExecutor
from evaluators.harness.run_log import LOG_FILE, file_log
from evaluators.harness.shards import parse_shard
from evaluators.harness.signals import stop_on_signals, wait_for_threads
from evaluators.players.sessions import http_session, in_process_session
from mcp_server.environment import open_environment
from mcp_server.suites import TaskListing
from mcp_server.trajectory import RunManifest, episode_path, write_failure_reason

T = TypeVar("T")

log = logging.getLogger("shopbench.runs")


class RunInterrupted(Exception):
    """The run was stopped by SIGINT or SIGTERM; finished episodes are kept, `--resume` plays the rest."""

    def __init__(self, run_dir: Path, signal_name: str, finished: int, total: int) -> None:
        self.run_dir, self.signal_name, self.finished, self.total = run_dir, signal_name, finished, total
        super().__init__(f"stopped by {signal_name}: {finished} of {total} episodes finished in {run_dir}")

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process ended by it (130 for SIGINT)."""
        return 128 + int(getattr(signal, self.signal_name, signal.SIGINT))


@dataclass
class RunResult:
    run_dir: Path
    summary: RunSummary
    manifest: RunManifest
    log_file: Path


def episode_id_for(task_id: str, epoch: int = 0) -> str:
    """A file-safe, deterministic episode id for a task and epoch ("task1:FS_1" → "task1_FS_1-<hash>-e0"), so a
    resumed run finds the file of an earlier attempt; different task ids never share one."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", task_id).strip("._-") or "task"
    if safe != task_id:
        safe = f"{safe[:100]}-{hashlib.sha1(task_id.encode()).hexdigest()[:8]}"
    return f"{safe}-e{epoch}"


def default_run_dir(benchmark: str, spec: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_")[:60]
    return Path("runs") / f"{benchmark}-{safe}-{datetime.now():%Y%m%d-%H%M%S}"


async def run_benchmark(config: RunConfig, progress: ProgressSink | None = None) -> RunResult:
    """Run a registered benchmark end to end into a run folder (score it with evaluators.results.scoring.score_run).

    Raises before creating anything on bad options (RunOptionError, ModelSpecError, UnknownBenchmarkError), on
    data that cannot be played (NotPlayable: one line naming the fix), or a run folder that cannot be used
    (RunDirError, ManifestMismatch)."""
    spec = get_benchmark(config.benchmark)
    check_options(spec, config)
    selection, options, execution = config.selection, config.options, config.execution
    shard = parse_shard(selection.shard) if selection.shard else None
    # The manifest's package versions and git revision (reading package metadata, running git: ~10 ms, mostly
    # waiting on files and a child process) are looked up in a thread while the player and the suites are made.
    provenance = _Background(_provenance)
    player = make_player(config, spec)
    run_dir = Path(execution.out) if execution.out else default_run_dir(spec.name, config.model)
    try:
        environment = open_environment([spec.name], runs_dir=run_dir, world=options.world,
                                       **environment_options(config))
        chosen = environment.selection(intents=selection.intents, task_ids=selection.task_ids,
                                       limit=selection.limit)
        suite, world = environment.suites[0], environment.world
        if execution.server_url is not None:
            await check_remote_user(execution.server_url, execution.server_token, suite.tools,
                                    "user" in player.options_for(spec))
        cluster = None if execution.executor != "ray" else RayExecutor.start(config, environment.world, run_dir)
    except BaseException:
        await player.aclose()
        raise
    player.first_task(suite, chosen[0][1].task_id)
    units = _units([listing for _, listing in chosen], selection.epochs)
    if shard:
        units = shard.select(units)
    try:
        if cluster is None:  # on Ray, the episodes' files are the workers'
            check_open_files(execution.concurrency, len(units), player.files_per_episode)
        packages, revision = provenance.result()
        manifest = open_run(run_dir, RunManifest(
            run_id=new_run_id(spec.name),
            benchmark=spec.name,
            task_set=suite.task_set,
            agent=player.agent,
            parameters={
                **player.parameters(), "epochs": selection.epochs, "intents": list(selection.intents or []) or None,
                "limit": selection.limit, "task_ids": selection.task_ids, "shard": str(shard) if shard else None,
                "server": execution.server_url or "in-process", "benchmark_version": spec.version,
                **suite.manifest_parameters(),
            },
            prompts=prompt_hashes(player.prompts()),
            world=None if world is None else {**world.info.model_dump(mode="json"), "path": str(world.root.resolve())},
            packages=packages,
            git_revision=revision,
            notes={"concurrency": execution.concurrency, "n_gpu_layers": config.backend.n_gpu_layers,
                   **execution.extra_notes, **(cluster.notes() if cluster else {})},
        ), execution.resume)
    except OSError as error:
        await _release(player, cluster)
        raise RunFolderUnwritable.from_os_error(run_dir, error) from None
    except BaseException:
        await _release(player, cluster)
        raise
    log_file = run_dir / LOG_FILE
    try:
        handler, level = file_log(log_file)
    except OSError as error:  # no episode starts whose failure could not be told
        await _release(player, cluster)
        raise RunFolderUnwritable(run_dir, f"{LOG_FILE}: {write_failure_reason(error)}") from None
    summary: RunSummary | None = None
    remote = execution.server_url
    try:
        session: SessionFactory = (functools.partial(in_process_session, environment.server) if remote is None
                                   else functools.partial(http_session, remote, execution.server_token))

        async def play(unit: WorkUnit[TaskListing], handle: Any) -> None:
            local_id = unit.episode_id if remote is None else None  # a server names its own episodes
            episode_id, status = await player.play(handle, unit, suite, local_id)
            if status == "error":
                raise EpisodeNotRecorded(f"the server ended episode {episode_id} as an error (it could not write its "
                                         "trajectory; the server's log says why)")
            if remote is not None:
                await copy_remote_episode(handle, episode_id, episode_path(run_dir, unit.episode_id), remote)

        concurrency = execution.concurrency
        if cluster is not None:  # episodes played by Ray workers; cluster.play writes each finished file here
            session, play, concurrency = cluster.session, cluster.play, cluster.workers
        with stop_on_signals() as received:
            try:
                async with player.serving(environment):  # installed agents: their addresses and the bridge
                    summary = await run_episodes(run_dir, units, play, concurrency=concurrency,
                                                 resume=execution.resume, progress=progress, session=session)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not received or task is None or task.uncancel() > 0:
                    raise  # cancelled by someone else (or more than once): not ours to turn into an exit
                await wait_for_threads()
                finished = sum(episode_state(run_dir, unit.episode_id) == "finished" for unit in units)
                log.info("run stopped by %s: %d of %d episodes finished", received[0], finished, len(units))
                raise RunInterrupted(run_dir, received[0], finished, len(units)) from None
    finally:
        notes = player.counters() | (cluster.counters() if cluster else {})
        if summary is not None:
            notes |= {"failed": summary.failed, "completed": summary.completed, "skipped": summary.skipped,
                      "stopped_early": summary.stopped_early}
            if summary.replayed:
                notes["replayed"] = summary.replayed
        # One manifest update (in a thread), while the model is released (closing the response cache waits on
        # its file being synced).
        noted = _Background(functools.partial(update_notes, run_dir, **notes))
        try:
            await _release(player, cluster)
        finally:
            logging.getLogger().removeHandler(handler)
            logging.getLogger("shopbench").setLevel(level)
            handler.close()
            try:
                noted.result()
            except OSError as error:
                if summary is not None:  # the run itself went through: its folder failed at the last write
                    raise RunFolderUnwritable.from_os_error(run_dir, error) from None
                log.debug("the run's notes could not be written to its manifest", exc_info=True)
    if handler.failure is not None:
        log.warning("%s could not be written (%s): failed episodes' tracebacks are missing from it", log_file,
                    handler.failure)
    return RunResult(run_dir, summary, manifest, log_file)


async def check_remote_user(url: str, token: str | None, tools: Any, conversable: bool) -> None:
    """Refuse, before anything is written, a run against `--server` whose user differs from the server's: the
    server's episodes are what gets recorded, so a `--user` run against a server started without one would be
    played plainly under a manifest that says `user`. The server's tool list says which: a server started with
    `--user` offers ask_user. `tools` are this run's suite's; `conversable`, whether its benchmark takes `--user`
    (a server playing ShoppingBench as a conversation may serve a question benchmark as it is)."""
    try:
        async with http_session(url, token) as session:
            offered = {tool.name for tool in (await session.list_tools()).tools}
    except Exception as error:
        raise RunOptionError(f"the server at {url} cannot be reached ({failure_cause(error)})") from None
    if ASK_USER_TOOL in tools and ASK_USER_TOOL not in offered:
        raise RunOptionError(f"the server at {url} plays its tasks without a user (it offers no {ASK_USER_TOOL}): "
                             "start it with the same --user, or run without --user")
    if conversable and ASK_USER_TOOL not in tools and ASK_USER_TOOL in offered:
        raise RunOptionError(f"the server at {url} plays its tasks as conversations (it offers {ASK_USER_TOOL}): "
                             "run with the --user it was started with, or serve without --user")


async def _release(player: Player, cluster: RayExecutor | None) -> None:
    """Let go of the model, then of the Ray cluster (its workers are gone by now; a cluster the run started stops)."""
    try:
        await player.aclose()
    finally:
        if cluster is not None:
            cluster.close()


def _provenance() -> tuple[dict[str, str], str | None]:
    return package_versions(), git_revision()


class _Background(Generic[T]):
    """Blocking work (files, a child process) started in its own thread now, its result (or exception) taken later
    with `result()`. Not the loop's executor: a run stopped by a signal shuts that down (signals.wait_for_threads)."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._value: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="shopbench-run-io", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as error:  # handed to whoever takes the result
            self._error = error

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]  # set when no error was raised


def _units(listings: list[TaskListing], epochs: int) -> list[WorkUnit[TaskListing]]:
    """Epoch-major, so a partial run has covered every task once before any task twice."""
    return [
        WorkUnit(episode_id=episode_id_for(listing.task_id, epoch), item_id=listing.task_id, epoch=epoch,
                 payload=listing)
        for epoch in range(epochs)
        for listing in listings
    ]


async def copy_remote_episode(session: Any, remote_id: str, target: Path, server_url: str) -> None:
    """Copy an ended episode's trajectory from the server, verbatim, to `target` (written atomically)."""
    from mcp_server.protocol import EPISODE_URI  # the trajectory resource, readable by the client that played it

    uri = EPISODE_URI.format(episode_id=remote_id)
    try:
        result = await session.read_resource(uri)
    except Exception as error:
        raise RuntimeError(f"the server at {server_url} did not give {uri} ({error}); it records the episode in its "
                           "own --runs folder, but this run cannot copy it: update shopbench on the server") from None
    text = "".join(getattr(content, "text", "") or "" for content in result.contents)
    if not text.strip():
        raise RuntimeError(f"the server at {server_url} returned an empty {uri}")
    write_text_atomic(target, text if text.endswith("\n") else text + "\n")


__all__ = [
    "LOG_FILE", "EpisodeNotRecorded", "RunConfig", "RunFolderUnwritable", "RunInterrupted", "RunResult",
    "copy_remote_episode", "default_run_dir", "episode_id_for", "run_benchmark",
]
