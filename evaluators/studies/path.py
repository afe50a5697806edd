"""The participant's path, decided from the manifest and the log alone: consent, qualification (scored once every
item is answered), one practice task, the queue, the completion code. The screens show whatever `next_step` says,
so a participant who quits, closes the tab or crashes comes back to the same step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from evaluators.studies.manifest import Participant, StudyManifest
from evaluators.studies.progress import Progress

StepKind = Literal["consent", "declined", "qualification", "score_qualification", "failed", "practice", "task",
                   "complete", "completed"]


@dataclass(frozen=True)
class Step:
    kind: StepKind
    task_id: str | None = None
    number: int = 0
    """1-based place of the task in its part (qualification or queue)."""
    total: int = 0
    attention: bool = False


def next_step(manifest: StudyManifest, seat: Participant, progress: Progress) -> Step:
    if progress.declined:
        return Step("declined")
    if progress.completed is not None:
        return Step("completed")
    if not progress.consented:
        return Step("consent")
    qualification = manifest.qualification.task_ids
    answered = progress.qualification_answers
    if progress.qualified is None:
        for number, task_id in enumerate(qualification, start=1):
            if task_id not in answered:
                return Step("qualification", task_id, number, len(qualification))
        return Step("score_qualification")
    if not progress.qualified.passed:
        return Step("failed")
    if manifest.practice and not progress.practised:
        return Step("practice", manifest.practice)
    done = progress.done
    for number, task_id in enumerate(seat.queue, start=1):
        if task_id not in done:
            return Step("task", task_id, number, len(seat.queue), attention=task_id in manifest.attention)
    return Step("complete")


def qualification_score(manifest: StudyManifest, progress: Progress) -> tuple[float, bool]:
    """(share right, passed): at least the pass mark of the items right (no items: passed)."""
    answers = progress.qualification_answers
    asked = manifest.qualification.task_ids
    if not asked:
        return 1.0, True
    score = sum(bool(answers[t].correct) for t in asked if t in answers) / len(asked)
    return score, score >= manifest.qualification.pass_mark
