"""What a conversational ShoppingBench run measures beside ASR and CAR (issue 31).

A run is conversational when its manifest names a `user` (the task set was played with `ask_user`, the opener
stating only some constraints). Each scored episode is read against its user profile, recomputed here exactly as the
suite built it (`profile_of` with the manifest's `stated` and profile seed), never from anything the agent saw:
- held: the constraints the opener held back; uncovered: those some answer of the user disclosed;
- questions: the agent's ask_user steps; unanswered: the questions the user could not map to anything it holds;
- assumed: held constraints never disclosed that the recommendation breaks, each judged by the scorer's own
  per-field check of the recommended product against that one constraint (a bare target holding just it: the
  price bound, the service, the SKU option or attribute pair), or, for the shop and the budget, by the task score's
  one-shop and within-budget results.
An episode whose user made a simulator error (an LLM user contradicting its profile, or disclosing what it was not
asked) is not scored at all: it is listed apart, by episode and error, and stays out of ASR and CAR.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from benchmarks.shoppingbench.conversation.profile import Constraint, UserProfile, profile_of
from benchmarks.shoppingbench.schema import Intent, Product, ShoppingTask, Target
from evaluators.results.shoppingbench.rules import positions, rule_score
from evaluators.results.shoppingbench.task_score import TaskScore
from mcp_server.trajectory import Trajectory

ASK_USER = "ask_user"
CONVERSATION_METRICS = ("uncovered", "questions", "unanswered", "assumed")
"""The per-episode metrics of a conversational run, as reports pair and tabulate them: the share of the held
constraints uncovered (episodes holding none back have no value), questions and unanswered questions per episode,
and whether the recommendation assumed (broke a held constraint never uncovered)."""


class EpisodeConversation(BaseModel):
    """One scored episode's conversation, measured against its profile."""

    episode_id: str
    task_id: str
    intent: Intent
    epoch: int = 0
    held: list[str]
    """The keys of the constraints the opener held back."""
    uncovered: list[str]
    """Held keys some answer disclosed."""
    questions: int
    unanswered: int
    assumed: list[str]
    """Held keys never disclosed that the recommendation breaks."""

    def value(self, metric: str) -> float | None:
        """This episode's value of one of CONVERSATION_METRICS (None: uncovered share with nothing held back)."""
        if metric == "uncovered":
            return len(self.uncovered) / len(self.held) if self.held else None
        if metric == "questions":
            return float(self.questions)
        if metric == "unanswered":
            return float(self.unanswered)
        if metric == "assumed":
            return 1.0 if self.assumed else 0.0
        raise ValueError(f"no conversational metric {metric!r}; there are {', '.join(CONVERSATION_METRICS)}")


class SimulatorError(BaseModel):
    """An episode left unscored because its user broke its profile."""

    episode_id: str
    task_id: str
    error: str


class ConversationTotals(BaseModel):
    """Counts over a group of episodes (an intent, or all)."""

    group: str
    episodes: int
    held: int
    uncovered: int
    questions: int
    unanswered: int
    assumed: int
    """Episodes whose recommendation assumed."""


class ConversationResult(BaseModel):
    """Every scored episode's conversation, and the episodes reported apart."""

    user: str
    """Who answered: "rules", "model:<spec>", "person"."""
    stated: int
    parameters: dict[str, Any] = Field(default_factory=dict)
    """The manifest's user parameters (seed, temperature, guidelines hash, model id)."""
    episodes: list[EpisodeConversation] = Field(default_factory=list)
    simulator_errors: list[SimulatorError] = Field(default_factory=list)

    def totals(self, groups: Iterable[str]) -> list[ConversationTotals]:
        """Counts per intent (in the order given, those with episodes), then "all" pooled over every episode."""
        found = [_totals(group, [e for e in self.episodes if e.intent == group]) for group in groups]
        return [t for t in found if t.episodes] + [_totals("all", self.episodes)]


def _totals(group: str, episodes: list[EpisodeConversation]) -> ConversationTotals:
    return ConversationTotals(
        group=group, episodes=len(episodes), held=sum(len(e.held) for e in episodes),
        uncovered=sum(len(e.uncovered) for e in episodes), questions=sum(e.questions for e in episodes),
        unanswered=sum(e.unanswered for e in episodes), assumed=sum(1 for e in episodes if e.assumed))


USER_PARAMETERS = ("user", "stated")


