"""ShoppingBench as a Gymnasium environment: one episode per `reset`, one model turn per `step`.

The environment plays through `mcp_server.episodes.Episode`, the one writer of trajectories, in process (no MCP
round trip: an RL rollout makes thousands of steps), so every episode lands in a shopbench run folder exactly as a
model run, an MCP client or a human would leave it, and `shopbench score RUN` scores it the same way.

Observation (a Dict of texts): `instruction` (the user's request), `tools` (the tool list as JSON: name,
description, JSON-Schema parameters, as MCP clients see them) and `observation` (the last tool output as JSON text,
or the error/feedback text; "" after reset).

Action: one model turn. Either the raw model text in the paper's format (`<think>…</think><tool_call>[{"name": …,
"parameters": {…}}]</tool_call>`, parsed by evaluators.players.agent.paper_format; several calls in one block run in
order), or a structured call `{"name": str, "arguments": dict}` (also a `(name, arguments)` pair). A turn that holds no
runnable call is an observation, never an exception: it is recorded as a malformed step (`Episode.record_malformed`)
and the policy reads the feedback.

Reward: at the end of the episode, the outcome scored as `shopbench score` scores it (success 1/0, or the rule score
with `outcome="rule"`); with `tool_reward=True`, every step also earns the paper's GRPO reward (format + ToolRL
tool-call match against a reference trajectory: evaluators.integrations.gym.rewards). `terminated` is True when the
agent calls `terminate`; `truncated` when the step limit ends the episode. `info["episode"]` is the EpisodeStatus
(reset's info also names the episode id); at the end `info["score"]` holds success, rule and the per-field values.
"""

from __future__ import annotations

import functools
import json
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from benchmarks.shoppingbench.agent_prompts import MALFORMED_NATIVE, MALFORMED_PAPER
from benchmarks.shoppingbench.schema import INTENTS, ShoppingTask
from evaluators.integrations.export_sft import tool_schemas
from evaluators.integrations.gym.rewards import Call, oracle_reference, step_reward
from evaluators.players.agent.paper_format import parse_paper_turn
from mcp_server.environment import open_environment
from mcp_server.episodes import Episode, StepResult
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.tools import Sandbox
from mcp_server.shopping.world import World
from mcp_server.trajectory import AgentInfo, read_trajectory
from mcp_server.users import conversation_options

BENCHMARK = "shoppingbench"
"""The registered benchmark this environment plays (by name: importing its registration module directly would
register it out of the built-ins' order)."""
MAX_TEXT = 1_000_000
"""Longest text an observation or action may hold (the spaces' bound)."""
SCORE_FIELDS = ("rule", "exact_id", "title", "price", "service", "sku_attrs", "shop", "budget", "kw")

_SANDBOXES: dict[str, Sandbox] = {}
_SANDBOXES_LOCK = threading.Lock()


class AnyText(spaces.Text):
    """A Text space over all of Unicode: tool outputs hold any character. Samples are drawn from printable ASCII;
    `contains` accepts any string within the length bounds."""

    def __init__(self, max_length: int = MAX_TEXT, *, min_length: int = 0) -> None:
        super().__init__(max_length, min_length=min_length, charset="".join(chr(c) for c in range(32, 127)))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AnyText) and (self.min_length, self.max_length) == (other.min_length,
                                                                                     other.max_length)

    __hash__ = spaces.Text.__hash__


@functools.cache
def _tools_json() -> str:
    return json.dumps(tool_schemas(), ensure_ascii=False)


def tool_list() -> list[dict[str, Any]]:
    """The six sandbox tools as an agent sees them (name, description, JSON-Schema parameters); a fresh copy."""
    return json.loads(_tools_json())


def shared_sandbox(suite: ShoppingSuite) -> Sandbox:
    """The suite's sandbox, one per world and process (envs of a vector env share the Lucene index)."""
    key = str(suite.world.root.resolve())
    with _SANDBOXES_LOCK:
        if key not in _SANDBOXES:
            _SANDBOXES[key] = suite.open_sandbox()
        return _SANDBOXES[key]


