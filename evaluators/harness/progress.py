"""A rich progress bar for run_episodes (any object with begin/advance/finish will do)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from evaluators.harness.orchestrate import WorkUnit


class RichProgress:
    def __init__(self, label: str, console: Console | None = None) -> None:
        self.label = label
        self.failed = 0
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[status]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._task: TaskID | None = None

    def begin(self, total: int, already_done: int) -> None:
        self._progress.start()
        status = f"{already_done} resumed" if already_done else ""
        self._task = self._progress.add_task(self.label, total=total, completed=already_done, status=status)

    def advance(self, unit: WorkUnit[Any], ok: bool) -> None:
        if not ok:
            self.failed += 1
        status = f"[red]{self.failed} failed" if self.failed else unit.item_id
        if self._task is None:
            raise RuntimeError("RichProgress.advance before begin")
        self._progress.update(self._task, advance=1, status=status)

    def finish(self) -> None:
        self._progress.stop()
