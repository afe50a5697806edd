"""`shopbench run BENCHMARK --agent NAME`: installed agents (evaluators.players.installed) as a run's player.

The run opens its environment once, as for model runs; this player serves it to the agents over streamable HTTP on
a loopback port of this process (so the run's one server writes every trajectory into the run folder) and puts the
run's model behind the model bridge on another. Per episode:

1. the episode is started before the agent runs (mcp_server.task_tools.reserve_episode) and served at an address
   of its own: the agent's first tool call is already inside it, and a start_task gives it back;
2. this process lists the tools at that address itself: the agent starts only once they answer (the address lists
   the episode's own tools only, and its `initialize` gives the benchmark's instructions: mcp_server.server);
3. the agent runs in a fresh, empty, private working directory and config home (evaluators.players.installed.
   private), its config naming only that address and its bridge endpoint with their per-episode credentials
   (nothing of the world, no API key), its prompt opening with the benchmark's instructions
   (TaskSuite.agent_instructions), until it exits, its `--timeout` runs out, or its episode has been over for
   END_GRACE_S (sooner once it has finished: evaluators.players.installed.settle); then every process it started is
   ended (evaluators.players.installed.reaper, which also ends, before the run's first agent, what a killed run
   left), and the sessions it opened on its address are closed;
4. the episode is ended with a reason if the agent left it running (timeout, agent_exited), and its transcript is
   kept beside the trajectory (`episodes/<episode_id>.agent/`).

An agent that never had shopbench's tools — no model request of it offered them and it made no tool call, or its
model failed — did not play: its episode is a harness error (AgentHarnessError), its files are moved aside
(`episodes.partial/`) and `--resume` plays it again; it is never scored as the agent's failure. Each step's usage
is what the bridge counted for the model calls since the step before (attributed when the tool call arrives).

Behind the agent thinks the run's model, or a scripted baseline: an agentic one as a model spec, a question one
(`random`, `majority`) as AnswersQuestion, which answers each question offline. The run's agent is then a baseline
(its recorded kind), named `<agent> · <model>` wherever it is shown (evaluators.results.run_names).
"""

from __future__ import annotations

import asyncio
import collections
import secrets
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.qa import QuestionPrompt
from benchmarks.registry import BenchmarkSpec
from evaluators.bridge import BridgeEpisode, EpisodeLedger, ModelBridge
from evaluators.harness.backend import PreparedModel, is_baseline
from evaluators.harness.config import RunConfig, RunOptionError
from evaluators.harness.orchestrate import WorkUnit, failure_cause, set_aside, transcript_dir
from evaluators.harness.players import Player, baseline_policy, episode_context, prepare
from evaluators.models import GenerateConfig, ModelAPI, ToolSpec, bind_episode
from evaluators.models.base import ChatMessage, ModelOutput, WrappedModel
from evaluators.models.registry import split_spec
from evaluators.parts import parts_for
from evaluators.players.baselines import find_baseline
from evaluators.players.installed import AgentSetupError, get_adapter
from evaluators.players.installed.adapter import EpisodeSetup
from evaluators.players.installed.install import find_executable
from evaluators.players.installed.private import HiddenFolder, episode_folders, private_parent
from evaluators.players.installed.reaper import end_leftovers
from evaluators.players.installed.runner import (
    agent_prompt,
    prompt_templates,
    run_episode_agent,
    write_summary,
)
from evaluators.players.installed.scripted import AnswersQuestion, EpisodeRecordView
from evaluators.players.installed.settle import CallsInFlight, Finished
from evaluators.players.pricing import PriceTable
from evaluators.players.question import Answerer
from evaluators.players.sessions import http_session
from mcp_server.episode_keys import episode_key
from mcp_server.episode_sessions import session_cap
from mcp_server.http_limits import HttpLimits
from mcp_server.protocol import DEFAULT_MAX_STEPS
from mcp_server.suites import TaskListing, TaskSuite
from mcp_server.task_tools import Reservation, release_episode, reserve_episode
from mcp_server.trajectory import AgentInfo, AgentKind, EndStatus, Usage
from mcp_server.transports import episode_url, serve_reserved_episodes

if TYPE_CHECKING:
    from mcp_server.environment import Environment
    from mcp_server.server import ShopbenchServer

DEFAULT_TIMEOUT_S = 900.0
"""An episode's wall-clock limit when `--timeout` is not given."""
END_GRACE_S = 10.0
"""How long an agent may go on after its episode ended (its closing message) before it is ended; one that has
finished (evaluators.players.installed.settle) is ended sooner."""
READY_TIMEOUT_S = 30.0