def conversation_of(parameters: Mapping[str, Any]) -> ConversationResult | None:
    """An empty ConversationResult for a run whose manifest names a user; None for any other run."""
    user = parameters.get("user")
    if not user:
        return None
    rest = {k: v for k, v in parameters.items() if k not in USER_PARAMETERS and k.startswith(("user_", "profile"))}
    return ConversationResult(user=str(user), stated=int(parameters.get("stated", 1)), parameters=rest)


def profile_seed(parameters: Mapping[str, Any]) -> int:
    """The seed the suite drew the profiles with (recorded in the manifest; 0 when not recorded)."""
    return int(parameters.get("profile_seed", 0) or 0)


def simulator_error(trajectory: Trajectory) -> str | None:
    """The first simulator error recorded with any of the episode's answers."""
    for step in trajectory.steps:
        if step.user is not None and step.user.simulator_error:
            return str(step.user.simulator_error)
    return None


def measure_episode(trajectory: Trajectory, profile: UserProfile, task: ShoppingTask, score: TaskScore,
                    products: Mapping[str, Product]) -> EpisodeConversation:
    """The conversation measures of one scored episode (`products`: the recommended ones, by id)."""
    held = [c.key for c in profile.held]
    disclosed: set[str] = set()
    questions = unanswered = 0
    for step in trajectory.steps:
        if step.tool != ASK_USER:
            continue
        questions += 1
        if step.user is not None:
            disclosed.update(step.user.disclosed)
            unanswered += not step.user.understood
    assumed = [c.key for c in profile.held
               if c.key not in disclosed and breaks(c, task, score, products)]
    start = trajectory.start
    return EpisodeConversation(
        episode_id=start.episode_id, task_id=task.task_id, intent=task.intent, epoch=start.epoch, held=held,
        uncovered=[key for key in held if key in disclosed], questions=questions, unanswered=unanswered,
        assumed=assumed)


def breaks(constraint: Constraint, task: ShoppingTask, score: TaskScore, products: Mapping[str, Product]) -> bool:
    """The recommendation provably fails this one constraint. No recommendation, or no known product where the
    constraint applies, breaks nothing: it assumed nothing (it failed otherwise)."""
    if score.answer is None:
        return False
    if constraint.kind == "shop":
        return score.shop == 0.0 and score.resolved == 1.0
    if constraint.kind in ("budget", "voucher"):
        return score.budget == 0.0 and score.resolved == 1.0
    item = constraint.item or 0
    picked = positions(task, score.answer)
    product_id = picked[item] if item < len(picked) else None
    product = products.get(product_id) if product_id is not None else None
    if product is None:
        return False
    alone = one_constraint(constraint, task.targets[item])
    return alone is not None and rule_score(product, alone, _no_titles).rule < 1.0


def one_constraint(constraint: Constraint, target: Target) -> Target | None:
    """A bare target holding only this constraint, its bound or value taken from the gold target (None when the
    target does not hold it: nothing to break)."""
    bare = Target(product_id=target.product_id, title=[])
    field = constraint.key.split(".", 2)[2] if constraint.key.count(".") >= 2 else ""
    if constraint.kind == "price":
        return bare.model_copy(update={"price": target.price}) if target.price else None
    if constraint.kind == "service":
        return bare.model_copy(update={"service": [field]}) if field in (target.service or []) else None
    if constraint.kind == "option":
        values = [o[field] for o in target.sku_options or [] if field in o]
        return bare.model_copy(update={"sku_options": [{field: _closest(values, constraint.value)}]}) \
            if values else None
    if constraint.kind == "attribute":
        values = [v for a in target.attributes or [] for v in a.get(field, [])]
        return bare.model_copy(update={"attributes": [{field: [_closest(values, constraint.value)]}]}) \
            if values else None
    return None


def _closest(values: list[str], said: str) -> str:
    """The gold value the constraint names (its own value when the gold holds several under one key)."""
    return said if said in values else values[0]


def _no_titles(a: str, b: str) -> float:
    raise AssertionError("a one-constraint target has no title to compare")


def measure_run(found: ConversationResult, played: Mapping[str, tuple[Trajectory, ShoppingTask]],
                scores: list[TaskScore], products: Mapping[str, Product], seed: int) -> ConversationResult:
    """Fill `found` with every scored episode's measures (`played`: episode id → its trajectory and task;
    `products`: every target and recommended product, by id)."""
    for score in scores:
        if score.episode_id is None or score.episode_id not in played:
            continue
        trajectory, task = played[score.episode_id]
        profile = profile_of(task, {t.product_id: products[t.product_id] for t in task.targets
                                    if t.product_id in products}, stated=found.stated, seed=seed)
        found.episodes.append(measure_episode(trajectory, profile, task, score, products))
    return found
