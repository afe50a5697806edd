"""ShoppingBench (the default of agentic benchmarks) as a verifiers multi-turn tool environment."""

from __future__ import annotations

from pathlib import Path

from benchmarks.registry import BenchmarkSpec
from evaluators.integrations.verifiers.episodes import shared_environment
from evaluators.integrations.verifiers.rubrics import ShoppingBenchRubric
from evaluators.integrations.verifiers.tool_env import ToolEpisodeEnv
from mcp_server.shopping.world import World
from mcp_server.users import conversation_options


def shoppingbench_environment(
    spec: BenchmarkSpec,
    world: str | Path | None = None,
    task_set: str | None = None,
    intent: str | list[str] | None = None,
    task_ids: list[str] | None = None,
    limit: int | None = None,
    max_steps: int | None = None,
    runs: str | Path | None = None,
    tool_reward: bool = False,
    embedder: str | None = None,
    user: str | None = None,
    stated: int | None = None,
) -> ToolEpisodeEnv:
    """One example per task of the world's task set (default: the default world's generated set), chosen as
    `shopbench run` chooses them: `intent` (one, several, or comma-separated), `task_ids`, `limit` (per intent).
    Episodes are recorded under `runs` (default runs/verifiers-<benchmark>-<time>); `max_steps` bounds each (None:
    the server's default); `tool_reward` adds the paper's per-turn reward; `embedder` is the title embedder the
    scorer uses (default: the bundled MiniLM); `user` (and `stated`) plays the task set as a conversation, as
    `shopbench run --user`."""
    world_dir = None if world is None else Path(world).expanduser().resolve()
    environment = shared_environment(spec.name, runs, world=world_dir, task_set=task_set, max_steps=max_steps,
                                     **conversation_options(user, stated))
    [suite] = environment.suites
    intents = [part.strip() for part in intent.split(",")] if isinstance(intent, str) else intent
    chosen = environment.selection(intents=intents, task_ids=task_ids, limit=limit)
    assert isinstance(environment.world, World)  # ShoppingBench plays in a ShoppingBench world
    rubric = ShoppingBenchRubric(environment.world, embedder, tool_reward=tool_reward)
    return ToolEpisodeEnv(spec, environment, suite, [listing for _, listing in chosen], rubric=rubric)
