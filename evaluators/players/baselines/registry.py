"""One namespace for the baselines: each name is registered once, with one policy per episode format.

A baseline plays without a model. A name means one thing in each format it has a policy for: `random` is a seeded
random policy everywhere — random searches and recommendations in an agentic episode, a uniformly random answer to
a question. A name has no policy for a format it cannot play (the oracle plays agentic episodes only, majority
answers questions only), and asking for it there is a one-line error naming the baselines that format has.

The format is the benchmark's kind (benchmarks.registry), used here as a key only. A policy is a factory:
- "agentic": `(seed) -> ModelAPI`, a model that acts through the tools and is told its episode (EpisodeBound);
  these are also model specs (`--model heuristic`, `get_model("heuristic")`): the package registers them with the
  model registry;
- "qa": `(questions, items, prompting, seed) -> Answerer` (evaluators.players.question).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchmarks.errors import BadInput

Policy = Callable[..., Any]
P = TypeVar("P", bound=Policy)

PLAYS = {"agentic": "plays agentic benchmarks", "qa": "answers question benchmarks"}
"""How an error says what a baseline of each format does."""


@dataclass
class Baseline:
    name: str
    policies: dict[str, Policy] = field(default_factory=dict)
    """Episode format (a benchmark kind) → the policy's factory."""
    helps: dict[str, str] = field(default_factory=dict)
    """Episode format → one line saying what the policy does."""

    @property
    def help(self) -> str:
        return "; ".join(self.helps.values())


class NoSuchBaseline(BadInput):
    """The baseline has no policy for this benchmark's episode format."""


_BASELINES: dict[str, Baseline] = {}


def register_baseline(name: str, *, kind: str, help: str) -> Callable[[P], P]:
    """Register `name`'s policy for episode format `kind` (a name gets one policy per format)."""

    def decorate(factory: P) -> P:
        entry = _BASELINES.setdefault(name, Baseline(name))
        if kind in entry.policies:
            raise ValueError(f"baseline {name!r} already has a policy for {kind!r} episodes")
        entry.policies[kind] = factory
        entry.helps[kind] = help
        return factory

    return decorate


def find_baseline(name: str) -> Baseline | None:
    """The baseline registered as `name`, or None (the name is a model spec)."""
    return _BASELINES.get(name)


def all_baselines() -> list[Baseline]:
    """Every registered baseline, in registration order."""
    return list(_BASELINES.values())


def baseline_names(kind: str) -> list[str]:
    """The baselines with a policy for episode format `kind`, in registration order."""
    return [name for name, entry in _BASELINES.items() if kind in entry.policies]


def policy(name: str, kind: str, benchmark: str) -> Policy:
    """`name`'s policy for `kind` episodes; a baseline without one is refused naming those `benchmark` has."""
    entry = _BASELINES[name]
    if kind not in entry.policies:
        plays = " and ".join(PLAYS.get(other, f"plays {other} benchmarks") for other in entry.policies)
        names = baseline_names(kind)
        listed = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names) or "no"
        raise NoSuchBaseline(f"{name} {plays} only; {benchmark} has the {listed} baselines")
    return entry.policies[kind]
