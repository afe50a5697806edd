"""`shopbench run shoppingbench`: a model (or baseline) plays ShoppingBench tasks of a world through MCP.

The composition: world + task selection → work units (task × epoch, sharded) → the run manifest → run_episodes,
whose episode function opens an MCP session (in-process server writing into the run dir, or a remote
`shopbench serve` mirrored locally), binds the model to the episode and plays it with `run_episode`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.shoppingbench.schema import INTENTS, ShoppingTask
from evaluators.agent.loop import run_episode
from evaluators.agent.protocols import get_protocol
from evaluators.agent.sessions import http_session, in_process_session
from evaluators.models import EpisodeContext, GenerateConfig, ModelOptions, bind_episode
from evaluators.models._baselines import ORACLE_LABEL
from evaluators.runs.backend import PreparedModel, is_baseline, prepare_model
from evaluators.runs.manifest import git_revision, new_run_id, open_run, package_versions, prompt_hashes, update_notes
from evaluators.runs.orchestrate import ProgressSink, RunSummary, WorkUnit, run_episodes
from evaluators.runs.pricing import PriceTable
from evaluators.runs.shards import parse_shard
from mcp_server.trajectory import AgentInfo, RunManifest

BENCHMARK = "shoppingbench"


@dataclass
class ShoppingRunConfig:
    model: str
    world: Path | None = None
    """World folder; None = the default world."""
    task_set: str | None = None
    """None = the world's generated set."""
    intents: tuple[str, ...] = INTENTS
    limit: int | None = None
    """At most this many tasks per intent (the first ones, in task-file order)."""
    task_ids: list[str] | None = None
    epochs: int = 1
    concurrency: int = 1
    out: Path | None = None
    resume: bool = False
    shard: str | None = None
    protocol: str = "native"
    max_steps: int = 30
    temperature: float = 0.0
    max_tokens: int = 1024
    top_p: float | None = None
    seed: int = 0
    n_gpu_layers: int = 0
    n_ctx: int = 8192
    timeout_s: float = 120.0
    server_url: str | None = None
    server_token: str | None = None
    cache: bool = True
    cache_path: Path | None = None
    prices: Path | None = None
    extra_notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class ShoppingRunResult:
    run_dir: Path
    summary: RunSummary
    manifest: RunManifest


def select_tasks(tasks: list[ShoppingTask], config: ShoppingRunConfig) -> list[ShoppingTask]:
    unknown = set(config.intents) - set(INTENTS)
    if unknown:
        raise ValueError(f"unknown intent(s) {', '.join(sorted(unknown))}; choose from {', '.join(INTENTS)}")
    chosen = [t for t in tasks if t.intent in config.intents]
    if config.task_ids:
        wanted = set(config.task_ids)
        missing = wanted - {t.task_id for t in chosen}
        if missing:
            raise ValueError(f"no task(s) {', '.join(sorted(missing))} in this task set and intents")
        chosen = [t for t in chosen if t.task_id in wanted]
    if config.limit is not None:
        per_intent: dict[str, int] = {}
        limited = []
        for task in chosen:
            per_intent[task.intent] = per_intent.get(task.intent, 0) + 1
            if per_intent[task.intent] <= config.limit:
                limited.append(task)
        chosen = limited
    return chosen


def work_units(tasks: list[ShoppingTask], epochs: int) -> list[WorkUnit]:
    """Epoch-major, so a partial run has covered every task once before any task twice."""
    return [
        WorkUnit(episode_id=f"{task.task_id}-e{epoch}", item_id=task.task_id, epoch=epoch, payload=task)
        for epoch in range(epochs)
        for task in tasks
    ]


def agent_info(prepared: PreparedModel) -> AgentInfo:
    identity = prepared.base.identity()
    if prepared.base.spec == "oracle":
        return AgentInfo(kind="baseline", name=ORACLE_LABEL, details=identity)
    return AgentInfo(kind="baseline" if is_baseline(prepared.base) else "model", name=prepared.base.spec,
                     details=identity)


