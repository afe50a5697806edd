"""The baselines, one namespace (registry.py): each name registered once, with one policy per episode format —
agentic.py (tool calls: random, oracle, naive, heuristic) and questions.py (answers: random, majority).

Importing the package registers them all, and the agentic policies as model specs too (`random`, `oracle`, `naive`
and `heuristic`), so `--model heuristic` and `get_model("heuristic")` build the same player. The model registry
below knows nothing of them: whatever resolves model specs imports this package (the harness's `prepare_model`, the
commands), and until it is imported `get_model("oracle")` is an unknown provider.
"""

from __future__ import annotations

from evaluators.models.base import ModelAPI
from evaluators.models.options import ModelOptions
from evaluators.models.registry import register_backend
from evaluators.players.baselines import agentic, questions
from evaluators.players.baselines.registry import (
    Baseline,
    NoSuchBaseline,
    Policy,
    all_baselines,
    baseline_names,
    find_baseline,
    policy,
    register_baseline,
)

AGENTIC = "agentic"
"""The episode format whose policies are model specs."""


def _as_model_spec(name: str) -> None:
    """Register baseline `name`'s agentic policy as the model spec `name` (it takes no argument)."""
    entry = find_baseline(name)
    assert entry is not None

    def factory(rest: str, options: ModelOptions) -> ModelAPI:
        model: ModelAPI = entry.policies[AGENTIC](options.seed)
        return model

    register_backend(name, needs_argument=False, help=entry.helps[AGENTIC], free=True)(factory)


for _name in baseline_names(AGENTIC):
    _as_model_spec(_name)

__all__ = ["Baseline", "NoSuchBaseline", "Policy", "agentic", "all_baselines", "baseline_names", "find_baseline",
           "policy", "questions", "register_baseline"]
