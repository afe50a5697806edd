"""Snapshots of the main screens (pytest-textual-snapshot). Regenerate with `--snapshot-update` only after
reviewing the report. Timers are frozen (clock=0), runs are synthetic or played with fixed answers, sizes fixed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from shopbench_tui.play import PlayApp
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.screens import QuestionScreen, ShoppingScreen
from shopbench_tui.replay import ReplayApp
from shopbench_tui.results import ResultsApp
from shopbench_tui.testing import write_synthetic_run
from tests.test_tui_play import settle, until

SIZE = (150, 45)


def shopping_search(default_world, runs: Path, *, view: bool):
    """A play app on a product task of the default world, and the steps that bring it to the snapshot: the task's
    first target searched by its title from the search form (then the first result viewed, with `view`)."""
    task = next(t for t in default_world.tasks("generated") if t.intent == "product")
    app = PlayApp(build_play_server("shoppingbench", runs), runs, player="snap", task_id=task.task_id,
                  clock=lambda: 0.0)

    async def steps(pilot) -> None:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen) and app.focused is not None
                    and app.focused.id == "q")
        app.screen.query_one("#q").value = task.targets[0].title[0]
        app.screen.query_one("#q").focus()
        await pilot.press("enter")
        await settle(pilot)
        if view:
            await pilot.press("v")
            await settle(pilot)

    return app, steps


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    return (write_synthetic_run(tmp_path / "run-a", episodes=12, steps=6, agent="model-a"),
            write_synthetic_run(tmp_path / "run-b", episodes=12, steps=4, agent="model-b", seed=1))


def test_replay_episode_list(snap_compare, runs) -> None:
    assert snap_compare(ReplayApp(list(runs), score=False), terminal_size=SIZE)


def test_replay_episode_steps(snap_compare, runs) -> None:
    assert snap_compare(ReplayApp([runs[0]], score=False), press=["down", "enter", "_", "n"], terminal_size=SIZE)


def test_replay_compare(snap_compare, runs) -> None:
    app = ReplayApp(list(runs), task="shop-0001", score=False)
    assert snap_compare(app, press=["enter", "_", "c", "_", "n"], terminal_size=SIZE)


def test_replay_help(snap_compare, runs) -> None:
    assert snap_compare(ReplayApp([runs[0]], score=False), press=["question_mark"], terminal_size=SIZE)


def test_play_shopping_search(snap_compare, default_world, tmp_path: Path) -> None:
    app, search_and_view = shopping_search(default_world, tmp_path / "runs", view=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=search_and_view)


def test_play_question(snap_compare, tmp_path: Path) -> None:
    app = PlayApp(build_play_server("intentionqa", tmp_path / "runs"), tmp_path / "runs", player="snap",
                  benchmark="intentionqa", task_id="task1:FS_1", clock=lambda: 0.0)

    async def ready(pilot) -> None:
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


def test_results_scoreboard(snap_compare, tmp_path: Path) -> None:
    from shopbench_tui.play.session import PlaySession

    async def answer(runs: Path, player: str, answers: dict[str, str]) -> None:
        from mcp import Client

        async with Client(build_play_server("shopping-mmlu", runs), mode="legacy") as client:
            session = PlaySession(client, player)
            for task_id, text in answers.items():
                await session.start(task_id, episode_id=f"{player}-{task_id}")
                await session.act("submit_answer", {"answer": text})

    asyncio.run(answer(tmp_path / "human-ana", "ana", {"sample-00": "1", "sample-01": "2", "sample-02": "0"}))
    asyncio.run(answer(tmp_path / "human-ben", "ben", {"sample-00": "0", "sample-01": "1"}))
    app = ResultsApp([tmp_path / "human-ana", tmp_path / "human-ben"])
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


# ---- the first hour: the screens at 80 and 160 columns -------------------------------------------------------------

WIDTHS = {"80": (80, 40), "160": (160, 45)}


@pytest.mark.parametrize("width", WIDTHS)
def test_play_product_page_at_width(snap_compare, default_world, tmp_path: Path, width: str) -> None:
    """80 columns: the results lead with price and title, the product page opens over the screen, the key hints fit;
    160: every column, the page beside the basket."""
    app, search_and_view = shopping_search(default_world, tmp_path / "runs", view=True)
    assert snap_compare(app, terminal_size=WIDTHS[width], run_before=search_and_view)


@pytest.mark.parametrize("width", WIDTHS)
def test_play_results_at_width(snap_compare, default_world, tmp_path: Path, width: str) -> None:
    app, search = shopping_search(default_world, tmp_path / "runs", view=False)
    assert snap_compare(app, terminal_size=WIDTHS[width], run_before=search)


@pytest.fixture(scope="module")
def partial_runs(default_world, tmp_path_factory) -> list[Path]:
    """Two baselines on one task per intent of the default world: 4 of its 400 tasks each."""
    from evaluators.harness.run import RunConfig, run_benchmark

    folder = tmp_path_factory.mktemp("partial")
    runs = []
    for name in ("heuristic", "random"):
        config = RunConfig(benchmark="shoppingbench", model=name, world=default_world.root, limit=1, cache=False,
                           out=folder / name)
        asyncio.run(run_benchmark(config))
        runs.append(folder / name)
    return runs


@pytest.mark.parametrize("width", WIDTHS)
def test_results_partial_coverage_at_width(snap_compare, partial_runs, width: str) -> None:
    """The leaderboard shows a partial run's coverage whole ("partial 4/400") right after the score."""
    assert snap_compare(ResultsApp(partial_runs), terminal_size=WIDTHS[width], run_before=settle)


@pytest.mark.parametrize("width", WIDTHS)
def test_replay_voucher_rules_at_width(snap_compare, tmp_path: Path, width: str) -> None:
    """A voucher task's instruction box holds its rules whole."""
    run = write_synthetic_run(tmp_path / "run-v", episodes=4, steps=4, agent="model-v", voucher_rules=True)
    app = ReplayApp([run], task="voucher-0000", score=False)
    assert snap_compare(app, terminal_size=WIDTHS[width])