class AgentHarnessError(RuntimeError):
    """The agent did not get to play its episode (see the module docstring); `--resume` plays it again."""


class InstalledAgentPlayer(Player):
    """Plays each episode with an installed agent; chosen by `run --agent` for any benchmark."""

    plays = "an installed agent"
    files_per_episode = 16
    """The agent's output pipes, its sessions' and model calls' sockets, the trajectory: 10 were open per episode
    in flight (a `command:` agent, 8 at a time), and room for an agent that opens more connections."""

    @classmethod
    def options_for(cls, spec: BenchmarkSpec) -> tuple[str, ...]:
        """The benchmark's own player's options, but the agent loop's chat protocol (the agent has its own)."""
        own: tuple[str, ...] = parts_for(spec).load("player").options_for(spec)
        return tuple(option for option in own if option != "protocol")

    def __init__(self, config: RunConfig, spec: BenchmarkSpec) -> None:
        execution = config.execution
        if execution.server_url is not None:
            raise RunOptionError("--agent plays against this run's own server (it starts each episode for its agent):"
                                 " drop --server")
        self.answerer: Answerer | None = None
        """A question benchmark's baseline (`random`, `majority`), which answers behind the agent (AnswersQuestion)."""
        if find_baseline(config.model) is not None and not parts_for(spec).load("player").baselines_are_models:
            answers = baseline_policy(config.model, spec)  # a baseline without a policy for the benchmark: refused
            assert answers is not None
            self.answerer = answers(spec.questions(), config.options.items,
                                    config.options.prompting or spec.promptings[0], config.decoding.seed)
        try:
            self.adapter = get_adapter(execution.agent or "")
            self.executable = find_executable(self.adapter, execution.agent_bin)
            private_parent()  # refused now, in one line, rather than at each episode
            version = self.adapter.version(self.executable or Path())
        except AgentSetupError as error:
            raise RunOptionError(str(error)) from None
        self.spec, self.model_spec = spec, config.model
        self.max_steps = config.options.max_steps
        self.timeout_s = execution.episode_timeout_s or DEFAULT_TIMEOUT_S
        self.concurrency = execution.concurrency
        decoding = config.decoding
        given = (decoding.temperature, decoding.max_tokens, decoding.top_p)
        self.generate = None if given == (None, None, None) else GenerateConfig(
            temperature=decoding.temperature or 0.0, max_tokens=decoding.max_tokens or 1024, top_p=decoding.top_p,
            seed=decoding.seed)
        """The run's decoding parameters, used instead of the agent's own when any was given."""
        self.seed = decoding.seed
        self.prices = PriceTable.load(config.backend.prices)
        self.prepared: PreparedModel | None = None
        if self.answerer is not None:
            identity = dict(self.answerer.agent.details)
        else:
            self.prepared = prepare(config)
            identity = self.prepared.base.identity()
        # Its kind says what thinks behind it: a scripted baseline makes the run a baseline's (run_names.run_kind).
        kind = AgentKind.baseline if find_baseline(config.model) is not None else AgentKind.mcp_client
        self.agent = AgentInfo(kind=kind, name=self.adapter.name, details={
            "version": version, "model": config.model, "adapter": type(self.adapter).__name__,
            "flags": self.adapter.flags(), **self.adapter.agent_details(self.executable), "model_identity": identity})
        self.instructions = ""
        """The benchmark's agent instructions (its suite's), noted at the first task for the manifest."""
        self._server: ShopbenchServer | None = None
        self._bridge: ModelBridge | None = None
        self._base_url = ""

    @asynccontextmanager
    async def serving(self, environment: Environment) -> AsyncIterator[None]:
        """The episodes' addresses and the model bridge, for the whole run."""
        await asyncio.to_thread(end_leftovers)
        server = environment.server
        limits = self.http_limits()
        async with (serve_reserved_episodes(server, limits) as base_url,
                    ModelBridge(key=secrets.token_urlsafe(24), prices=self.prices,
                                server_tools=frozenset(server.declared_tools)) as bridge):
            self._server, self._bridge, self._base_url = server, bridge, base_url
            try:
                yield
            finally:
                self._server, self._bridge = None, None

    def http_limits(self) -> HttpLimits:
        """The per-run server's limits: sessions for the run's concurrency (each episode's are closed when it ends:
        mcp_server.episode_sessions), kept open while idle as long as an agent may take."""
        return HttpLimits(max_sessions=session_cap(self.concurrency), session_idle_timeout_s=self.timeout_s + 60.0)

    async def play(
        self, session: Any, unit: WorkUnit[TaskListing], suite: TaskSuite, episode_id: str | None
    ) -> tuple[str, EndStatus | None]:
        if self._server is None or self._bridge is None:
            raise RuntimeError("InstalledAgentPlayer.play outside serving()")
        server, bridge = self._server, self._bridge
        steps = StepUsage()
        reservation = await reserve_episode(server.state, unit.item_id, agent=self.agent, episode_id=episode_id,
                                            epoch=unit.epoch, benchmark=suite.benchmark, usage=steps.take)
        run_dir, played_id = server.state.runs_dir, reservation.started.episode_id
        transcript = transcript_dir(run_dir, played_id)
        shutil.rmtree(transcript, ignore_errors=True)  # a stray one, from an attempt that left no episode
        hidden = HiddenFolder(self._episode_model(unit, suite, reservation))
        model = ToolsSeen(hidden)
        calls = CallsInFlight(model)
        endpoint = bridge.open_episode(calls, config=self.generate, tools=frozenset(reservation.started.tools),
                                       key=secrets.token_urlsafe(24))
        steps.ledger = endpoint.ledger
        url, mcp_key = episode_url(self._base_url, reservation.token), episode_key(reservation.token)
        try:
            try:
                await check_ready(url, reservation.started.tools, mcp_key)
            except AgentHarnessError as error:
                raise await self._harness_error(reservation, str(error)) from None
            with episode_folders(played_id) as folders:
                hidden.hide(folders)
                setup = EpisodeSetup(workdir=folders.workdir, home=folders.home, mcp_url=url,
                                     base_url=endpoint.base_url, openai_base_url=endpoint.openai_base_url,
                                     api_key=endpoint.key or "", model=agent_model_name(self.model_spec),
                                     prompt=agent_prompt(reservation.started, suite.agent_instructions),
                                     mcp_key=mcp_key)
                ended, reported = await run_episode_agent(
                    self.adapter, self.executable, setup, transcript, timeout_s=self.timeout_s, grace_s=END_GRACE_S,
                    episode_over=lambda: reservation.episode.over, finished=Finished(calls))
        except BaseException:
            # Whatever stopped the harness here (a bug, Ctrl-C), the episode does not stay open: --resume plays it.
            release_episode(server.state, reservation, "abandoned", "the harness stopped before the agent ended")
            raise
        finally:
            endpoint.close()
        episode = reservation.episode
        problem = None if episode.over else harness_problem(model, endpoint, episode.steps, transcript)
        if problem is not None:
            write_summary(transcript, ended, reported, bridge=ledger_summary(endpoint, steps), end=None)
            raise await self._harness_error(reservation, problem)
        if ended.reason == "timeout":
            release_episode(server.state, reservation, "timeout", f"the agent's {self.timeout_s:g} s ran out")
        else:
            release_episode(server.state, reservation, "agent_exited",
                            f"the agent exited (code {ended.returncode}) without ending the episode")
        write_summary(transcript, ended, reported, bridge=ledger_summary(endpoint, steps),
                      end=episode.end.model_dump(mode="json") if episode.end else None)
        return played_id, episode.end.status if episode.end else None

    async def _harness_error(self, reservation: Reservation, problem: str) -> AgentHarnessError:
        """End the episode as the harness's error and move its files out of the run, so nothing of it is scored and
        `--resume` plays it again; the error to raise."""
        assert self._server is not None
        release_episode(self._server.state, reservation, "error", problem)
        await asyncio.to_thread(set_aside, self._server.state.runs_dir, reservation.started.episode_id)
        return AgentHarnessError(problem)

    def _episode_model(self, unit: WorkUnit[TaskListing], suite: TaskSuite, reservation: Reservation) -> ModelAPI:
        """The run's model bound to this episode; a scripted baseline reads the episode's own record (the live
        episode's steps), a question baseline answers the episode's question."""
        started = reservation.started
        if self.answerer is not None:
            return AnswersQuestion(self.answerer, reservation.episode, started.task_id,
                                   QuestionPrompt.model_validate(started.question or {}), unit.epoch)
        assert self.prepared is not None
        context = episode_context(unit, suite, started.episode_id, self.seed)
        model = bind_episode(self.prepared.model, context)
        if is_baseline(self.prepared.base):
            return EpisodeRecordView(model, reservation.episode)
        return model

    def parameters(self) -> dict[str, Any]:
        steps = {"max_steps": self.max_steps or DEFAULT_MAX_STEPS} if "max_steps" in self.options_for(self.spec) \
            else {}
        return {"agent": self.adapter.name, "agent_version": self.agent.details["version"],
                "agent_flags": self.adapter.flags(), "model": self.model_spec, "timeout_s": self.timeout_s, **steps,
                "decoding": self.generate.model_dump() if self.generate else "the agent's own"}

    def first_task(self, suite: TaskSuite, task_id: str) -> None:
        self.instructions = suite.agent_instructions

    def prompts(self) -> dict[str, str]:
        return prompt_templates(self.instructions)

    def counters(self) -> dict[str, Any]:
        return self.prepared.counters() if self.prepared is not None else {}

    async def aclose(self) -> None:
        if self.answerer is not None:
            await self.answerer.aclose()
        if self.prepared is not None:
            await self.prepared.aclose()


