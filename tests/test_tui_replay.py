"""Replay and results: the lazy run index, reading episodes step by step, comparing two runs, the score breakdown
in words (from the real ShoppingBench scorer), and the scoreboard of a human's QA run (played through the server)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from mcp import Client
from rich.console import Console

from benchmarks.shoppingbench.schema import Product
from benchmarks.shoppingbench.tasks import load_official
from evaluators.results.shoppingbench.rules import score_task
from mcp_server.trajectory import EndEvent, episode_path
from shopbench_tui.observations import classify
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.session import PlaySession
from shopbench_tui.replay import ReplayApp
from shopbench_tui.replay.screens import CompareScreen, EpisodeListScreen, EpisodeScreen
from shopbench_tui.results import ResultsApp
from shopbench_tui.runindex import load_run
from shopbench_tui.scores import episode_score, episode_scores, score_run
from shopbench_tui.testing import write_synthetic_run
from shopbench_tui.widgets import (
    EpisodePane,
    EpisodeTable,
    ProductCard,
    ProductTable,
    ScoreBreakdown,
    StepDetail,
    StepList,
    render_score,
)

SIZE = (160, 50)


def plain(renderable) -> str:
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.fixture
def run_a(tmp_path: Path) -> Path:
    return write_synthetic_run(tmp_path / "run-a", episodes=8, steps=6, agent="model-a")


@pytest.fixture
def run_b(tmp_path: Path) -> Path:
    return write_synthetic_run(tmp_path / "run-b", episodes=8, steps=4, agent="model-b", seed=1)


def test_index_reads_start_and_end_and_reports_bad_files(run_a: Path) -> None:
    unfinished = episode_path(run_a, "product-0000-e0")
    lines = unfinished.read_text(encoding="utf-8").splitlines()
    unfinished.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20], encoding="utf-8")  # torn end line
    (run_a / "episodes" / "zz-broken.jsonl").write_text("not json\n", encoding="utf-8")
    index = load_run(run_a)
    assert len(index.episodes) == 8 and index.manifest is not None and index.manifest.agent.name == "model-a"
    by_id = {e.episode_id: e for e in index.episodes}
    assert by_id["product-0000-e0"].status == "unfinished" and by_id["product-0000-e0"].steps is None
    assert by_id["shop-0000-e0"].status == "terminated" and by_id["shop-0000-e0"].steps == 6
    assert by_id["shop-0000-e0"].start.intent == "shop"
    assert len(index.problems) == 1 and "zz-broken.jsonl:1" in index.problems[0]


def test_observations_are_classified_for_reading() -> None:
    assert classify([{"product_id": "1", "title": "t", "price": 3.0}]).kind == "products"
    assert classify({"result": [{"product_id": "1", "description": "d", "sku_options": {}}]}).kind == "details"
    assert classify('[{"url": "u", "title": "t", "content": "c"}]').kind == "web"
    assert classify({"list_total": 10.0, "voucher_applies": True}).kind == "mapping"
    assert classify("unknown product id", is_error=True).kind == "error"
    assert classify([]).value == "(no results)"


async def test_filter_open_episode_and_move_between_steps(run_a: Path) -> None:
    app = ReplayApp([run_a], score=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.screen.query_one(EpisodeTable)
        assert table.row_count == 8
        await pilot.press("slash", *"intent:shop")
        await pilot.pause()
        assert table.row_count == 2 and isinstance(app.screen, EpisodeListScreen)
        assert [e.task_id for e in app.screen.shown] == ["shop-0000", "shop-0001"]
        await pilot.press("enter", "enter")  # leave the filter, open the highlighted episode
        await pilot.pause()
        assert isinstance(app.screen, EpisodeScreen) and app.screen.episode.task_id == "shop-0000"
        steps = app.screen.query_one(StepList)
        assert steps.row_count == 6
        detail = app.screen.query_one(StepDetail)
        assert "step 1 · find_product" in str(detail.query_one(".step-head").render())
        assert len(detail.query_one(ProductTable).rows) == 10  # a product list is a table, not JSON
        await pilot.press("n")
        await pilot.pause()
        assert "step 2 · view_product_information" in str(detail.query_one(".step-head").render())
        card = detail.query_one(ProductCard)
        assert card.product["sku_options"]["1"]["color"] == "black"
        assert "Step 1: I should use view_product_information" in str(detail.query_one(".step-thought").render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EpisodeListScreen)


async def test_compare_two_runs_side_by_side(run_a: Path, run_b: Path) -> None:
    app = ReplayApp([run_a, run_b], task="voucher-0001", score=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EpisodeListScreen) and app.screen.query_one(EpisodeTable).row_count == 2
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EpisodeScreen)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CompareScreen)
        left, right = app.screen.query(EpisodePane)
        assert {left.summary.run_dir.name, right.summary.run_dir.name} == {"run-a", "run-b"}
        assert left.query_one(StepList).row_count == 6 and right.query_one(StepList).row_count == 4
        await pilot.press("n", "n")
        await pilot.pause()
        assert left.query_one(StepList).cursor_row == 2 and right.query_one(StepList).cursor_row == 2


def _official(intent: str, pick=lambda task: True):
    return next(task for task in load_official() if task.intent == intent and pick(task))


def _exact(title_a: str, title_b: str) -> float:
    return 1.0 if title_a == title_b else 0.0


def _product(product_id: str, title: str, *, shop: str = "s1", price: float = 10.0, **fields) -> Product:
    return Product(product_id=product_id, shop_id=shop, title=title, price=price, **fields)


def test_breakdown_names_the_failed_constraint() -> None:
    shop = _official("shop")
    a, b = shop.targets[0], shop.targets[1]
    products = {a.product_id: _product(a.product_id, a.title[0], shop="s1"),
                b.product_id: _product(b.product_id, b.title[0], shop="s2")}
    ids = ",".join(t.product_id for t in shop.targets[:2])
    mixed = episode_score(score_task(shop, ids, products, _exact))
    if len(shop.targets) == 2:
        assert not mixed.success and mixed.failures == ["mixed shops"]
    missing = episode_score(score_task(shop, a.product_id, products, _exact))
    assert "missing product" in missing.failures and missing.products[1].misses == ["no id at this position"]

    voucher = _official("voucher", lambda t: len(t.targets) == 1)
    target = voucher.targets[0]
    dear = {target.product_id: _product(target.product_id, target.title[0], price=voucher.voucher.budget * 10)}
    over = episode_score(score_task(voucher, target.product_id, dear, _exact))
    assert over.failures == ["over budget"] and over.fields["budget"] == 0.0

    product = _official("product", lambda t: bool(t.targets[0].attributes))
    wanted = product.targets[0]
    plain = {"other": _product("other", wanted.title[0], sku_options={}, attributes={})}
    wrong = episode_score(score_task(product, "other", plain, _exact))
    assert wrong.failures == ["wrong attribute"] and any("not found" in m for m in wrong.products[0].misses)

    web = _official("web")
    unrelated = {"x": _product("x", "something else entirely", description="nothing")}
    knowledge = episode_score(score_task(web, "x", unrelated, _exact))
    assert "knowledge miss" in knowledge.failures and knowledge.fields["kw"] == 0.0


async def _play_qa(runs: Path, answers: dict[str, str], player: str) -> None:
    """Answer question items through the server as a human would (submit_answer over the MCP client)."""
    server = build_play_server("shopping-mmlu", runs)
    async with Client(server, mode="legacy") as client:
        session = PlaySession(client, player)
        for task_id, answer in answers.items():
            await session.start(task_id)
            await session.act("submit_answer", {"answer": answer})


async def test_scores_fill_in_and_scoreboard_puts_humans_with_models(tmp_path: Path) -> None:
    human, other = tmp_path / "human-ana", tmp_path / "human-ben"
    await _play_qa(human, {"sample-00": "1", "sample-01": "9"}, "ana")
    await _play_qa(other, {"sample-00": "0"}, "ben")
    result = score_run(human)
    by_episode = episode_scores(result)
    assert sorted(s.success for s in by_episode.values()) == [False, True]

    app = ReplayApp([human], score=True)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        rows = [app.screen.query_one(EpisodeTable).get_row_at(i) for i in range(2)]
        assert sorted(str(row[7]) for row in rows) == ["no", "yes"]
        await pilot.press("slash", *"success:yes", "enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EpisodeScreen) and app.screen.episode.task_id == "sample-00"
        breakdown = app.screen.query_one(EpisodePane).query_one(ScoreBreakdown)
        assert breakdown.score is not None and breakdown.score.success
        assert "SUCCESS" in plain(render_score(breakdown.score))

    board = ResultsApp([human, other])
    async with board.run_test(size=SIZE) as pilot:
        await board.workers.wait_for_complete()
        await pilot.pause()
        table = board.query_one("#board")
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        overall = {str(row[3]): row for row in rows if row[1] == "overall"}
        assert set(overall) == {"ana", "ben"} and str(overall["ana"][7]) == "human"
        # two and one of the 28 bundled items were played: no overall, the coverage instead; the task rows keep values
        assert [overall[name][4:6] for name in ("ana", "ben")] == [["partial 2/28", ""], ["partial 1/28", ""]]
        task = {str(row[3]): row[4] for row in rows if row[1] == "sample_unit_conversion"}
        assert task == {"ana": "0.500", "ben": "0.000"}


def test_end_event_shape_matches_index(run_a: Path) -> None:
    episode = load_run(run_a).episodes[0]
    assert isinstance(episode.end, EndEvent) and episode.load().end == episode.end
