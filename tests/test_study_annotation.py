"""An annotation study of generated SessionIntentBench items: three raters driven with Textual's pilot through
consent, qualification and labelling (one of them one-sided), then status and export: gold by majority of the raters
kept, the one-sided rater flagged and left out, ties said, and the agreement the `krippendorff` library computes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import krippendorff
import numpy as np
from typer.testing import CliRunner

from benchmarks.gold import gold_answers
from benchmarks.jsonl import read_models
from benchmarks.session_intent import load_items
from benchmarks.session_intent.trees import GeneratedSessionItem
from evaluators.studies.annotation import LabelItem
from evaluators.studies.create import StudySettings, create_annotation, create_ratings
from evaluators.studies.export import export_study
from evaluators.studies.manifest import open_study
from evaluators.studies.progress import read_progress
from evaluators.studies.quality import study_status
from shopbench.cli import app as cli
from shopbench_tui.study.app import StudyApp
from shopbench_tui.study.screens import LabelScreen, MessageScreen, TextScreen
from tests._study import generated_items, press_on
from tests.test_tui_play import until

LABELS = "ABC"


def rater_label(rater: str, position: int) -> str:
    """P01 cycles A, B, C; P02 agrees except on the first item; P03 answers C throughout (one-sided)."""
    if rater == "P03":
        return "C"
    if rater == "P02" and position == 0:
        return "B" if LABELS[0] != "B" else "A"
    return LABELS[position % 3]


async def label_as(study, rater: str, choose: Callable[[LabelItem], str]) -> None:
    """Take the rater's path with the pilot, each item labelled as `choose` says (keys, then the confirmation). The
    clock stands still: how fast a pilot answers on a loaded machine must not flag a rater as fast."""
    app = StudyApp(open_study(study.folder), participant=rater, clock=lambda: 0.0)
    async with app.run_test(size=(120, 45)) as pilot:
        while not isinstance(app.screen, MessageScreen):
            await until(pilot, lambda: isinstance(app.screen, TextScreen | LabelScreen | MessageScreen))
            if isinstance(app.screen, TextScreen):
                await press_on(pilot, "y")
            elif isinstance(app.screen, LabelScreen):
                await press_on(pilot, choose(app.screen.item).lower(), "y")
        assert "completion code" in str(app.screen.query_one("#study-body").render())


def test_annotation_study_exports_majority_gold_and_flags_the_one_sided_rater(tmp_path: Path) -> None:
    generated = generated_items(tmp_path / "generated.jsonl")
    study = create_annotation(tmp_path / "study", tmp_path / "generated.jsonl",
                              StudySettings(participants=3, raters=3, qualification=2, attention=1, seed=3))
    manifest = study.manifest
    assert sorted(manifest.tasks) == sorted(item.id for item in generated) and manifest.practice is None
    assert all(sorted(set(seat.queue) - set(manifest.attention)) == sorted(manifest.tasks)
               for seat in manifest.participants)
    golds = gold_answers("session-intent", None)
    order = manifest.tasks
    def choose(rater: str) -> Callable[[LabelItem], str]:
        def label(item: LabelItem) -> str:
            assert "gold" not in item.text.lower()
            if item.item_id in order:
                return rater_label(rater, order.index(item.item_id))
            qualifying = item.item_id in manifest.qualification.task_ids
            return golds[item.item_id] if qualifying or rater != "P03" else "C"
        return label

    for rater in ("P01", "P02", "P03"):  # `shopbench run` below starts its own event loop: not inside a test's
        asyncio.run(label_as(study, rater, choose(rater)))
    status = study_status(study)
    flags = {p.participant_id: p.flags for p in status.participants}
    assert not flags["P01"] and not flags["P02"] and any("one-sided" in f for f in flags["P03"]), flags
    assert all(p.passed and p.completed for p in status.participants)
    assert [p.completion_code for p in status.participants] == [manifest.completion_code(r) for r in flags]

    # the alpha reported is the library's, over the same (rater × item) matrix, per task type
    for agreement in status.agreement:
        items = [task for task in order if manifest.groups[task] == agreement.group]
        codes = {letter: n for n, letter in enumerate(sorted({rater_label(r, order.index(t)) for t in items
                                                                for r in ("P01", "P02", "P03")}))}
        matrix = np.array([[codes[rater_label(r, order.index(t))] for t in items] for r in ("P01", "P02", "P03")],
                          dtype=float)
        expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="ordinal")
        assert agreement.alpha is not None and abs(agreement.alpha - expected) < 1e-9
        assert agreement.low is not None and agreement.low <= agreement.alpha + 1e-9

    shown = CliRunner().invoke(cli, ["study", "status", str(study.folder)], env={"COLUMNS": "160"})
    assert shown.exit_code == 0 and "one-sided: 8 of 8 answers 'C'" in shown.output and "ordinal" in shown.output
    as_json = json.loads(CliRunner().invoke(cli, ["study", "status", str(study.folder), "--json"]).output)
    assert as_json["agreement"] == [a.model_dump() for a in status.agreement]

    result = CliRunner().invoke(cli, ["study", "export", str(study.folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "left out P03: one-sided" in result.output
    exported = {item.id: item for item in read_models(tmp_path / "out" / "items.jsonl", GeneratedSessionItem)}
    ties = [item.id for item in read_models(tmp_path / "out" / "ties.jsonl", GeneratedSessionItem)]
    assert ties == [order[0]]  # P01 and P02 disagree there, and P03 is left out
    assert set(exported) == set(order) - {order[0]}
    for task, item in exported.items():
        assert item.gold == rater_label("P01", order.index(task)) and item.gold_source == "human"
        assert item.annotation is not None and set(item.annotation.labels) == {"P01", "P02"}
        assert item.annotation.agreement == 1.0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["left_out"].keys() == {"P03"} and summary["agreement"]
    assert len(load_items(tmp_path / "out" / "items.jsonl")) == len(exported)  # the benchmark's loader takes them
    run = CliRunner().invoke(cli, ["run", "session-intent", "--items", str(tmp_path / "out" / "items.jsonl"),
                                   "--model", "random", "--out", str(tmp_path / "run")])
    assert run.exit_code == 0, run.output
    assert len(read_progress(study, "P01").done) == len(order) + 1  # every item and the attention check, once each


async def test_a_rating_study_of_intentionqa_gold_exports_majority_ratings(tmp_path: Path) -> None:
    study = create_ratings(tmp_path / "study", "intentionqa", StudySettings(participants=3, raters=3, sample=1))
    manifest = study.manifest
    assert manifest.rates and not manifest.qualification.task_ids and not manifest.attention
    assert sorted({task.rpartition("#")[2] for task in manifest.tasks}) == ["gold-right", "other-right"]
    # P01 and P02: the gold is right and no other option is; P03 says the opposite
    for rater in ("P01", "P02", "P03"):
        agree = rater != "P03"
        await label_as(study, rater, lambda item, agree=agree: "A" if (item.group == "gold-right") == agree else "B")
    export_study(open_study(study.folder), tmp_path / "out")
    rows = [json.loads(line) for line in (tmp_path / "out" / "ratings.jsonl").read_text().splitlines()]
    assert len(rows) == len(manifest.tasks) and all(len(row["labels"]) == 3 for row in rows)
    assert {(row["question"], row["majority"]) for row in rows} == {("gold-right", "A"), ("other-right", "B")}
    assert all(row["agreement"] == 2 / 3 for row in rows)
