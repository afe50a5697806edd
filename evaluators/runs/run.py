"""`shopbench run BENCHMARK`: one run pipeline for every registered benchmark.

benchmark (registry) → options checked against its kind → the player (a model, or a baseline) made ready → the
suites (`build_suites`) and the selection (`check_playable`: one clear error, before any run folder exists) →
work units (task × epoch, sharded) → the manifest → `run_episodes`, where each worker holds one MCP session to the
server and plays its units on it: an agentic episode with `run_episode` (the agent loop), a question episode with
`answer_question` (start_task → the answer → submit_answer).

In-process, the server's Episode writes every trajectory straight into the run folder. Against a running
`shopbench serve` (`--server URL`) the server writes it, and once the episode has ended its file is copied verbatim
into the local run folder from the server's `shopbench://episodes/{episode_id}` resource.

Every failed episode is one line (episode id, cause) on the terminal and a traceback in the run's `run.log`;
identical causes are counted in the summary, and a run whose first episodes all fail for one cause stops early.
A run folder that cannot be written (a full disk) stops the run with `RunFolderUnwritable`: no episode is started
after it, the files hold whole events only, and `--resume` plays the rest once there is space. An episode the server
ended as an error (it could not write its trajectory) counts as failed, never as played.

SIGINT (Ctrl-C) or SIGTERM while episodes are being played stops the run in order: the run's task is cancelled, the
workers close their sessions (the server ends the episodes in flight as abandoned, or leaves them without an end, and
either way `--resume` plays them again), threads still computing (llama.cpp, Lucene) are waited for, and
`RunInterrupted` is raised. A second signal acts as it would without this (KeyboardInterrupt, or termination). The
JVM leaves these signals to Python (-Xrs, mcp_server.search.lucene_runtime).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from benchmarks.jsonl import write_text_atomic
from benchmarks.registry import BenchmarkSpec, get_benchmark
from evaluators.players.pricing import PriceTable
from evaluators.players.sessions import http_session, in_process_session
from evaluators.runs.manifest import (
    demonstration_parameters,
    git_revision,
    new_run_id,
    open_run,
    package_versions,
    prompt_hashes,
    update_notes,
)
from evaluators.runs.orchestrate import (
    ProgressSink,
    RunDirError,
    RunFolderUnwritable,
    RunSummary,
    SessionFactory,
    WorkUnit,
    episode_state,
    run_episodes,
)
from evaluators.runs.shards import parse_shard
from mcp_server.protocol import MAX_EPOCHS
from mcp_server.suites import TaskListing, TaskSuite, build_suites, check_playable
from mcp_server.trajectory import AgentInfo, EndStatus, RunManifest, episode_path

if TYPE_CHECKING:
    from evaluators.models.context import ContextHints
    from evaluators.runs.backend import PreparedModel

T = TypeVar("T")
LOG_FILE = "run.log"
"""In the run folder: every failed episode's traceback (and the run's warnings)."""

log = logging.getLogger("shopbench.runs")

AGENTIC_OPTIONS = {"world": "--world", "task_set": "--tasks", "protocol": "--protocol", "max_steps": "--max-steps"}
"""Options of agentic benchmarks only (RunConfig field → flag)."""
QUESTION_OPTIONS = {"items": "--items", "prompting": "--prompting", "shots": "--shots"}
"""Options of question benchmarks only."""


class RunOptionError(ValueError):
    """An option that does not apply to the chosen benchmark, or a player it cannot have."""


class EpisodeNotRecorded(RuntimeError):
    """The server ended an episode as an error (it could not write its trajectory): the episode failed."""


@dataclass
class RunConfig:
    """Everything `shopbench run` takes. Benchmark-specific fields are None when not given."""

    benchmark: str
    model: str
    limit: int | None = None
    """At most N tasks per task group (ShoppingBench: per intent; question benchmarks: per task)."""
    intents: tuple[str, ...] | None = None
    """Only these task groups (ShoppingBench intents, or question task names)."""
    task_ids: list[str] | None = None
    epochs: int = 1
    concurrency: int = 1
    out: Path | None = None
    resume: bool = False
    shard: str | None = None
    seed: int = 0
    temperature: float | None = None
    """None: 0 for agentic benchmarks, the reference's decoding for questions."""
    max_tokens: int | None = None
    """None: 1024 for agentic benchmarks, the reference's budget for questions."""
    top_p: float | None = None
    n_gpu_layers: int = 0
    n_ctx: int = 8192
    timeout_s: float = 120.0
    cache: bool = True
    cache_path: Path | None = None
    prices: Path | None = None
    server_url: str | None = None
    server_token: str | None = None
    # agentic benchmarks
    world: Path | None = None
    task_set: str | None = None
    protocol: str | None = None
    max_steps: int | None = None
    # question benchmarks
    items: Path | None = None
    prompting: str | None = None
    shots: int | None = None
    extra_notes: dict[str, Any] = field(default_factory=dict)


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


