"""The conversation table of a conversational ShoppingBench run (issue 31), as rows of text that `shopbench score`
(console.py) and `shopbench report` (tables.py) both lay out: counts and shares per intent, then pooled, and the
episodes left unscored for a simulator error, named."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from evaluators.results.shoppingbench.scorer import ShoppingBenchResult

CONVERSATION_HEADERS = ("intent", "n", "held", "uncovered", "questions", "unanswered", "assumed")
CONVERSATION_LEGEND = ("held: constraints the opener held back · uncovered: of those, disclosed by an answer (share) · "
                       "unanswered: questions the user could not map (share of questions) · assumed: episodes whose "
                       "recommendation broke a held constraint never uncovered (share of episodes)")


def conversation_rows(result: ShoppingBenchResult) -> list[list[str]]:
    """The conversation table's rows: counts per intent, then all episodes pooled (count and share)."""
    assert result.conversation is not None
    labels: dict[str, str] = {summary.intent: summary.label for summary in result.intents}
    rows = []
    for totals in result.conversation.totals(labels):
        rows.append([labels.get(totals.group, "all episodes (pooled)"), str(totals.episodes), str(totals.held),
                     share(totals.uncovered, totals.held), str(totals.questions),
                     share(totals.unanswered, totals.questions), share(totals.assumed, totals.episodes)])
    return rows


def share(count: int, of: int) -> str:
    """"3 (0.600)": a count and its share of `of` (the count alone when there is nothing to share)."""
    return f"{count} ({count / of:.3f})" if of else str(count)


def simulator_error_text(result: ShoppingBenchResult) -> str:
    """The episodes left unscored for a simulator error, each named with its error ("none" when there are none)."""
    assert result.conversation is not None
    errors = result.conversation.simulator_errors
    if not errors:
        return "simulator errors: none"
    return (f"simulator errors: {len(errors)} episode(s) not scored (not in ASR or CAR): "
            + "; ".join(f"{e.episode_id} ({e.task_id}): {e.error}" for e in errors))
