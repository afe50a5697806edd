"""The pure parts of a study: balanced assignment with seeded orders, the log that counts a task once, the path read
back from it, and `study create`/`status` refusing bad input in one line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evaluators.studies.assignment import balanced_queues, make_participants
from evaluators.studies.manifest import QualificationSpec, Study, StudyManifest
from evaluators.studies.path import next_step
from evaluators.studies.progress import StudyEvent, read_progress, record
from shopbench.cli import app as cli

TASKS = [f"t{i}" for i in range(10)]


@pytest.mark.parametrize(("participants", "raters"), [(3, 3), (4, 3), (7, 2), (10, 1)])
def test_each_task_gets_distinct_raters_and_loads_differ_by_at_most_one(participants: int, raters: int) -> None:
    queues = balanced_queues(TASKS, participants, raters, seed=1)
    assert all(len(set(queue)) == len(queue) for queue in queues)  # nobody gets a task twice
    assert Counter(task for queue in queues for task in queue) == Counter({task: raters for task in TASKS})
    loads = [len(queue) for queue in queues]
    assert max(loads) - min(loads) <= 1
    assert balanced_queues(TASKS, participants, raters, seed=1) == queues  # fixed by the seed
    if participants >= 3:
        assert balanced_queues(TASKS, participants, raters, seed=2) != queues


def test_too_few_participants_for_the_raters_is_refused() -> None:
    with pytest.raises(ValueError, match="3 raters per task need at least 3 participants"):
        balanced_queues(TASKS, 2, 3, seed=0)


def test_attention_checks_are_hidden_in_every_queue_but_never_first() -> None:
    seats = make_participants(TASKS, 4, 2, seed=0, attention=["gold-1", "gold-2"])
    assert len({seat.token for seat in seats}) == 4 and [s.participant_id for s in seats] == ["P01", "P02", "P03",
                                                                                              "P04"]
    for seat in seats:
        assert {"gold-1", "gold-2"} <= set(seat.queue) and seat.queue[0] not in ("gold-1", "gold-2")


def test_a_task_is_counted_once_and_the_path_resumes_after_it(tmp_path: Path) -> None:
    (seat,) = make_participants(["a", "b"], 1, 1, seed=0)
    manifest = StudyManifest(name="s", kind="annotation", benchmark="session-intent", tasks=["a", "b"],
                             participants=[seat], qualification=QualificationSpec(benchmark="session-intent"),
                             secret="k")
    study = Study.write(tmp_path / "s", manifest)
    assert next_step(manifest, seat, read_progress(study, seat.participant_id)).kind == "consent"
    record(study, seat.participant_id, StudyEvent(event="consented"))
    assert next_step(manifest, seat, read_progress(study, seat.participant_id)).kind == "score_qualification"
    record(study, seat.participant_id, StudyEvent(event="qualified", score=1.0, passed=True))
    first = next_step(manifest, seat, read_progress(study, seat.participant_id))
    assert first.kind == "task" and first.task_id == seat.queue[0] and (first.number, first.total) == (1, 2)
    assert record(study, seat.participant_id, StudyEvent(event="task", task_id=first.task_id, answer="A"))
    assert not record(study, seat.participant_id, StudyEvent(event="task", task_id=first.task_id, answer="B"))
    progress = read_progress(study, seat.participant_id)
    assert progress.done[first.task_id].answer == "A"  # the first answer stands
    assert next_step(manifest, seat, progress).task_id == seat.queue[1]


def test_bad_input_gets_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["study", "status", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "is not a study folder (no study.json)" in missing.output
    annotation = runner.invoke(cli, ["study", "create", str(tmp_path / "a"), "--kind", "annotation"])
    assert annotation.exit_code == 2 and "labels the items of --items FILE" in annotation.output
    kind = runner.invoke(cli, ["study", "create", str(tmp_path / "k"), "--kind", "survey"])
    assert kind.exit_code == 2 and "--kind is baseline, annotation or rating" in kind.output
    assert not (tmp_path / "a").exists() and not (tmp_path / "k").exists()


def test_fast_participants_and_failed_attention_checks_are_flagged(tmp_path: Path) -> None:
    from evaluators.studies.quality import study_status

    seats = make_participants(TASKS[:4], 4, 2, seed=0, attention=["gold"])
    manifest = StudyManifest(name="s", kind="baseline", benchmark="shopping-mmlu", tasks=TASKS[:4],
                             participants=seats, qualification=QualificationSpec(benchmark="shopping-mmlu"),
                             secret="k", groups={task: "multiple-choice" for task in TASKS[:4]})
    study = Study.write(tmp_path / "s", manifest)
    for number, seat in enumerate(seats):
        seconds = 2.0 if number == 0 else 60.0 + number  # P01 answers in 2 s, the others in about a minute
        for position, task in enumerate(seat.queue):
            attention = task == "gold"
            record(study, seat.participant_id, StudyEvent(
                event="task", task_id=task, answer=str(position), active_s=seconds, attention=attention,
                correct=(number != 1) if attention else None))
    flags = {p.participant_id: p.flags for p in study_status(study).participants}
    assert [f.split(":")[0] for f in flags["P01"]] == ["fast"]
    assert flags["P02"] == ["failed 1 attention check(s)"]
    assert not flags["P03"] and not flags["P04"]


async def test_a_study_whose_world_is_gone_says_so_on_screen_and_records_nothing(tmp_path: Path) -> None:
    from shopbench_tui.study.app import StudyApp
    from shopbench_tui.study.screens import MessageScreen
    from tests.test_tui_play import until

    seats = make_participants(["product-0000"], 1, 1, seed=0)
    manifest = StudyManifest(name="s", kind="baseline", benchmark="shoppingbench", tasks=["product-0000"],
                             world=str(tmp_path / "no-world"), participants=seats,
                             qualification=QualificationSpec(benchmark="shopping-mmlu"), secret="k")
    study = Study.write(tmp_path / "s", manifest)
    app = StudyApp(study, participant=seats[0].token)
    async with app.run_test() as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "no-world" in str(app.screen.query_one("#study-body").render())
    assert not study.log_path(seats[0].participant_id).exists()


def test_a_rating_study_of_shoppingbench_instructions_shows_each_with_its_targets(default_world, tmp_path) -> None:
    from evaluators.studies.annotation import label_items
    from evaluators.studies.create import StudySettings, create_ratings
    from shopbench_tui.play.screens import parse_options

    study = create_ratings(tmp_path / "s", "shoppingbench", StudySettings(participants=3, sample=1))
    units = label_items(study)
    assert sorted(units) == sorted(study.manifest.tasks) and len(units) == 2 * 4  # one task per intent, 2 questions
    tasks = {t.task_id: t for t in default_world.tasks("generated")}
    for unit in units.values():
        task = tasks[unit.item_id.rpartition("#")[0]]
        assert task.query in unit.text and all(t.title[0] in unit.text for t in task.targets)
        keys = [key for key, _ in parse_options(unit.text)]
        assert keys == (["1", "2", "3", "4", "5"] if unit.group == "natural" else ["A", "B"])


def test_a_log_torn_by_a_crash_still_reads_and_takes_the_next_line(tmp_path: Path) -> None:
    (seat,) = make_participants(["a"], 1, 1, seed=0)
    manifest = StudyManifest(name="s", kind="annotation", benchmark="session-intent", tasks=["a"],
                             participants=[seat], qualification=QualificationSpec(benchmark="session-intent"),
                             secret="k")
    study = Study.write(tmp_path / "s", manifest)
    record(study, seat.participant_id, StudyEvent(event="consented"))
    with open(study.log_path(seat.participant_id), "a") as log:
        log.write('{"event":"task","task_id":"a","ans')  # the crash
    assert [e.event for e in read_progress(study, seat.participant_id).events] == ["consented"]
    assert record(study, seat.participant_id, StudyEvent(event="task", task_id="a", answer="B"))
    assert read_progress(study, seat.participant_id).done["a"].answer == "B"