def check_options(spec: BenchmarkSpec, config: RunConfig) -> None:
    """Refuse options that mean nothing for this benchmark (silently ignoring them would mislead)."""
    other = QUESTION_OPTIONS if spec.kind == "agentic" else AGENTIC_OPTIONS
    given = [flag for name, flag in other.items() if getattr(config, name) is not None]
    if given:
        kind = "an agentic benchmark" if spec.kind == "agentic" else "a question benchmark"
        applies = "question benchmarks" if spec.kind == "agentic" else "agentic benchmarks"
        raise RunOptionError(f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to {spec.name} "
                             f"({kind}); {'it applies' if len(given) == 1 else 'they apply'} to {applies}")
    if spec.kind == "qa" and config.prompting is not None and config.prompting not in spec.promptings:
        raise RunOptionError(f"{spec.name} supports --prompting {', '.join(spec.promptings)}; not {config.prompting!r}")
    if spec.kind == "agentic" and config.protocol is not None and config.protocol not in spec.promptings:
        raise RunOptionError(f"{spec.name} supports --protocol {', '.join(spec.promptings)}; not {config.protocol!r}")
    if not 1 <= config.epochs <= MAX_EPOCHS:
        raise RunOptionError(f"--epochs must be 1 to {MAX_EPOCHS} (epochs are numbered 0..{MAX_EPOCHS - 1}); "
                             f"got {config.epochs}")
    if config.resume and (config.out is None or not Path(config.out).is_dir()):
        where = "needs --out (the run folder to continue)" if config.out is None else f"{config.out} does not exist"
        raise RunDirError(f"--resume {where}; start a new run without --resume")


def episode_id_for(task_id: str, epoch: int = 0) -> str:
    """A file-safe, deterministic episode id for a task and epoch ("task1:FS_1" → "task1_FS_1-<hash>-e0"), so a
    resumed run finds the file of an earlier attempt; different task ids never share one."""
    import hashlib

    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", task_id).strip("._-") or "task"
    if safe != task_id:
        safe = f"{safe[:100]}-{hashlib.sha1(task_id.encode()).hexdigest()[:8]}"
    return f"{safe}-e{epoch}"


