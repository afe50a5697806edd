"""Failure categories of the paper's App. D, derived from scores instead of by hand.

The paper read 60 failed GPT-4.1 trajectories and sorted them into product missing (#PM), attribute mismatch (#AM),
constraint not satisfied (#CNS), knowledge error (#KE) and metric issue (#MI). All but #MI follow from the score
breakdown, so every failed task gets them automatically:
- product missing: no recommendation, fewer ids than targets, or an id that names no product (the " b" quirk lands
  here: the agent meant a product, the scorer found none);
- knowledge error: a knowledge task whose product does not carry the answer (kw < 1);
- attribute mismatch: some recommended product misses a constraint (rule < 1; knowledge: the title is off);
- constraint not satisfied: every position holds a product, but the basket breaks the shop or budget condition.
A task can fall in several; they are listed most basic first, and the first is the one tables count. #MI (the
metric being too strict) needs a human and is not guessed.
"""

from __future__ import annotations

from evaluators.results.shoppingbench.task_score import TaskScore

PRODUCT_MISSING = "product missing"
KNOWLEDGE_ERROR = "knowledge error"
ATTRIBUTE_MISMATCH = "attribute mismatch"
CONSTRAINT_NOT_SATISFIED = "constraint not satisfied"
CATEGORIES: tuple[str, ...] = (PRODUCT_MISSING, KNOWLEDGE_ERROR, ATTRIBUTE_MISMATCH, CONSTRAINT_NOT_SATISFIED)
"""In precedence order."""


def categorize(score: TaskScore) -> list[str]:
    """Every category that applies to a scored task, in precedence order; empty for a success."""
    if score.success:
        return []
    found: list[str] = []
    if score.answer is None or any(not match.found for match in score.matches):
        found.append(PRODUCT_MISSING)
    if score.kw is not None and score.kw < 1 and score.resolved > 0:
        found.append(KNOWLEDGE_ERROR)
    if score.kw is not None:
        mismatch = score.resolved > 0 and (score.title or 0) < 1
    else:
        mismatch = any(match.found and match.rule < 1 for match in score.matches)
    if mismatch:
        found.append(ATTRIBUTE_MISMATCH)
    if score.resolved == 1 and (score.shop == 0 or score.budget == 0):
        found.append(CONSTRAINT_NOT_SATISFIED)
    return found
