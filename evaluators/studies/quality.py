"""Quality control of a study (`shopbench study status`): progress per participant and per task, qualification
scores, median time per task, flagged participants, and agreement per task type — Krippendorff's alpha from the
`krippendorff` package, with a bootstrap interval over the tasks."""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from evaluators.studies.annotation import scale_side
from evaluators.studies.manifest import Study
from evaluators.studies.progress import Progress, StudyEvent, read_progress

ONE_SIDED = 0.9
"""A participant whose answers are this share (or more) one value, or one side of the four-point scale, is flagged
(SessionIntentBench removed workers who answered on one side of the scale almost always)."""
ONE_SIDED_MIN = 4
"""Answers needed before one-sidedness is judged."""
FAST = 1 / 3
"""A participant whose median time per task is under this share of the study's median is flagged."""
BOOTSTRAP = 1000
Answers = dict[str, dict[str, str | None]]
"""task id → {participant id → answer}."""


class ParticipantStatus(BaseModel):
    participant_id: str
    consented: bool
    qualification_score: float | None = None
    passed: bool | None = None
    done: int = 0
    total: int = 0
    completed: bool = False
    completion_code: str | None = None
    """The code shown at the end (crowd-work platforms check the code a worker pastes against it)."""
    median_time_s: float | None = None
    flags: list[str] = Field(default_factory=list)


class TaskStatus(BaseModel):
    task_id: str
    group: str
    done: int
    raters: int


class Agreement(BaseModel):
    group: str
    alpha: float | None
    """Krippendorff's alpha (nominal, or ordinal for the four-point scale); None when it is not defined (fewer than
    two raters on every task, or a single value throughout)."""
    low: float | None = None
    high: float | None = None
    """95% bootstrap interval (tasks resampled with replacement)."""
    tasks: int = 0
    level: str = "nominal"


class StudyStatus(BaseModel):
    study: str
    kind: str
    participants: list[ParticipantStatus]
    tasks: list[TaskStatus]
    median_time_s: dict[str, float] = Field(default_factory=dict)
    """Per task type: the median active time of the counted tasks."""
    agreement: list[Agreement] = Field(default_factory=list)

    @property
    def flagged(self) -> dict[str, list[str]]:
        return {p.participant_id: p.flags for p in self.participants if p.flags}


def counted(progress: Progress) -> list[StudyEvent]:
    """The participant's counted task lines (attention checks are not tasks)."""
    return [e for e in progress.done.values() if not e.attention]


def one_sided(answers: list[tuple[str, str | None]]) -> str | None:
    """Why these (group, answer) pairs are one-sided, or None."""
    values = [answer for _, answer in answers if answer is not None]
    if len(values) < ONE_SIDED_MIN:
        return None
    value, count = Counter(values).most_common(1)[0]
    if count / len(values) >= ONE_SIDED:
        return f"one-sided: {count} of {len(values)} answers {value!r}"
    sides = [side for group, answer in answers if (side := scale_side(group, answer)) is not None]
    if len(sides) >= ONE_SIDED_MIN:
        share = max(sum(sides), len(sides) - sum(sides)) / len(sides)
        if share >= ONE_SIDED:
            return f"one-sided: {share:.0%} of answers on one side of the scale"
    return None


