"""The ShoppingBench paper's per-step reward for GRPO: a format reward plus a tool reward (Qian et al. 2025, ToolRL).

The paper (§4, "GRPO with the tool reward") gives the parts but not the formula; ToolRL, which it cites, defines them:
- format: 1 when the turn is written as asked (`<think>…</think>` then a parsable `<tool_call>` block; a structured
  action with a tool name and an arguments object), else 0;
- correctness, in [-3, 3]: the predicted calls P against the reference calls G of the same turn,
  r_name  = |names(G) ∩ names(P)| / |names(G) ∪ names(P)|,
  r_param = Σ over matched pairs |keys(g) ∩ keys(p)| / |keys(g) ∪ keys(p)|,
  r_value = Σ over matched pairs Σ over keys k of g: [g[k] == p[k]],
  R = max over one-to-one matchings of (r_name + r_param + r_value), S_max = 1 + |G| + Σ_g |keys(g)|,
  correctness = 6 · R / S_max − 3.
The step reward is format + correctness, in [-3, 4]. It is a training signal only: nothing of the reference is shown
to the policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Any

from benchmarks.shoppingbench.schema import ShoppingTask

Call = tuple[str, dict[str, Any]]
MAX_EXACT_MATCHING = 6
"""Up to this many calls a turn, the best matching is found exhaustively; beyond, greedily in order."""


@dataclass(frozen=True)
class ToolReward:
    format: float
    correctness: float

    @property
    def total(self) -> float:
        return self.format + self.correctness


def oracle_reference(task: ShoppingTask) -> list[Call]:
    """The reference trajectory used when none is given: the moves of the `oracle` baseline (search the first
    target's title, view the targets, recommend them in order, terminate)."""
    ids = ",".join(target.product_id for target in task.targets)
    return [
        ("find_product", {"q": task.targets[0].title[0], "page": 1}),
        ("view_product_information", {"product_ids": ids}),
        ("recommend_product", {"product_ids": ids}),
        ("terminate", {"status": "success"}),
    ]


def correctness(predicted: list[Call], reference: list[Call]) -> float:
    """ToolRL's correctness reward of one turn, in [-3, 3]."""
    if not reference and not predicted:
        return 3.0
    names_g = {name for name, _ in reference}
    names_p = {name for name, _ in predicted}
    union = names_g | names_p
    r_name = len(names_g & names_p) / len(union) if union else 1.0
    s_max = 1 + len(reference) + sum(len(arguments) for _, arguments in reference)
    best = r_name + _best_matching(predicted, reference)
    return 6.0 * min(best, s_max) / s_max - 3.0


def _pair_score(predicted: Call, reference: Call) -> float:
    (name_p, args_p), (name_g, args_g) = predicted, reference
    if name_p != name_g:
        return 0.0
    keys_g, keys_p = set(args_g), set(args_p)
    union = keys_g | keys_p
    r_param = len(keys_g & keys_p) / len(union) if union else 1.0
    r_value = sum(1 for key in keys_g if key in args_p and args_p[key] == args_g[key])
    return r_param + r_value


def _best_matching(predicted: list[Call], reference: list[Call]) -> float:
    if not predicted or not reference:
        return 0.0
    if max(len(predicted), len(reference)) > MAX_EXACT_MATCHING:
        return sum(_pair_score(p, g) for p, g in zip(predicted, reference, strict=False))
    small, large, flipped = (predicted, reference, False) if len(predicted) <= len(reference) else (
        reference, predicted, True)
    best = 0.0
    for chosen in permutations(range(len(large)), len(small)):
        total = sum(_pair_score(*((large[j], small[i]) if flipped else (small[i], large[j])))
                    for i, j in enumerate(chosen))
        best = max(best, total)
    return best


def step_reward(predicted: list[Call], reference: list[Call], *, well_formed: bool) -> ToolReward:
    """Format + correctness of one turn against the reference turn."""
    return ToolReward(format=1.0 if well_formed else 0.0, correctness=correctness(predicted, reference))