def default_run_dir(benchmark: str, spec: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_")[:60]
    return Path("runs") / f"{benchmark}-{safe}-{datetime.now():%Y%m%d-%H%M%S}"


class _Player:
    """Who plays the episodes: its identity, how it plays one, what to note in the manifest, how to let go."""

    agent: AgentInfo

    async def play(
        self, session: Any, unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str | None
    ) -> tuple[str, EndStatus | None]:
        """Play one episode to its end; returns the server's episode id and how the episode ended."""
        raise NotImplementedError

    def parameters(self) -> dict[str, Any]:
        return {}

    def prompts(self) -> dict[str, str]:
        return {}

    def counters(self) -> dict[str, Any]:
        return {}

    async def aclose(self) -> None:
        """Release the model."""


class _AgentPlayer(_Player):
    def __init__(self, config: RunConfig, spec: BenchmarkSpec) -> None:
        from evaluators.models import GenerateConfig
        from evaluators.players.agent.protocols import get_protocol

        _baseline(config.model, spec)  # a baseline without a policy for agentic episodes is refused here
        self.protocol = get_protocol(config.protocol or spec.promptings[0])
        self.max_steps = config.max_steps or 30
        self.seed = config.seed
        self.generate = GenerateConfig(temperature=0.0 if config.temperature is None else config.temperature,
                                       max_tokens=config.max_tokens or 1024, top_p=config.top_p, seed=config.seed)
        self.prices = PriceTable.load(config.prices)
        self.prepared = _prepare(config, self.protocol.hints)
        self.agent = self.prepared.agent()
        self._tools: list[Any] | None = None

    async def play(
        self, session: Any, unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str | None
    ) -> tuple[str, EndStatus | None]:
        from evaluators.models import EpisodeContext, bind_episode
        from evaluators.players.agent.loop import run_episode

        gold = suite.task(unit.item_id) if hasattr(suite, "task") else None  # harness-side, for the oracle only
        context = EpisodeContext(episode_id=unit.episode_id, item_id=unit.item_id, epoch=unit.epoch, seed=self.seed,
                                 gold=gold)
        if self._tools is None:  # the tool list never changes during a run: fetch it once
            self._tools = (await session.list_tools()).tools
        outcome = await run_episode(
            session, bind_episode(self.prepared.model, context), self.protocol, task_id=unit.item_id,
            episode_id=episode_id, epoch=unit.epoch, agent=self.agent,
            config=self.generate.model_copy(update={"seed": self.seed + unit.epoch}), max_steps=self.max_steps,
            prices=self.prices, listed_tools=self._tools,
        )
        return outcome.episode_id, outcome.status

    def parameters(self) -> dict[str, Any]:
        return {"protocol": self.protocol.name, "max_steps": self.max_steps, **self.generate.model_dump()}

    def prompts(self) -> dict[str, str]:
        return self.protocol.prompts()

    def counters(self) -> dict[str, Any]:
        return self.prepared.counters()

    async def aclose(self) -> None:
        await self.prepared.aclose()


class _QuestionPlayer(_Player):
    def __init__(self, config: RunConfig, spec: BenchmarkSpec) -> None:
        from evaluators.players.question import Answerer, Decoding, ModelAnswerer

        baseline = _baseline(config.model, spec)
        self.spec = spec
        self.prompting = config.prompting or spec.promptings[0]
        self.shots = config.shots or 0
        self.decoding = Decoding(temperature=config.temperature, max_tokens=config.max_tokens, top_p=config.top_p,
                                 seed=config.seed)
        self.prepared = None
        self.answerer: Answerer
        if baseline is not None:
            self.answerer = baseline(spec.questions(), config.items, self.prompting, config.seed)
        else:
            self.prepared = _prepare(config)
            self.answerer = ModelAnswerer(self.prepared.model, self.prepared.agent(), self.decoding,
                                          PriceTable.load(config.prices))
        self.agent = self.answerer.agent
        self._question: dict[str, Any] = {}

    def first_question(self, suite: TaskSuite, task_id: str) -> None:
        """Note the first question's prompt and decoding for the manifest (hashes and parameters)."""
        self._question = suite.start_details(task_id).get("question") or {}

    async def play(
        self, session: Any, unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str | None
    ) -> tuple[str, EndStatus | None]:
        from evaluators.players.question import answer_question

        answered = await answer_question(session, self.answerer, task_id=unit.item_id, episode_id=episode_id,
                                         epoch=unit.epoch, benchmark=self.spec.name)
        return answered.episode_id, answered.status

    def parameters(self) -> dict[str, Any]:
        question = self._question
        return {
            "prompting": self.prompting, "shots": self.shots, "seed": self.decoding.seed,
            "temperature": question.get("temperature") if self.decoding.temperature is None
            else self.decoding.temperature,
            "max_tokens": self.decoding.max_tokens or question.get("max_tokens"), "top_p": self.decoding.top_p,
            "samples": question.get("samples", 1),
        }

    def prompts(self) -> dict[str, str]:
        if not self._question:
            return {}
        return {"system": self._question.get("system") or "", "first_question": self._question.get("user", "")}

    def counters(self) -> dict[str, Any]:
        return self.prepared.counters() if self.prepared is not None else {}

    async def aclose(self) -> None:
        await self.answerer.aclose()
        if self.prepared is not None:
            await self.prepared.aclose()


def _prepare(config: RunConfig, hints: ContextHints | None = None) -> PreparedModel:
    """The run's model (or agentic baseline) from its spec and options, wrapped in retries and the response cache.
    `hints`: how the player's observations may be shown and shortened by a backend with a small context."""
    from evaluators.models import ModelOptions
    from evaluators.models.context import ContextHints
    from evaluators.runs.backend import prepare_model

    options = ModelOptions(n_gpu_layers=config.n_gpu_layers, n_ctx=config.n_ctx, timeout_s=config.timeout_s,
                           seed=config.seed, hints=hints or ContextHints())
    return prepare_model(config.model, options, cache=config.cache, cache_path=config.cache_path)


def _baseline(model: str, spec: BenchmarkSpec) -> Any:
    """The policy for this benchmark's episodes of the baseline `model` names, or None when it names a model; a
    baseline without one (the oracle on questions, majority on agentic tasks) is refused in one line."""
    from evaluators.players.baselines import NoSuchBaseline, find_baseline, policy

    if find_baseline(model) is None:
        return None
    try:
        return policy(model, spec.kind, spec.name)
    except NoSuchBaseline as error:
        raise RunOptionError(str(error)) from None


def make_player(config: RunConfig, spec: BenchmarkSpec) -> _Player:
    """The model or baseline for this benchmark; a bad model spec fails here, before any world is opened."""
    return _AgentPlayer(config, spec) if spec.kind == "agentic" else _QuestionPlayer(config, spec)


async def run_benchmark(config: RunConfig, progress: ProgressSink | None = None) -> RunResult:
    """Run a registered benchmark end to end into a run folder (score it with evaluators.results.scoring.score_run).

    Raises before creating anything on bad options (RunOptionError, ModelSpecError, UnknownBenchmarkError), on
    data that cannot be played (NotPlayable: one line naming the fix), or a run folder that cannot be used
    (RunDirError, ManifestMismatch)."""
    spec = get_benchmark(config.benchmark)
    check_options(spec, config)
    shard = parse_shard(config.shard) if config.shard else None
    # The manifest's package versions and git revision (reading package metadata, running git: ~10 ms, mostly
    # waiting on files and a child process) are looked up in a thread while the player and the suites are made.
    provenance = _Background(_provenance)
    player = make_player(config, spec)
    try:
        world, suites = build_suites([spec.name], world=config.world, task_set=config.task_set, items=config.items,
                                     prompting=config.prompting, shots=config.shots or 0, seed=config.seed)
        chosen = check_playable(suites, intents=config.intents, task_ids=config.task_ids, limit=config.limit)
    except BaseException:
        await player.aclose()
        raise
    suite = suites[0]
    if isinstance(player, _QuestionPlayer):
        player.first_question(suite, chosen[0][1].task_id)
    units = _units([listing for _, listing in chosen], config.epochs)
    if shard:
        units = shard.select(units)
    run_dir = Path(config.out) if config.out else default_run_dir(spec.name, config.model)
    try:
        packages, revision = provenance.result()
        manifest = open_run(run_dir, RunManifest(
            run_id=new_run_id(spec.name),
            benchmark=spec.name,
            task_set=suite.task_set,
            agent=player.agent,
            parameters={
                **player.parameters(), "epochs": config.epochs, "intents": list(config.intents or []) or None,
                "limit": config.limit, "task_ids": config.task_ids, "shard": str(shard) if shard else None,
                "server": config.server_url or "in-process", "benchmark_version": spec.version,
                **demonstration_parameters(suite),
            },
            prompts=prompt_hashes(player.prompts()),
            world=None if world is None else {**world.info.model_dump(mode="json"), "path": str(world.root.resolve())},
            packages=packages,
            git_revision=revision,
            notes={"concurrency": config.concurrency, "n_gpu_layers": config.n_gpu_layers, **config.extra_notes},
        ), config.resume)
    except OSError as error:
        await player.aclose()
        raise RunFolderUnwritable.from_os_error(run_dir, error) from None
    except BaseException:
        await player.aclose()
        raise
    log_file = run_dir / LOG_FILE
    handler, level = _file_log(log_file)
    summary: RunSummary | None = None
    try:
        if config.server_url is None:
            from mcp_server.server import build_server

            server = build_server(world, suites, run_dir, max_steps=config.max_steps or 30)
            session: SessionFactory = functools.partial(in_process_session, server)
        else:
            session = functools.partial(http_session, config.server_url, config.server_token)

        async def play(unit: WorkUnit[TaskListing], handle: Any) -> None:
            local_id = unit.episode_id if config.server_url is None else None  # a server names its own episodes
            episode_id, status = await player.play(handle, unit, suite, local_id)
            if status == "error":
                raise EpisodeNotRecorded(f"the server ended episode {episode_id} as an error (it could not write its "
                                         "trajectory; the server's log says why)")
            if config.server_url is not None:
                await copy_remote_episode(handle, episode_id, episode_path(run_dir, unit.episode_id),
                                          config.server_url)

        with _stop_on_signals() as received:
            try:
                summary = await run_episodes(run_dir, units, play, concurrency=config.concurrency,
                                             resume=config.resume, progress=progress, session=session)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not received or task is None or task.uncancel() > 0:
                    raise  # cancelled by someone else (or more than once): not ours to turn into an exit
                await _wait_for_threads()
                finished = sum(episode_state(run_dir, unit.episode_id) == "finished" for unit in units)
                log.info("run stopped by %s: %d of %d episodes finished", received[0], finished, len(units))
                raise RunInterrupted(run_dir, received[0], finished, len(units)) from None
    finally:
        notes = player.counters()
        if summary is not None:
            notes |= {"failed": summary.failed, "completed": summary.completed, "skipped": summary.skipped,
                      "stopped_early": summary.stopped_early}
        # One manifest update (in a thread), while the model is released (closing the response cache waits on
        # its file being synced).
        noted = _Background(functools.partial(update_notes, run_dir, **notes))
        try:
            await player.aclose()
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


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _stop_on_signals() -> Iterator[list[str]]:
    """While inside: the first SIGINT or SIGTERM cancels the current task (the run) and is named in the yielded list;
    after it, both signals have their default effect again (a second Ctrl-C raises KeyboardInterrupt at once).
    Outside the main thread, or where the loop cannot take signals, nothing is installed."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    received: list[str] = []
    installed: list[signal.Signals] = []

    def restore() -> None:
        while installed:
            loop.remove_signal_handler(installed.pop())  # SIGINT → KeyboardInterrupt, SIGTERM → terminate

    def on_signal(number: signal.Signals) -> None:
        if not received and task is not None:
            received.append(number.name)
            log.info("%s: stopping the run in order (%s again to force)", number.name, number.name)
            task.cancel()
        restore()

    if task is not None:
        for number in STOP_SIGNALS:
            try:
                loop.add_signal_handler(number, on_signal, number)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
                continue
            installed.append(number)
    try:
        yield received
    finally:
        restore()


async def _wait_for_threads() -> None:
    """Let work already handed to the loop's threads (a llama.cpp step) finish before the model is closed: freeing
    it under a running computation is what crashed the process. (Lucene calls go through anyio threads, which a
    cancelled caller already waits for.) The loop's default executor takes no new work afterwards."""
    await asyncio.get_running_loop().shutdown_default_executor()


def _provenance() -> tuple[dict[str, str], str | None]:
    return package_versions(), git_revision()


class _Background(Generic[T]):
    """Blocking work (files, a child process) started in its own thread now, its result (or exception) taken later
    with `result()`. Not the loop's executor: a run stopped by a signal shuts that down (_wait_for_threads)."""

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
    from mcp_server.server import EPISODE_URI  # the trajectory resource, readable by the client that played it

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


class _RunLog(logging.FileHandler):
    """The run's log file, which drops a record it cannot write (a full disk) and keeps the first such failure:
    logging's default printed each failed record's traceback and call stack to stderr, tens of thousands of lines
    when the disk filled under a run."""

    failure: BaseException | None = None

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        if self.failure is None:
            self.failure = sys.exc_info()[1]


def _file_log(path: Path) -> tuple[_RunLog, int]:
    """The run's log file: tracebacks of failed episodes (shopbench's DEBUG records) and every warning or error
    logged during the run. Returns the handler and the "shopbench" logger's level to restore."""
    handler = _RunLog(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    logger = logging.getLogger("shopbench")
    level = logger.level
    logger.setLevel(logging.DEBUG)
    return handler, level


__all__ = [
    "AGENTIC_OPTIONS", "LOG_FILE", "QUESTION_OPTIONS", "EpisodeNotRecorded", "RunConfig", "RunFolderUnwritable",
    "RunInterrupted", "RunOptionError", "RunResult", "check_options", "copy_remote_episode", "default_run_dir",
    "episode_id_for", "make_player", "run_benchmark",
]