class ShoppingBenchEnv(gym.Env[dict[str, str], Any]):
    """`gymnasium.make("shopbench/ShoppingBench-v0", world=..., task_set=..., intent=...)` (after
    `import evaluators.integrations.gym`). See the module docstring for spaces, actions and rewards. `user="rules"`
    (and `stated=N`) plays the task set as a conversation: the instruction is the shopper's opener and the tools
    include `ask_user`, answered by that user (as `shopbench run --user`)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        world: str | Path | World | None = None,
        task_set: str | None = None,
        intent: str | list[str] | None = None,
        *,
        task_ids: list[str] | None = None,
        runs_dir: str | Path | None = None,
        max_steps: int | None = None,
        outcome: str = "success",
        tool_reward: bool = False,
        agent_name: str = "gymnasium",
        agent_kind: str = "model",
        embedder: str | None = None,
        render_mode: str | None = None,
        user: str | None = None,
        stated: int | None = None,
    ) -> None:
        if outcome not in ("success", "rule"):
            raise ValueError(f"outcome must be 'success' or 'rule', not {outcome!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.runs_dir = Path(runs_dir) if runs_dir is not None else _default_runs_dir()
        environment = open_environment(
            [BENCHMARK], runs_dir=self.runs_dir, task_set=task_set, max_steps=max_steps,
            world=world if world is None or isinstance(world, World) else Path(world).expanduser(),
            **conversation_options(user, stated),
        )
        self.suite = cast(ShoppingSuite, environment.suites[0])
        self.world, self.sandbox = self.suite.world, shared_sandbox(self.suite)
        reason = self.suite.unavailable_reason()
        if reason:
            raise ValueError(reason)
        intents = [intent] if isinstance(intent, str) else list(intent or [])
        unknown = [name for name in intents if name not in INTENTS]
        if unknown:
            raise ValueError(f"unknown intent {', '.join(unknown)}; intents: {', '.join(INTENTS)}")
        listings = [listing for listing in self.suite.listings() if not intents or listing.intent in intents]
        if task_ids is not None:
            wanted = set(task_ids)
            listings = [listing for listing in listings if listing.task_id in wanted]
        if not listings:
            raise ValueError(f"no task in {self.suite.task_set} matches intent={intent!r} task_ids={task_ids!r}")
        self.task_ids = [listing.task_id for listing in listings]
        self._all_ids = {listing.task_id for listing in self.suite.listings()}
        self.max_steps, self.outcome, self.use_tool_reward = max_steps, outcome, tool_reward
        self.agent = AgentInfo.model_validate({"kind": agent_kind, "name": agent_name,
                                               "details": {"harness": "gymnasium"}})
        self.embedder = embedder
        self.render_mode = render_mode
        self.tools_json = _tools_json() if user is None else json.dumps(tool_schemas(self.suite.tools),
                                                                         ensure_ascii=False)
        self.observation_space = cast(
            "spaces.Space[dict[str, str]]",
            spaces.Dict({"instruction": AnyText(), "tools": AnyText(), "observation": AnyText()}),
        )
        self.action_space = AnyText(min_length=1)
        self.episode: Episode | None = None
        self.task: ShoppingTask | None = None
        self.reference: list[Call] = []
        self._last = ""
        self._resets = 0

    # ---- the Gymnasium API ------------------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        """Start an episode: `options={"task_id": ...}` picks the task (else one drawn with the env's RNG),
        `"epoch"` numbers it, `"episode_id"` names it, `"reference"` ([{"name", "arguments"}, …]) is the trajectory
        the tool reward compares against (default: the oracle's moves)."""
        super().reset(seed=seed)
        options = dict(options or {})
        if self.episode is not None and not self.episode.over:
            self.episode.abandon("the environment was reset")
        task_id = options.get("task_id")
        if task_id is None:
            task_id = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        elif task_id not in self._all_ids:
            raise ValueError(f"no task {task_id!r} in task set {self.suite.task_set}")
        self.task = self.suite.task(task_id)
        self.episode = Episode(
            self.runs_dir, self.suite, task_id, agent=self.agent, sandbox=self.sandbox,
            episode_id=options.get("episode_id"), epoch=int(options.get("epoch", 0)), max_steps=self.max_steps,
            world=f"{self.world.info.name}@{self.world.info.content_hash}",
            world_info={**self.world.info.model_dump(mode="json"), "path": str(self.world.root.resolve())},
        )
        reference = options.get("reference")
        self.reference = (
            [(call["name"], dict(call.get("arguments", call.get("parameters", {})))) for call in reference]
            if reference is not None else oracle_reference(self.task)
        )
        self._resets += 1
        self._last = ""
        return self._obs(""), self._info(first=True, tools=json.loads(self.tools_json))

    def step(self, action: Any) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        if self.episode is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        episode = self.episode
        index = episode.steps
        calls, problem, thought, raw = _read_action(action)
        results: list[tuple[str, StepResult]] = []
        if problem is not None:
            feedback = (MALFORMED_PAPER if isinstance(action, str) else MALFORMED_NATIVE).format(problem=problem)
            tool = calls[0][0] if calls else None
            results.append((tool or "", episode.record_malformed(raw, problem, feedback, tool=tool, thought=thought)))
        else:
            for number, (name, arguments) in enumerate(calls):
                if episode.over:
                    break
                results.append((name, episode.call(name, arguments, thought=thought if number == 0 else None)))
        observation = _observation_text(results)
        self._last = observation
        reward = 0.0
        if self.use_tool_reward:
            reference = [self.reference[index]] if index < len(self.reference) else []
            well_formed = problem is None and (not isinstance(action, str) or "<think>" in action)
            reward += step_reward(calls if problem is None else [], reference, well_formed=well_formed).total
        status = episode.status
        info = self._info(is_error=any(result.is_error for _, result in results))
        terminated = truncated = False
        if status.state == "ended":
            terminated = status.end_reason != "step_limit"
            truncated = not terminated
            score = self.score()
            info["score"] = score
            reward += score["success"] if self.outcome == "success" else score["rule"]
        return self._obs(observation), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        if self.episode is None:
            return "[no episode]"
        status = self.episode.status
        return f"[{status.episode_id} {status.state} {status.steps_used}/{status.max_steps}]\n{self._last}"

    def close(self) -> None:
        if self.episode is not None and not self.episode.over:
            self.episode.abandon("the environment was closed")
        super().close()

    # ---- scoring ------------------------------------------------------------------------------------------------

    def score(self) -> dict[str, Any]:
        """The ended episode scored as `shopbench score` scores it: the last recommend_product of the recorded
        trajectory against the task, in this world (success, rule and the per-field values; None where a field
        does not apply to the intent)."""
        from evaluators.results.shoppingbench.scorer import last_recommendation, score_many

        assert self.episode is not None and self.task is not None and self.episode.over
        trajectory = read_trajectory(self.episode.path)
        [score] = score_many(
            [(self.task, last_recommendation(trajectory), self.episode.episode_id, trajectory.start.epoch)],
            self.world.products, self.embedder,
        )
        return {"success": float(score.success), **{name: getattr(score, name) for name in SCORE_FIELDS},
                "failure": score.failure, "explanation": score.explanation}

    # ---- helpers ------------------------------------------------------------------------------------------------

    def _obs(self, observation: str) -> dict[str, str]:
        assert self.episode is not None
        return {"instruction": self.episode.instruction, "tools": self.tools_json, "observation": observation}

    def _info(self, *, first: bool = False, **extra: Any) -> dict[str, Any]:
        """reset: the episode id and status; step: the status without the id (so the same seed and actions give
        equal infos, as Gymnasium's checker asks; the id is in reset's info and `env.unwrapped.episode`)."""
        assert self.episode is not None and self.task is not None
        status = self.episode.status.model_dump(mode="json", exclude=None if first else {"episode_id"})
        ids = {"episode_id": self.episode.episode_id} if first else {}
        return {"episode": status, **ids, "task_id": self.task.task_id, "intent": self.task.intent, **extra}


def _read_action(action: Any) -> tuple[list[Call], str | None, str | None, str]:
    """(calls, problem, thought, raw text) of one action; `problem` is set when the turn cannot be run."""
    if isinstance(action, str):
        parsed = parse_paper_turn(action)
        errors = [call for call in parsed.calls if call.parse_error]
        calls = [(call.name, dict(call.arguments)) for call in parsed.calls if not call.parse_error]
        if errors:
            named: list[tuple[str, dict[str, Any]]] = [(call.name, {}) for call in errors if call.name]
            return named, errors[0].parse_error, parsed.thought, action
        return calls, None, parsed.thought, action
    if isinstance(action, tuple | list) and len(action) == 2:
        action = {"name": action[0], "arguments": action[1]}
    raw = _raw(action)
    if not isinstance(action, dict):
        return [], f"an action is the model's text or {{'name', 'arguments'}}, not {type(action).__name__}", None, raw
    name, arguments = action.get("name"), action.get("arguments", action.get("parameters", {}))
    thought = action.get("thought") if isinstance(action.get("thought"), str) else None
    if not isinstance(name, str) or not name:
        return [], 'the call needs a "name" string', thought, raw
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return [(name, {})], '"arguments" must be a JSON object', thought, raw
    return [(name, arguments)], None, thought, raw


def _raw(action: Any) -> str:
    try:
        return json.dumps(action, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        return repr(action)


def _observation_text(results: list[tuple[str, StepResult]]) -> str:
    """One call: its output as the text an MCP text client reads. Several: the paper's list of results."""
    texts = [_as_text(result.observation) for _, result in results]
    if len(results) == 1:
        return texts[0]
    return json.dumps([{"name": name, "content": result.observation} for name, result in results],
                      ensure_ascii=False, default=str)


def _as_text(observation: Any) -> str:
    return observation if isinstance(observation, str) else json.dumps(observation, ensure_ascii=False)


def _default_runs_dir() -> Path:
    suffix = f"{int(np.random.default_rng().integers(1 << 16)):04x}"
    return Path("runs") / f"gym-shoppingbench-{datetime.now():%Y%m%d-%H%M%S}-{suffix}"
