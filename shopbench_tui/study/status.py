"""`shopbench study status` in the terminal: rich tables of the quality-control figures."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from evaluators.studies.quality import StudyStatus


def _number(value: float | None, pattern: str = "{:.2f}") -> str:
    return "–" if value is None else pattern.format(value)


def print_status(report: StudyStatus, console: Console | None = None) -> None:
    console = console or Console()
    people = Table(title=f"study {report.study} ({report.kind}): participants")
    for column in ("participant", "consent", "qualification", "done", "completed", "median s", "flags"):
        people.add_column(column)
    for p in report.participants:
        qualification = "–" if p.passed is None else f"{_number(p.qualification_score, '{:.0%}')} " + (
            "passed" if p.passed else "failed")
        people.add_row(p.participant_id, "yes" if p.consented else "no", qualification, f"{p.done}/{p.total}",
                       "yes" if p.completed else "no", _number(p.median_time_s, "{:.0f}"), "; ".join(p.flags))
    console.print(people)
    tasks = Table(title="tasks")
    for column in ("task", "type", "answers", "raters"):
        tasks.add_column(column)
    for t in report.tasks:
        tasks.add_row(t.task_id, t.group, str(t.done), str(t.raters))
    console.print(tasks)
    agreement = Table(title="agreement per task type (Krippendorff's alpha, 95% bootstrap interval)")
    for column in ("type", "alpha", "interval", "tasks", "level", "median s"):
        agreement.add_column(column)
    for a in report.agreement:
        agreement.add_row(a.group, _number(a.alpha), f"{_number(a.low)} – {_number(a.high)}", str(a.tasks), a.level,
                          _number(report.median_time_s.get(a.group), "{:.0f}"))
    console.print(agreement)