class ToolsSeen(WrappedModel):
    """Notes whether any request of the episode offered the model shopbench's tools (the bridge shows the model its
    episode's tools only, so any tool at all)."""

    offered = False

    async def generate(self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None,
                       config: GenerateConfig | None = None) -> ModelOutput:
        self.offered = self.offered or bool(tools)
        return await self.inner.generate(messages, tools, config)


class StepUsage:
    """Each step's usage: the bridge's count of the model calls made since the step before."""

    def __init__(self) -> None:
        self.ledger: EpisodeLedger | None = None
        self.taken = 0

    def take(self) -> Usage | None:
        if self.ledger is None:
            return None
        step = self.ledger.since(self.taken)
        self.taken += len(step.calls)
        if all(call.error is not None for call in step.calls):
            return None
        # A failed call counts no tokens and no latency (and its cost is left out by the ledger).
        return Usage(input_tokens=step.input_tokens, output_tokens=step.output_tokens,
                     latency_s=round(sum(call.latency_s for call in step.calls), 4), cost_usd=step.cost_usd)


async def check_ready(url: str, tools: list[str], key: str) -> None:
    """List the tools at the episode's address as the agent will: it starts only once they are there."""
    try:
        async with asyncio.timeout(READY_TIMEOUT_S), http_session(url, key) as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
    except Exception as error:  # noqa: BLE001 - any failure to answer is the one reason not to start the agent
        raise AgentHarnessError(f"the MCP server did not list its tools at the agent's address "
                                f"({failure_cause(error)})") from None
    missing = sorted(set(tools) - listed)
    if missing:
        raise AgentHarnessError(f"the MCP server's tool list lacks {', '.join(missing)}")


