"""A baseline study played with Textual's pilot through the environment every player uses: one participant fails
the qualification and is stopped; another passes it, plays the practice task, two ShoppingBench tasks and a hidden
question (the attention check), quits mid-task, comes back to the same task, and gets the completion code. The
exported runs score as the trajectories say, and `score` reads them as any run."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.gold import gold_answers
from evaluators.studies.create import StudySettings, create_baseline
from evaluators.studies.export import export_study
from evaluators.studies.manifest import open_study
from evaluators.studies.progress import read_progress
from mcp_server.trajectory import episode_path, iter_episode_files, read_manifest, read_trajectory
from shopbench_tui.play.screens import ConfirmQuitScreen, QuestionScreen, ShoppingScreen
from shopbench_tui.scores import episode_scores, score_run
from shopbench_tui.study.app import StudyApp
from shopbench_tui.study.screens import EntryScreen, MessageScreen, TextScreen
from tests._study import press_on
from tests.test_tui_play import highlight, search, settle, until

SIZE = (160, 50)


@pytest.fixture(scope="module")
def product_tasks(default_world):
    """Three one-product tasks of the default world: two to play, one to practise on."""
    return [t for t in default_world.tasks("generated") if t.intent == "product" and len(t.targets) == 1][:3]


async def answer(pilot, text: str) -> None:
    """Type an answer into the question screen's box and confirm it."""
    await pilot.press("ctrl+a", *text, "enter")
    await press_on(pilot, "y")


async def buy(pilot, world, task) -> None:
    """Find the target in its shop at its price, put it in the basket, recommend it and end the task."""
    (target,) = task.targets
    listing = world.products.get([target.product_id])[target.product_id]
    table = await search(pilot, target.title[0], shop=listing.shop_id,
                         **{"price-lo": f"{listing.price:g}", "price-hi": f"{listing.price:g}"})
    await highlight(pilot, table, target.product_id)
    await pilot.press("a", "ctrl+e")
    await settle(pilot)
    await pilot.press("ctrl+t", "s")
    await settle(pilot)


async def walk(app, pilot, world, tasks, *, wrong: bool = False, quit_in: str | None = None) -> list[str]:
    """Follow the path to its last screen (or quit in task `quit_in`): every text agreed to, every question answered
    with its gold (or wrongly), every shopping task bought; returns the titles of the text screens seen."""
    golds = gold_answers(app.manifest.qualification.benchmark, None)
    seen = []
    while True:
        await until(pilot, lambda: isinstance(app.screen, TextScreen | QuestionScreen | ShoppingScreen |
                                              MessageScreen))
        screen, step = app.screen, app.step
        if isinstance(screen, MessageScreen):
            return seen
        if isinstance(screen, TextScreen):
            seen.append(screen.heading)
            await press_on(pilot, "y")
        elif isinstance(screen, QuestionScreen):
            await answer(pilot, "no idea" if wrong else golds[step.task_id])
        elif step.kind == "practice":
            await pilot.press("ctrl+t")
            await press_on(pilot, "s")
        elif step.task_id == quit_in:
            await search(pilot, "sauce")
            await pilot.press("ctrl+q")
            assert isinstance(app.screen, ConfirmQuitScreen)
            await pilot.press("y")
            await until(pilot, lambda: not app.is_running)
            return seen
        else:
            await until(pilot, lambda: "time left" in app.title)  # the task's clock, in the header
            await buy(pilot, world, tasks[step.task_id])
            await until(pilot, lambda shopping=screen: app.screen is not shopping)


async def test_a_participant_is_qualified_plays_quits_resumes_and_is_exported(default_world, product_tasks,
                                                                             tmp_path: Path) -> None:
    played, practice = product_tasks[:2], product_tasks[2]
    tasks = {t.task_id: t for t in product_tasks}
    study = create_baseline(tmp_path / "study", "shoppingbench",
                            StudySettings(participants=2, raters=2, qualification=2, attention=1, seed=5),
                            task_ids=[t.task_id for t in played], practice=practice.task_id)
    manifest = study.manifest
    (check,) = manifest.attention
    first, second = manifest.participants
    assert sorted(first.queue) == sorted(second.queue) == sorted([t.task_id for t in played] + [check])

    failing = StudyApp(open_study(study.folder))
    async with failing.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(failing.screen, EntryScreen))
        await pilot.press(*"nobody", "enter")  # an unknown id is said, and asked again
        await until(pilot, lambda: isinstance(failing.screen, EntryScreen) and not failing.screen.query_one(
            "#participant").value)
        await pilot.press(*first.token, "enter")
        seen = await walk(failing, pilot, default_world, tasks, wrong=True)
        assert seen[:2] == ["Consent", "Instructions"]
        assert "below the study's pass mark" in str(failing.screen.query_one("#study-body").render())
    qualified = read_progress(study, first.participant_id).qualified
    assert qualified is not None and qualified.score == 0.0 and not qualified.passed

    # the second participant's queue, in its own order; quit in the first shopping task after the practice
    shopping = [task for task in second.queue if task != check]
    app = StudyApp(open_study(study.folder), participant=second.participant_id)
    async with app.run_test(size=SIZE) as pilot:
        await walk(app, pilot, default_world, tasks, quit_in=shopping[0])
    progress = read_progress(study, second.participant_id)
    assert progress.qualified is not None and progress.qualified.passed and progress.practised
    assert shopping[0] not in progress.done

    app = StudyApp(open_study(study.folder), participant=second.participant_id)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.step is not None)
        assert app.step.task_id in (shopping[0], check)  # back at the task quit (or the check just before it)
        seen = await walk(app, pilot, default_world, tasks)
        body = str(app.screen.query_one("#study-body").render())
        assert f"Your completion code: {manifest.completion_code(second.participant_id)}" in body
    progress = read_progress(study, second.participant_id)
    assert set(progress.done) == set(second.queue) and progress.completed is not None
    assert progress.done[check].attention and progress.done[check].correct
    runs = study.episodes_dir(second.participant_id, "tasks")
    quit_episode = [read_trajectory(p) for p in iter_episode_files(runs) if read_trajectory(p).end.status ==
                    "abandoned"]
    assert len(quit_episode) == 1 and quit_episode[0].start.task_id == shopping[0]  # recorded, never counted
    counted = progress.done[shopping[0]]
    start = read_trajectory(episode_path(runs, counted.episode_id)).start
    assert start.agent.kind == "human" and start.agent.name == second.participant_id
    assert start.agent.details["participant"] == second.participant_id and counted.active_s > 0

    exported = export_study(open_study(study.folder), tmp_path / "out")
    mine, pooled = tmp_path / "out" / second.participant_id, tmp_path / "out" / "humans"
    assert exported.runs == [mine, pooled]
    assert read_manifest(mine).agent.kind == "human" and read_manifest(mine).benchmark == "shoppingbench"
    scores = episode_scores(score_run(mine))
    trajectories = {episode: read_trajectory(episode_path(mine, episode)) for episode in scores}
    assert sorted(t.start.task_id for t in trajectories.values()) == sorted(shopping)
    for episode, score in scores.items():  # each recommended its target, as the trajectory says
        trajectory = trajectories[episode]
        assert trajectory.end.recommended == tasks[trajectory.start.task_id].targets[0].product_id
        assert score.success and score.value == 1.0
    assert episode_scores(score_run(pooled)).keys() == scores.keys()  # the failed participant played no task
