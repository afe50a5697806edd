"""The run's players: what a RunConfig becomes on the player side, for each episode format.

A benchmark's parts (evaluators.parts) name its player class; the default players are `AgentPlayer` (the agent loop,
for agentic benchmarks) and `QuestionPlayer` (start_task → the answer → submit_answer). Each says which benchmark
options it takes (`options`, checked by evaluators.harness.config.check_options) and plays one episode on an MCP
session. The model string is read here and nowhere else: a baseline's name gives that baseline's policy for the
benchmark's episode format (evaluators.players.baselines), anything else a model backend made ready for the run.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, nullcontext
from typing import TYPE_CHECKING, Any, ClassVar

from benchmarks.registry import BenchmarkSpec
from evaluators.harness.backend import PreparedModel, prepare_model
from evaluators.harness.config import RunConfig, RunOptionError
from evaluators.harness.orchestrate import WorkUnit
from evaluators.models.context import ContextHints
from evaluators.models.episode import EpisodeContext
from evaluators.models.registry import ModelOptions
from evaluators.players.baselines import NoSuchBaseline, Policy, find_baseline, policy
from evaluators.players.pricing import PriceTable
from mcp_server.protocol import DEFAULT_MAX_STEPS
from mcp_server.suites import TaskListing, TaskSuite
from mcp_server.trajectory import AgentInfo, EndStatus

if TYPE_CHECKING:
    from evaluators.players.question import Answerer
    from mcp_server.environment import Environment


class Player:
    """Who plays the episodes: its identity, how it plays one, what to note in the manifest, how to let go."""

    options: ClassVar[tuple[str, ...]] = ()
    """The BenchmarkOptions fields this player's benchmarks take."""
    prompting_option: ClassVar[str] = "prompting"
    """The one of them that chooses among the benchmark's promptings."""
    plays: ClassVar[str] = "a benchmark"
    """What it plays, for error messages ("an agentic benchmark")."""
    baselines_are_models: ClassVar[bool] = False
    """Whether its benchmarks' baselines are model specs (they can then drive an installed agent)."""
    files_per_episode: ClassVar[int] = 2
    """Open files one episode in flight holds: its trajectory, a connection to its model (evaluators.harness.
    file_limits)."""
    agent: AgentInfo

    @classmethod
    def options_for(cls, spec: BenchmarkSpec) -> tuple[str, ...]:
        """The BenchmarkOptions fields it takes for this benchmark (by default `options`)."""
        return cls.options

    def serving(self, environment: Environment) -> AbstractAsyncContextManager[None]:
        """What it serves for the whole run, around the episodes (installed agents: their addresses and the model
        bridge); nothing by default."""
        return nullcontext()

    def first_task(self, suite: TaskSuite, task_id: str) -> None:
        """Told the first task before the manifest is written (what it notes goes into parameters and prompts)."""

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


class AgentPlayer(Player):
    options = ("world", "task_set", "protocol", "max_steps", "user", "stated")
    prompting_option = "protocol"
    plays = "an agentic benchmark"
    baselines_are_models = True

    def __init__(self, config: RunConfig, spec: BenchmarkSpec) -> None:
        from evaluators.models import GenerateConfig
        from evaluators.players.agent.protocols import get_protocol

        baseline_policy(config.model, spec)  # a baseline without a policy for agentic episodes is refused here
        decoding = config.decoding
        self.protocol = get_protocol(config.options.protocol or spec.promptings[0])
        self.max_steps = config.options.max_steps
        """None: the server's step limit (the environment's default)."""
        self.conversational = config.options.user is not None
        self.seed = decoding.seed
        self.generate = GenerateConfig(temperature=0.0 if decoding.temperature is None else decoding.temperature,
                                       max_tokens=decoding.max_tokens or 1024, top_p=decoding.top_p,
                                       seed=decoding.seed)
        self.prices = PriceTable.load(config.backend.prices)
        self.prepared = prepare(config, self.protocol.hints)
        self.agent = self.prepared.agent()
        self._tools: list[Any] | None = None

    async def play(
        self, session: Any, unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str | None
    ) -> tuple[str, EndStatus | None]:
        from evaluators.models import bind_episode
        from evaluators.players.agent.loop import run_episode

        context = episode_context(unit, suite, unit.episode_id, self.seed)
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
        max_steps = DEFAULT_MAX_STEPS if self.max_steps is None else self.max_steps
        return {"protocol": self.protocol.name, "max_steps": max_steps, **self.generate.model_dump()}

    def prompts(self) -> dict[str, str]:
        return self.protocol.prompts(conversational=self.conversational)

    def counters(self) -> dict[str, Any]:
        return self.prepared.counters()

    async def aclose(self) -> None:
        await self.prepared.aclose()


class QuestionPlayer(Player):
    options = ("items", "prompting", "shots")
    prompting_option = "prompting"
    plays = "a question benchmark"

    def __init__(self, config: RunConfig, spec: BenchmarkSpec) -> None:
        from evaluators.players.question import ModelAnswerer

        baseline = baseline_policy(config.model, spec)
        self.spec = spec
        self.prompting = config.options.prompting or spec.promptings[0]
        self.shots = config.options.shots or 0
        self.decoding = config.decoding
        self.prepared: PreparedModel | None = None
        self.answerer: Answerer
        if baseline is not None:
            self.answerer = baseline(spec.questions(), config.options.items, self.prompting, self.decoding.seed)
        else:
            self.prepared = prepare(config)
            self.answerer = ModelAnswerer(self.prepared.model, self.prepared.agent(), self.decoding,
                                          PriceTable.load(config.backend.prices))
        self.agent = self.answerer.agent
        self._question: dict[str, Any] = {}

    def first_task(self, suite: TaskSuite, task_id: str) -> None:
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


def episode_context(unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str, seed: int) -> EpisodeContext:
    """What the model is told of its episode (bind_episode); the gold is read harness-side, for the oracle only."""
    gold = suite.task(unit.item_id) if hasattr(suite, "task") else None
    return EpisodeContext(episode_id=episode_id, item_id=unit.item_id, epoch=unit.epoch, seed=seed, gold=gold)


def prepare(config: RunConfig, hints: ContextHints | None = None) -> PreparedModel:
    """The run's model (or agentic baseline) from its spec and options, wrapped in retries and the response cache.
    `hints`: how the player's observations may be shown and shortened by a backend with a small context."""
    backend = config.backend
    options = ModelOptions(n_gpu_layers=backend.n_gpu_layers, n_ctx=backend.n_ctx, timeout_s=backend.timeout_s,
                           seed=config.decoding.seed, hints=hints or ContextHints())
    return prepare_model(config.model, options, cache=backend.cache, cache_path=backend.cache_path)


def baseline_policy(model: str, spec: BenchmarkSpec) -> Policy | None:
    """The policy for this benchmark's episodes of the baseline `model` names, or None when it names a model; a
    baseline without one (the oracle on questions, majority on agentic tasks) is refused in one line."""
    if find_baseline(model) is None:
        return None
    try:
        return policy(model, spec.kind, spec.name)
    except NoSuchBaseline as error:
        raise RunOptionError(str(error)) from None
