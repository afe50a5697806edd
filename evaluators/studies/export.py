"""`shopbench study export`: a study's results where they are used.

Baseline: one human run folder per participant (their counted tasks, as recorded) and a pooled run `humans/` in
which each task's attempts are its epochs, so `score` averages them within the task as ShoppingBench reports human
performance; `score`, `report`, `compare` and `results` read both as any run. Participants flagged by quality
control stay in their own folders but out of the pool (said in summary.json).

Annotation: the generated items with gold by the counted raters' majority (`gold_source: human`, the labels and the
per-item agreement beside it), which `shopbench run session-intent --items` plays; ties and items with no label
stay unlabelled in ties.jsonl. A rating study: ratings.jsonl, per item and question the labels kept, their majority
and the share that gave it."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.jsonl import read_models, write_text_atomic
from benchmarks.session_intent.trees import GeneratedSessionItem, HumanAnnotation
from evaluators.studies.manifest import Study
from evaluators.studies.progress import read_progress
from evaluators.studies.quality import answers_per_task, counted, study_status
from mcp_server.trajectory import (
    AgentInfo,
    AgentKind,
    StartEvent,
    episode_path,
    read_manifest,
    write_manifest,
)

POOLED = "humans"
SUMMARY = "summary.json"


@dataclass
class Exported:
    out: Path
    runs: list[Path] = field(default_factory=list)
    items: int = 0
    ties: int = 0
    left_out: dict[str, list[str]] = field(default_factory=dict)
    """Flagged participants (their flags), kept out of the pool or the majority."""
    agreement: list[dict[str, Any]] = field(default_factory=list)


def export_study(study: Study, out: Path) -> Exported:
    status = study_status(study)
    exported = Exported(out=Path(out), left_out=status.flagged,
                        agreement=[a.model_dump() for a in status.agreement])
    if study.manifest.rates:
        _export_ratings(study, exported)
    elif study.manifest.kind == "annotation":
        _export_items(study, exported)
    else:
        _export_runs(study, exported)
    write_text_atomic(Path(out) / SUMMARY, json.dumps({
        "study": study.manifest.name, "kind": study.manifest.kind, "runs": [str(r) for r in exported.runs],
        "items": exported.items, "ties": exported.ties, "left_out": exported.left_out,
        "agreement": exported.agreement}, indent=2))
    return exported


def _export_runs(study: Study, exported: Exported) -> None:
    manifest = study.manifest
    pooled: list[tuple[str, Path, int]] = []
    attempts: Counter[str] = Counter()
    for seat in manifest.participants:
        events = counted(read_progress(study, seat.participant_id))
        source = study.episodes_dir(seat.participant_id, "tasks")
        played = [(e.task_id or "", episode_path(source, e.episode_id)) for e in events if e.episode_id]
        if not played:
            continue
        run = exported.out / seat.participant_id
        _write_run(source, run, AgentInfo(kind=AgentKind.human, name=seat.participant_id,
                                          details={"study": manifest.name}),
                   {"study": manifest.name, "active_s": {e.episode_id: e.active_s for e in events if e.episode_id}})
        for _, path in played:
            shutil.copyfile(path, run / "episodes" / path.name)
        exported.runs.append(run)
        if seat.participant_id not in exported.left_out:
            for task, path in played:
                pooled.append((task, path, attempts[task]))
                attempts[task] += 1
    if not pooled:
        return
    first = exported.runs[0]
    run = exported.out / POOLED
    people = sorted({path.parent.parent.parent.name for _, path, _ in pooled})
    agent = AgentInfo(kind=AgentKind.human, name=POOLED, details={"study": manifest.name, "participants": people})
    _write_run(first, run, agent, {"study": manifest.name, "pooled": "each task's attempts are its epochs"})
    for _, path, epoch in pooled:
        _copy_as_epoch(path, run / "episodes" / path.name, epoch, agent)
    exported.runs.append(run)


def _write_run(source: Path, run: Path, agent: AgentInfo, notes: dict[str, Any]) -> None:
    """The participant's run manifest (benchmark, world, versions as the server wrote them) under a new name."""
    manifest = read_manifest(source)
    (run / "episodes").mkdir(parents=True, exist_ok=True)
    write_manifest(run, manifest.model_copy(update={"run_id": run.name, "agent": agent,
                                                    "notes": {**manifest.notes, **notes}}))


def _copy_as_epoch(source: Path, target: Path, epoch: int, pooled: AgentInfo) -> None:
    """The episode as one attempt of the pooled player (its participant kept in the agent's details)."""
    first, _, rest = source.read_text(encoding="utf-8").partition("\n")
    start = StartEvent.model_validate_json(first)
    agent = pooled.model_copy(update={"details": {**pooled.details, **start.agent.details,
                                                  "participant": start.agent.name}})
    start = start.model_copy(update={"epoch": epoch, "agent": agent})
    target.write_text(start.model_dump_json() + "\n" + rest, encoding="utf-8")


def majority(labels: dict[str, str]) -> tuple[str | None, int]:
    """The most given label and how many gave it; None on a tie or with no label."""
    ranked = Counter(labels.values()).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None, 0
    return ranked[0]


def _counted_labels(study: Study, exported: Exported) -> dict[str, dict[str, str]]:
    """task id → {rater → label} of the raters quality control kept."""
    logs = {seat.participant_id: read_progress(study, seat.participant_id) for seat in study.manifest.participants}
    answers = answers_per_task(logs, exclude=frozenset(exported.left_out))
    return {task: {rater: label for rater, label in given.items() if label is not None}
            for task, given in answers.items()}


def _export_ratings(study: Study, exported: Exported) -> None:
    """ratings.jsonl: per item and question, the kept raters' labels, their majority (None on a tie) and the share
    that gave it."""
    labels = _counted_labels(study, exported)
    rows = []
    for unit in study.manifest.tasks:
        given = labels.get(unit, {})
        top, count = majority(given)
        item_id, _, question = unit.rpartition("#")
        rows.append({"item_id": item_id, "question": question, "labels": given, "majority": top,
                     "agreement": count / len(given) if given and top else None})
    exported.items = sum(row["majority"] is not None for row in rows)
    exported.ties = len(rows) - exported.items
    exported.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(exported.out / "ratings.jsonl", "".join(json.dumps(row) + "\n" for row in rows))


def _export_items(study: Study, exported: Exported) -> None:
    manifest = study.manifest
    answers = _counted_labels(study, exported)
    labelled, ties = [], []
    for item in read_models(Path(manifest.items or ""), GeneratedSessionItem):
        if item.id not in manifest.tasks:
            continue
        labels = answers.get(item.id, {})
        gold, count = majority(labels)
        if gold is None:
            ties.append(item)
            continue
        labelled.append(GeneratedSessionItem.model_validate({
            **item.model_dump(), "gold": gold, "gold_source": "human",
            "annotation": HumanAnnotation(study=manifest.name, labels=labels, agreement=count / len(labels))}))
    exported.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(exported.out / "items.jsonl", "".join(i.model_dump_json(exclude_none=True) + "\n"
                                                             for i in labelled))
    write_text_atomic(exported.out / "ties.jsonl", "".join(i.model_dump_json(exclude_none=True) + "\n"
                                                            for i in ties))
    exported.items, exported.ties = len(labelled), len(ties)