def study_status(study: Study, *, seed: int = 0) -> StudyStatus:
    manifest = study.manifest
    logs = {seat.participant_id: read_progress(study, seat.participant_id) for seat in manifest.participants}
    times = [e.active_s for p in logs.values() for e in counted(p) if e.active_s is not None]
    overall = statistics.median(times) if times else None
    people = []
    for seat in manifest.participants:
        progress = logs[seat.participant_id]
        mine = counted(progress)
        own = [e.active_s for e in mine if e.active_s is not None]
        status = ParticipantStatus(
            participant_id=seat.participant_id, consented=progress.consented, done=len(progress.done),
            total=len(seat.queue), completed=progress.completed is not None,
            completion_code=progress.completed.code if progress.completed is not None else None,
            median_time_s=statistics.median(own) if own else None)
        if progress.qualified is not None:
            status.qualification_score, status.passed = progress.qualified.score, progress.qualified.passed
        reason = one_sided([(manifest.groups.get(e.task_id or "", ""), e.answer) for e in mine])
        if reason:
            status.flags.append(reason)
        if overall and status.median_time_s is not None and len(logs) > 1 and status.median_time_s < FAST * overall:
            status.flags.append(f"fast: median {status.median_time_s:.0f} s per task, the study's {overall:.0f} s")
        failed = [e.task_id for e in progress.done.values() if e.attention and e.correct is False]
        if failed:
            status.flags.append(f"failed {len(failed)} attention check(s)")
        people.append(status)
    answers = answers_per_task(logs)
    tasks = [TaskStatus(task_id=task, group=manifest.groups.get(task, ""), done=len(answers.get(task, {})),
                        raters=manifest.raters) for task in manifest.tasks]
    by_group: dict[str, list[float]] = defaultdict(list)
    for progress in logs.values():
        for event in counted(progress):
            if event.active_s is not None:
                by_group[manifest.groups.get(event.task_id or "", "")].append(event.active_s)
    return StudyStatus(study=manifest.name, kind=manifest.kind, participants=people, tasks=tasks,
                       median_time_s={g: statistics.median(v) for g, v in sorted(by_group.items())},
                       agreement=agreement_per_group(answers, manifest.groups, ordinal=manifest.kind == "annotation",
                                                     seed=seed))


def answers_per_task(logs: dict[str, Progress], exclude: frozenset[str] = frozenset()) -> Answers:
    """task id → {participant id → answer} over the counted lines (participants in `exclude` left out)."""
    found: Answers = defaultdict(dict)
    for participant, progress in logs.items():
        if participant in exclude:
            continue
        for event in counted(progress):
            found[event.task_id or ""][participant] = event.answer
    return dict(found)


def agreement_per_group(answers: Answers, groups: dict[str, str], *, ordinal: bool,
                        seed: int = 0) -> list[Agreement]:
    """Krippendorff's alpha over each group's tasks (a task with one answer carries no pairs and is left out)."""
    by_group: dict[str, list[dict[str, str | None]]] = defaultdict(list)
    for task, given in answers.items():
        if sum(a is not None for a in given.values()) >= 2:
            by_group[groups.get(task, "")].append(given)
    return [_agreement(group, units, ordinal, seed) for group, units in sorted(by_group.items())]


def _agreement(group: str, units: list[dict[str, str | None]], ordinal: bool, seed: int) -> Agreement:
    import krippendorff

    values = sorted({a for unit in units for a in unit.values() if a is not None})
    code = {value: number for number, value in enumerate(values)}
    raters = sorted({r for unit in units for r in unit})
    matrix = np.full((len(raters), len(units)), np.nan)
    for column, unit in enumerate(units):
        for row, rater in enumerate(raters):
            answer = unit.get(rater)
            if answer is not None:
                matrix[row, column] = code[answer]
    level: Literal["ordinal", "nominal"] = "ordinal" if ordinal else "nominal"

    def alpha(columns: list[int]) -> float | None:
        picked = matrix[:, columns]
        if len(np.unique(picked[~np.isnan(picked)])) < 2:
            return None
        return float(krippendorff.alpha(reliability_data=picked, level_of_measurement=level))

    point = alpha(list(range(len(units))))
    rng = random.Random(f"{seed}:bootstrap:{group}")
    draws = [a for _ in range(BOOTSTRAP)
             if (a := alpha([rng.randrange(len(units)) for _ in units])) is not None and not np.isnan(a)]
    low, high = (float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5))) if draws else (None, None)
    return Agreement(group=group, alpha=point, low=low, high=high, tasks=len(units), level=level)