def harness_problem(model: ToolsSeen, endpoint: BridgeEpisode, steps: int, transcript: Path) -> str | None:
    """Why an agent that left its episode running did not get to play it, or None when it did (and failed)."""
    calls = endpoint.ledger.calls
    if calls and calls[-1].error is not None:
        return f"the model failed behind the agent: {calls[-1].error}"
    if steps == 0 and not model.offered:
        with open(transcript / "stderr.log", encoding="utf-8", errors="replace") as lines:  # read as a stream
            last = collections.deque((line.strip()[:300] for line in lines if line.strip()), maxlen=1)
        said = f"; it said: {last[0]}" if last else ""
        return f"the agent never had shopbench's tools (no tool call, no model request offering them){said}"
    return None


def ledger_summary(endpoint: BridgeEpisode, steps: StepUsage) -> dict[str, Any]:
    """What the bridge counted for the episode, and what no step took (the calls after the last one)."""
    ledger = endpoint.ledger
    after = ledger.since(steps.taken)
    return {"calls": len(ledger.calls), "input_tokens": ledger.input_tokens, "output_tokens": ledger.output_tokens,
            "cost_usd": ledger.cost_usd, "errors": ledger.errors, "hidden_tools": ledger.hidden_tools,
            "after_last_step": {"calls": len(after.calls), "input_tokens": after.input_tokens,
                                "output_tokens": after.output_tokens}}


def agent_model_name(spec: str) -> str:
    """The model name an agent is told: the provider's model name for an API spec ("anthropic:claude-sonnet-4-5"
    → "claude-sonnet-4-5", so the agent applies its own settings for it), else the spec."""
    _, rest = split_spec(spec)
    return rest.rpartition("#")[2] or spec
