"""Stage III query writing with a model: `shopbench world generate --writer-model SPEC` / `shopbench world rewrite`.

Each templated instruction of a task set goes to the writer model (benchmarks.shoppingbench.worldgen.rewrite builds
the prompt and checks the answer). An accepted rewrite replaces the query in the official task file; a rejected one
leaves the template. `<task set>/rewrites.jsonl` records every task's template, the model's text, the query kept and
why — appended as each answer arrives, so a killed run resumes with the tasks not yet asked, and read by
`shopbench world info` to say how many tasks were rewritten.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.schema import INTENTS, TASK_FILES, Intent, ShoppingTask
from benchmarks.shoppingbench.tasks import load_task_set
from benchmarks.shoppingbench.worldgen.rewrite import (
    SYSTEM_PROMPT,
    check_rewrite,
    request_part,
    rewrite_prompt,
)
from evaluators.pipelines._common import GenerationProgress, ModelSettings, bounded, complete, open_model
from evaluators.pipelines.journal import Journal, write_jsonl_atomic

REWRITES = "rewrites.jsonl"
MAX_TOKENS = 256


@dataclass
class RewriteReport:
    folder: Path
    total: int = 0
    rewritten: int = 0
    kept_template: int = 0
    resumed: int = 0
    reasons: Counter = field(default_factory=Counter)
    model_counters: dict[str, Any] = field(default_factory=dict)


def _done(entry: dict[str, Any] | None, task: ShoppingTask) -> bool:
    """A journal entry answers this task if it was made from this template (or the task already holds its result)."""
    return entry is not None and task.query in (entry["template"], entry["query"])


async def rewrite_task_set(folder: Path, settings: ModelSettings, *, task_set: str = "generated",
                           intents: tuple[Intent, ...] = INTENTS, concurrency: int = 4, resume: bool = True,
                           progress: bool = True) -> RewriteReport:
    """Rewrite the instructions of the task-set folder in place; returns counts of rewritten and kept templates."""
    folder = Path(folder)
    tasks = [t for t in load_task_set(folder, task_set) if t.intent in intents]
    report = RewriteReport(folder=folder, total=len(tasks))
    with Journal(folder / REWRITES, key="task_id", resume=resume) as journal:
        todo = [t for t in tasks if not _done(journal.records.get(t.task_id), t)]
        report.resumed = len(tasks) - len(todo)
        if todo:
            prepared = open_model(settings)
            try:
                with GenerationProgress(f"rewriting · {settings.spec}", len(tasks), report.resumed,
                                        enabled=progress) as bar:
                    async def one(task: ShoppingTask) -> None:
                        template = task.query
                        text = await complete(prepared, rewrite_prompt(task, template), settings, system=SYSTEM_PROMPT,
                                              max_tokens=MAX_TOKENS)
                        check = check_rewrite(task, template, text)
                        journal.append({"task_id": task.task_id, "intent": task.intent, "template": template,
                                        "model_output": text, "query": check.query, "rewritten": check.accepted,
                                        "reason": check.reason, "unchecked": check.unchecked,
                                        "writer_model": settings.spec})
                        bar.advance("rewritten" if check.accepted else "kept template")

                    await bounded(todo, one, concurrency)
                report.model_counters = prepared.counters()
            finally:
                await prepared.aclose()
        entries = {t.task_id: journal.records[t.task_id] for t in tasks}
    _write_queries(folder, {task_id: entry["query"] for task_id, entry in entries.items()}, intents)
    for entry in entries.values():
        report.rewritten += bool(entry["rewritten"])
        report.kept_template += not entry["rewritten"]
        if entry["reason"]:
            report.reasons[entry["reason"].split(" ", 1)[0]] += 1
    return report


def _write_queries(folder: Path, queries: dict[str, str], intents: tuple[Intent, ...]) -> None:
    """Put the kept queries into the official task files, every other field of each line untouched."""
    from benchmarks.shoppingbench.schema import task_id_for

    for intent in intents:
        path = folder / TASK_FILES[intent]
        if not path.exists():
            continue
        records = [record for _, record in read_jsonl(path)]
        for index, record in enumerate(records):
            record["query"] = queries.get(task_id_for(intent, index), record["query"])
        write_jsonl_atomic(path, records)


def rewrite_summary(folder: Path) -> dict[str, Any] | None:
    """Counts from a task set's rewrites.jsonl (None when it was never rewritten)."""
    path = Path(folder) / REWRITES
    if not path.exists():
        return None
    latest: dict[str, dict[str, Any]] = {}
    for _, record in read_jsonl(path):
        latest[record["task_id"]] = record
    writers = sorted({r.get("writer_model", "") for r in latest.values()})
    return {"rewritten": sum(bool(r["rewritten"]) for r in latest.values()), "asked": len(latest), "writers": writers}


__all__ = ["REWRITES", "RewriteReport", "request_part", "rewrite_summary", "rewrite_task_set"]
