"""Who gets which task, in which order: `raters` distinct participants per task, loads differing by at most one, each
queue in its own seeded order, the attention checks at seeded places in it."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from benchmarks.errors import BadInput
from evaluators.studies.manifest import Participant


def balanced_queues(tasks: Sequence[str], participants: int, raters: int, seed: int) -> list[list[str]]:
    """Task j's r-th copy goes to participant (j·raters + r) mod P: `raters` consecutive seats, so distinct as long
    as raters ≤ P, and every seat gets ⌊T·raters/P⌋ or one more. The tasks are shuffled first (seeded) so that which
    seats share a task does not follow the file's order; each queue is then shuffled with its own seeded generator."""
    if raters < 1:
        raise BadInput("--raters must be at least 1")
    if participants < raters:
        raise BadInput(f"{raters} raters per task need at least {raters} participants (got {participants})")
    order = list(tasks)
    random.Random(f"{seed}:tasks").shuffle(order)
    queues: list[list[str]] = [[] for _ in range(participants)]
    for j, task in enumerate(order):
        for r in range(raters):
            queues[(j * raters + r) % participants].append(task)
    for seat, queue in enumerate(queues):
        random.Random(f"{seed}:queue:{seat}").shuffle(queue)
    return queues


def with_attention_checks(queue: list[str], checks: Sequence[str], seed: int, seat: int) -> list[str]:
    """The checks put into the queue at seeded places, never first (the first task follows the practice)."""
    mixed = list(queue)
    rng = random.Random(f"{seed}:attention:{seat}")
    for check in checks:
        mixed.insert(rng.randint(1, max(1, len(mixed))), check)
    return mixed


def make_participants(tasks: Sequence[str], count: int, raters: int, seed: int,
                      attention: Sequence[str] = ()) -> list[Participant]:
    """Seats P01, P02, ... with fresh invitation tokens (secrets, not seeded: a token must not be guessable from the
    study's settings)."""
    width = max(2, len(str(count)))
    queues = balanced_queues(tasks, count, raters, seed)
    return [Participant(participant_id=f"P{seat + 1:0{width}d}", token=secrets.token_urlsafe(12),
                        queue=with_attention_checks(queue, attention, seed, seat))
            for seat, queue in enumerate(queues)]