def default_run_dir(spec: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_")[:60]
    return Path("runs") / f"{BENCHMARK}-{safe}-{datetime.now():%Y%m%d-%H%M%S}"


async def run_shoppingbench(config: ShoppingRunConfig, progress: ProgressSink | None = None) -> ShoppingRunResult:
    from mcp_server.shopping_suite import ShoppingSuite
    from mcp_server.world import GENERATED_SET, World, default_world

    protocol = get_protocol(config.protocol)  # bad options fail before the world is opened
    shard = parse_shard(config.shard) if config.shard else None
    options = ModelOptions(n_gpu_layers=config.n_gpu_layers, n_ctx=config.n_ctx, timeout_s=config.timeout_s,
                           seed=config.seed)
    prepared = prepare_model(config.model, options, cache=config.cache, cache_path=config.cache_path)
    try:
        world = World.open(config.world) if config.world else default_world()
        task_set = config.task_set or GENERATED_SET
        tasks = select_tasks(world.tasks(task_set), config)
    except BaseException:
        await prepared.aclose()
        raise
    units = work_units(tasks, config.epochs)
    if shard:
        units = shard.select(units)
    agent = agent_info(prepared)
    run_dir = Path(config.out) if config.out else default_run_dir(config.model)
    generate = GenerateConfig(temperature=config.temperature, max_tokens=config.max_tokens, top_p=config.top_p,
                              seed=config.seed)
    manifest = open_run(
        run_dir,
        RunManifest(
            run_id=new_run_id(BENCHMARK),
            benchmark=BENCHMARK,
            task_set=task_set,
            agent=agent,
            parameters={
                "protocol": protocol.name, "max_steps": config.max_steps, **generate.model_dump(),
                "epochs": config.epochs, "intents": list(config.intents), "limit": config.limit,
                "task_ids": config.task_ids, "shard": str(shard) if shard else None,
                "server": config.server_url or "in-process",
            },
            prompts=prompt_hashes(protocol.prompts()),
            world={**world.info.model_dump(mode="json"), "path": str(world.root.resolve())},
            packages=package_versions(),
            git_revision=git_revision(),
            notes={"concurrency": config.concurrency, "n_gpu_layers": config.n_gpu_layers, **config.extra_notes},
        ),
        config.resume,
    )
    prices = PriceTable.load(config.prices)
    server = None
    if config.server_url is None:
        from mcp_server.server import build_server

        server = build_server(world, [ShoppingSuite(world, task_set)], run_dir, max_steps=config.max_steps)

    listing: dict[str, list[Any]] = {}

    async def tools_of(session: Any) -> list[Any]:
        """The server's tool list, fetched by the first episode and reused (it never changes during a run)."""
        if "tools" not in listing:
            listing["tools"] = (await session.list_tools()).tools
        return listing["tools"]

    async def play(unit: WorkUnit) -> None:
        task: ShoppingTask = unit.payload
        context = EpisodeContext(episode_id=unit.episode_id, item_id=task.task_id, epoch=unit.epoch,
                                 seed=config.seed, gold=task)
        model = bind_episode(prepared.model, context)
        episode_config = generate.model_copy(update={"seed": config.seed + unit.epoch})
        if server is not None:
            async with in_process_session(server) as session:
                await run_episode(session, model, protocol, task_id=task.task_id, episode_id=unit.episode_id,
                                  epoch=unit.epoch, agent=agent, config=episode_config, max_steps=config.max_steps,
                                  prices=prices, listed_tools=await tools_of(session))
            return
        async with http_session(config.server_url, config.server_token) as session:
            await run_episode(session, model, protocol, task_id=task.task_id, episode_id=None, epoch=unit.epoch,
                              agent=agent, config=episode_config, max_steps=config.max_steps, prices=prices,
                              listed_tools=await tools_of(session))

    try:
        summary = await run_episodes(run_dir, units, play, concurrency=config.concurrency, resume=config.resume,
                                     progress=progress)
    finally:
        update_notes(run_dir, **prepared.counters())
        await prepared.aclose()
    update_notes(run_dir, failed=summary.failed, completed=summary.completed, skipped=summary.skipped)
    return ShoppingRunResult(run_dir, summary, manifest)
