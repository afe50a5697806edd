"""What `shopbench run` takes, grouped by the part of the run that reads it, and the check that every option given
applies to the chosen benchmark.

`RunConfig(benchmark=..., model=..., limit=2, world=...)` takes the options by their flat names (the CLI's and the
tests' way of writing them) and files each in its group: which tasks (`selection`), what the environment serves and
the player is told (`options`: each applies to the benchmarks whose player takes it), decoding (`decoding`), the
backend (`backend`) and where and how episodes are played (`execution`). The player part of a benchmark
(evaluators.parts) says which of `options` it takes; evaluators.harness.player_choice.check_options refuses the
others in one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from evaluators.players.question import Decoding
from mcp_server.users import conversation_options


class RunOptionError(ValueError):
    """An option that does not apply to the chosen benchmark, or a player it cannot have."""


@dataclass
class Selection:
    """Which tasks are played, how often, and which share of them this process plays."""

    limit: int | None = None
    """At most N tasks per task group (ShoppingBench: per intent; question benchmarks: per task)."""
    intents: tuple[str, ...] | None = None
    """Only these task groups (ShoppingBench intents, or question task names)."""
    task_ids: list[str] | None = None
    epochs: int = 1
    shard: str | None = None


@dataclass
class BenchmarkOptions:
    """Options that apply to some benchmarks only (None: not given); the benchmark's player names those it takes."""

    world: Path | None = None
    task_set: str | None = None
    protocol: str | None = None
    """The agent's chat protocol (one of an agentic benchmark's promptings)."""
    max_steps: int | None = None
    """None: the environment's default step limit (mcp_server.protocol.DEFAULT_MAX_STEPS)."""
    items: Path | None = None
    prompting: str | None = None
    shots: int | None = None
    user: str | None = None
    """Who answers `ask_user` (`--user rules`): the task set played as a conversation; None, as it is."""
    stated: int | None = None
    """A conversation's opener states this many constraints (None: 1)."""


OPTION_FLAGS = {"world": "--world", "task_set": "--tasks", "protocol": "--protocol", "max_steps": "--max-steps",
                "items": "--items", "prompting": "--prompting", "shots": "--shots", "user": "--user",
                "stated": "--stated"}
"""BenchmarkOptions field → the flag that sets it."""


@dataclass
class Backend:
    """How the model backend is built and wrapped."""

    n_gpu_layers: int = 0
    n_ctx: int = 8192
    timeout_s: float = 120.0
    cache: bool = True
    cache_path: Path | None = None
    prices: Path | None = None


@dataclass
class Execution:
    """Where episodes are played and recorded, and how many at once."""

    concurrency: int = 1
    out: Path | None = None
    resume: bool = False
    server_url: str | None = None
    """A running `shopbench serve` to play against (None: a server in this process)."""
    server_token: str | None = None
    agent: str | None = None
    """An installed agent plays the episodes (`--agent`: evaluators.players.installed), else the benchmark's player."""
    agent_bin: Path | None = None
    """The agent's executable (default: its pinned npm package, installed on first use)."""
    episode_timeout_s: float | None = None
    """Installed agents: each episode's wall-clock limit (None: evaluators.harness.installed.DEFAULT_TIMEOUT_S)."""
    executor: str = "local"
    """Where episodes are played: "local" (this process, or --server) or "ray" (workers on a Ray cluster)."""
    address: str | None = None
    """The Ray cluster to join (None: RAY_ADDRESS, else a Ray instance started for the run)."""
    extra_notes: dict[str, Any] = field(default_factory=dict)


GROUPS: dict[str, type] = {"selection": Selection, "options": BenchmarkOptions, "decoding": Decoding,
                           "backend": Backend, "execution": Execution}


@dataclass(init=False)
class RunConfig:
    """Everything `shopbench run` takes, by group. Decoding fields left None take the player's defaults (agentic:
    temperature 0 and 1024 tokens; questions: the reference's)."""

    benchmark: str
    model: str
    """The model spec or baseline name (evaluators.harness.players reads it)."""
    selection: Selection
    options: BenchmarkOptions
    decoding: Decoding
    backend: Backend
    execution: Execution

    def __init__(self, benchmark: str, model: str, **flat: Any) -> None:
        """Each keyword goes to the group with a field of its name (`limit` → selection.limit); an unknown one is a
        TypeError, as for any function."""
        self.benchmark, self.model = benchmark, model
        left = dict(flat)
        for attribute, group in GROUPS.items():
            names = {f.name for f in fields(group)}
            setattr(self, attribute, group(**{name: left.pop(name) for name in list(left) if name in names}))
        if left:
            raise TypeError(f"RunConfig got unknown option(s): {', '.join(sorted(left))}")


EXECUTORS = ("local", "ray")


def check_execution(execution: Execution) -> None:
    """Refuse an executor we do not have, and options that mean nothing for the chosen one."""
    if execution.executor not in EXECUTORS:
        raise RunOptionError(f"--executor takes {' or '.join(EXECUTORS)}; not {execution.executor!r}")
    if execution.executor == "ray" and execution.server_url:
        raise RunOptionError("--server does not apply to --executor ray (each Ray worker plays on a server of its own)")
    if execution.executor == "ray" and execution.agent:
        raise RunOptionError("--agent does not apply to --executor ray (an installed agent is served by the run's own "
                             "process)")
    if execution.executor != "ray" and execution.address:
        raise RunOptionError("--address names a Ray cluster: it needs --executor ray")


def environment_options(config: RunConfig) -> dict[str, Any]:
    """open_environment's keywords for this run, but the world and the run folder: the same for the run's own process
    and for each Ray worker (evaluators.harness.ray_worker), so both serve the same tasks the same way."""
    options = config.options
    return {"task_set": options.task_set, "items": options.items, "prompting": options.prompting,
            "shots": options.shots or 0, "seed": config.decoding.seed, "max_steps": options.max_steps,
            **conversation_options(options.user, options.stated)}
