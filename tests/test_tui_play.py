"""Play through the UI with Textual's pilot: a ShoppingBench task of the default world from search to terminate,
and a question item, each recorded by the MCP server as a human's trajectory and scored by the real scorer."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from shopbench_tui.help import HelpScreen
from shopbench_tui.play import PlayApp
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.screens import (
    CalculatorScreen,
    ConfirmAnswerScreen,
    ConfirmQuitScreen,
    EndScreen,
    ProductPage,
    QuestionScreen,
    ShoppingScreen,
    TaskPickerScreen,
    TerminateScreen,
    parse_options,
)
from shopbench_tui.play.widgets import BasketTable, SearchForm, StatusBar
from shopbench_tui.replay import ReplayApp
from shopbench_tui.scores import episode_scores, score_run
from shopbench_tui.widgets import EpisodePane, ObservationView, ProductCard, ProductTable, ScoreBreakdown, StepList

SIZE = (160, 50)


@pytest.fixture(scope="module")
def shop_task(default_world):
    """A generated two-product shop task of the default world (the test reads its targets; the player never does)."""
    return next(t for t in default_world.tasks("generated") if t.intent == "shop" and len(t.targets) == 2)


def confirm_text(app) -> str:
    return str(app.screen.query_one("#confirm-question").render())


async def settle(pilot) -> None:
    """Wait for the tool calls and scoring in flight (not for the connection, which lives as long as the app)."""
    await pilot.pause()
    await until(pilot, lambda: not any(w.is_running for w in pilot.app.workers if w.group != "connection"))
    await pilot.pause()


async def until(pilot, condition, limit: float = 60.0) -> None:
    """Pause until the app reaches a state (the first screen appears once the MCP connection is up)."""
    waited = 0.0
    while not condition():
        assert waited < limit, "the app did not get there"
        await pilot.pause(0.05)
        waited += 0.05


async def search(pilot, query: str, **fields: str) -> ProductTable:
    """Fill the search form with the keyboard and press enter."""
    await pilot.press("ctrl+f")
    screen = pilot.app.screen
    for widget_id in ("q", "shop", "price-lo", "price-hi"):
        screen.query_one(f"#{widget_id}").value = ""
    screen.query_one("#q").value = query
    for widget_id, value in fields.items():
        screen.query_one(f"#{widget_id}").value = value
    screen.query_one("#q").focus()
    await pilot.press("enter")
    await settle(pilot)
    return screen.query_one("#results", ProductTable)


async def highlight(pilot, table: ProductTable, product_id: str) -> None:
    """Move the results cursor onto a product, as a person would with the arrow keys."""
    ids = [str(key.value).split(":", 1)[1] for key in table.rows]
    assert product_id in ids, f"{product_id} not on this page: {ids}"
    table.focus()
    table.move_cursor(row=0)
    for _ in range(ids.index(product_id)):
        await pilot.press("down")
    assert table.product_id_at_cursor() == product_id


async def test_play_shopping_task_to_the_end(default_world, shop_task, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    first, second = shop_task.targets
    app = PlayApp(build_play_server("shoppingbench", runs), runs, player="ana", task_id=shop_task.task_id,
                  clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen))
        assert shop_task.query in str(app.screen.query_one("#instruction").render())

        # the second product first, then the first one with filters; the basket is put in order afterwards (other
        # shops resell the same titles, so even the second is searched within its shop and at its price)
        listing = default_world.products.get([second.product_id])[second.product_id]
        table = await search(pilot, second.title[0], shop=listing.shop_id,
                             **{"price-lo": f"{listing.price:g}", "price-hi": f"{listing.price:g}"})
        await highlight(pilot, table, second.product_id)
        await pilot.press("a")
        shop_id = listing.shop_id
        fields = {"shop": shop_id}
        if first.price:
            (mode, (low, high)), = first.price[0].items()
            fields.update({"price-lo": str(low or ""), "price-hi": "" if high is None else str(high)})
        await pilot.press("ctrl+f")
        for service in first.service or []:
            app.screen.query_one(f"#service-{service}").value = True
        table = await search(pilot, first.title[0], **fields)
        rows = [table.row_values(i) for i in range(table.row_count)]
        assert rows and all(row["shop_id"] == shop_id for row in rows)  # the shop filter held
        await highlight(pilot, table, first.product_id)
        await pilot.press("v")
        await settle(pilot)
        card = app.screen.query_one("#detail", ObservationView).query_one(ProductCard)
        assert card.product["product_id"] == first.product_id and "description" in card.product
        await pilot.press("a", "ctrl+b", "shift+up")
        basket = app.screen.query_one(BasketTable)
        assert basket.product_ids() == f"{first.product_id},{second.product_id}"

        await pilot.press("ctrl+k")
        assert isinstance(app.screen, CalculatorScreen)
        await pilot.press(*"120+89.5", "enter")
        await settle(pilot)
        assert "209.5" in str(app.screen.query_one(ObservationView).children[0].render())
        await pilot.press("escape", "ctrl+e")
        await settle(pilot)
        assert "recommend_product" in str(app.screen.query_one("#last-action").render())
        assert "step 5/30" in str(app.screen.query_one(StatusBar).render())
        await pilot.press("ctrl+t")
        assert isinstance(app.screen, TerminateScreen)
        await pilot.press("s")
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        breakdown = app.screen.query_one(ScoreBreakdown)
        assert breakdown.score is not None and breakdown.score.success, breakdown.score

    (path,) = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    assert trajectory.start.agent.kind == "human" and trajectory.start.agent.name == "ana"
    assert [s.tool for s in trajectory.steps] == ["find_product", "find_product", "view_product_information",
                                                  "calculate", "recommend_product", "terminate"]
    filtered = trajectory.steps[1].arguments
    assert filtered["shop_id"] == shop_id and filtered["page"] == 1
    assert trajectory.end is not None and trajectory.end.status == "terminated"
    assert trajectory.end.recommended == f"{first.product_id},{second.product_id}"
    assert read_manifest(runs).agent.kind == "human"
    (score,) = episode_scores(score_run(runs)).values()
    assert score.success and score.fields["shop"] == 1.0

    replay = ReplayApp([runs])  # the human's episode reads back like any agent's, scored
    async with replay.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not any(w.is_running for w in replay.workers))
        await pilot.press("enter")
        await pilot.pause()
        pane = replay.screen.query_one(EpisodePane)
        assert pane.query_one(StepList).row_count == 6 and pane.summary.player == "human:ana"
        assert pane.query_one(ScoreBreakdown).score.success


async def test_play_question_item_with_option_keys(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shopping-mmlu", runs), runs, player="ben", benchmark="shopping-mmlu",
                  task_id="sample-00", clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert [key for key, _ in app.screen.options] == ["0", "1", "2", "3"]
        await pilot.press("1")  # "32 ounces": 2 pounds in ounces; asked first, then submitted
        assert isinstance(app.screen, ConfirmAnswerScreen) and "1  32 ounces" in confirm_text(app)
        await pilot.press("enter")
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        score = app.screen.query_one(ScoreBreakdown).score
        assert score is not None and score.success and score.value == 1.0
        answer = str(app.screen.query_one("#end-answer").render())
        assert "your answer:    1 · 32 ounces" in answer and "correct answer: 1 · 32 ounces" in answer
    (path,) = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    assert trajectory.end is not None and trajectory.end.status == "submitted" and trajectory.end.answer == "1"
    assert trajectory.start.agent.kind == "human" and [s.tool for s in trajectory.steps] == ["submit_answer"]


async def test_task_picker_and_free_text_answer(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shopping-mmlu", runs), runs, player="cy", benchmark="shopping-mmlu",
                  clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TaskPickerScreen) and app.focused is not None
                    and app.focused.id == "tasks")
        await pilot.press("slash", *"sample-01", "enter", "enter")
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.session.task["task_id"] == "sample-01"
        await pilot.press("ctrl+a", *"my answer", "enter")
        assert isinstance(app.screen, ConfirmAnswerScreen) and "my answer" in confirm_text(app)
        await pilot.press("y")
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert "correct answer: 0 · 3 liters" in str(app.screen.query_one("#end-answer").render())
    (path,) = iter_episode_files(runs)
    assert read_trajectory(path).end.answer == "my answer"


def test_options_are_read_from_question_prompts() -> None:
    assert parse_options("Q?\nA. red\nB. blue\nAnswer A or B") == [("A", "red"), ("B", "blue")]
    inline = "Which?\n\nA. Yes: sure. B. Maybe yes: hm. C. Maybe no: eh. D. No: never.\n\nYour Answer:"
    assert [key for key, _ in parse_options(inline)] == ["A", "B", "C", "D"]
    assert parse_options("Write a title for this product.") == []


@pytest.mark.parametrize("width", [120, 80])
async def test_results_show_the_title_and_price_at_80_columns_and_every_column_at_120(default_world, shop_task,
                                                                                    tmp_path, width: int) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shoppingbench", runs), runs, player="ana", task_id=shop_task.task_id,
                  clock=lambda: 0.0)
    async with app.run_test(size=(width, 45)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen))
        table = await search(pilot, shop_task.targets[0].title[0])
        assert table.row_count > 0
        headers = [str(column.label) for column in table.columns.values()]
        if width >= 120:
            assert headers[:6] == ["product_id", "price", "sold", "service", "shop_id", "title"]
        else:  # the title, the column people choose by, stays; the others follow it (scroll right)
            assert headers[:6] == ["price", "title", "service", "sold", "shop_id", "product_id"]
        visible = 5 if width >= 120 else 2
        shown = sum(column.get_render_width(table) for column in list(table.columns.values())[:visible])
        assert shown <= table.scrollable_content_region.width, (width, shown, table.size)
        row = table.row_values(0)
        product = default_world.products.get([row["product_id"]])[row["product_id"]]
        assert row["price"] == f"{product.price:,.2f}" and row["service"] == " ".join(product.service or [])
        assert product.title.startswith(row["title"].rstrip("…"))
        assert app.screen.has_class("-narrow") == (width < 120)


async def test_focused_service_checkbox_shows_label_and_state_without_colour(shop_task, tmp_path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shoppingbench", runs), runs, player="ana", task_id=shop_task.task_id,
                  clock=lambda: 0.0)
    async with app.run_test(size=(120, 45)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen) and app.focused is not None
                    and app.focused.id == "q")
        box = app.screen.query_one("#service-COD")
        assert str(box.render()).rstrip() == " [ ] COD"
        box.focus()
        await pilot.pause()
        assert str(box.render()).rstrip() == "▸[ ] COD" and box.size.height == 1 and box.size.width >= len("▸[ ] COD")
        await pilot.press("space")
        await pilot.pause()
        assert box.value and str(box.render()).rstrip() == "▸[x] COD"
        assert app.screen.query_one(SearchForm).arguments()["service"] == "COD"
        await pilot.press("tab")  # focus moves on: the marker goes, the state stays readable
        assert str(box.render()).rstrip() == " [x] COD"


async def test_quit_asks_while_an_episode_runs_and_is_in_help(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shopping-mmlu", runs), runs, player="dee", benchmark="shopping-mmlu",
                  task_id="sample-00", clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        assert ("^q", "quit") in app.screen.keys
        await pilot.press("escape", "ctrl+q")
        assert isinstance(app.screen, ConfirmQuitScreen) and "step 0/3" in confirm_text(app)
        await pilot.press("n")  # keep playing
        assert isinstance(app.screen, QuestionScreen) and app.is_running
        await pilot.press("ctrl+q", "y")
        await until(pilot, lambda: not app.is_running)
    (path,) = iter_episode_files(runs)
    end = read_trajectory(path).end
    assert end is not None and end.status == "abandoned"


async def test_quit_without_a_running_episode_does_not_ask(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shopping-mmlu", runs), runs, player="eve", benchmark="shopping-mmlu",
                  clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TaskPickerScreen))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running)
    assert not list(iter_episode_files(runs))


async def test_entities_decoded_for_reading_but_answers_submitted_as_given(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("intentionqa", runs), runs, player="fay", benchmark="intentionqa",
                  task_id="task2:FS_37", clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert "&quot;" in app.session.task["instruction"]  # the item as served
        shown = str(app.screen.query_one("#question-text").render())
        buttons = " ".join(str(b.label) for b in app.screen.query(".option"))
        for text in (shown, buttons):
            assert "&quot;" not in text and "&amp;" not in text and "&ndash;" not in text
        assert 'Speaker Stands, 24", Black' in buttons and "Big & Tall Men's" in buttons and "Cylinder – Universal" \
            in buttons
        await pilot.press("ctrl+a", *"R&amp;D", "enter")
        assert isinstance(app.screen, ConfirmAnswerScreen)
        await pilot.press("escape")  # back: nothing submitted
        assert isinstance(app.screen, QuestionScreen) and app.session.steps == 0
        app.screen.query_one("#option-C").focus()
        await pilot.press("d")  # option D by its key, confirmed
        assert isinstance(app.screen, ConfirmAnswerScreen) and "D  Big & Tall Men's" in confirm_text(app)
        await pilot.press("enter")
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        answer = str(app.screen.query_one("#end-answer").render())
        assert "your answer:    D · Big & Tall Men's" in answer
        assert "correct answer: C · Sterling Silver Swarovski Elements Multi-Teardrop Earrings" in answer
    (path,) = iter_episode_files(runs)
    assert read_trajectory(path).end.answer == "D"


def test_play_without_player_names_the_default_and_uses_it(tmp_path: Path) -> None:
    import getpass

    from typer.testing import CliRunner

    from shopbench.cli import app

    result = CliRunner().invoke(app, ["play", "--benchmark", "shopping-mmlu", "--task", "no-such-item",
                                      "--runs", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert f"playing as {getpass.getuser()!r} (the OS user; give --player NAME to choose)" in result.output


async def test_a_product_page_opens_over_the_screen_at_80_columns(default_world, shop_task, tmp_path) -> None:
    """Too narrow to read it beside the results: the page opens over them, whole, and esc goes back."""
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shoppingbench", runs), runs, player="ana", task_id=shop_task.task_id,
                  clock=lambda: 0.0)
    async with app.run_test(size=(80, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen))
        table = await search(pilot, shop_task.targets[0].title[0])
        chosen = table.product_id_at_cursor()
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, ProductPage))
        await settle(pilot)
        (card,) = app.screen.query(ProductCard)
        assert card.product["product_id"] == chosen and card.size.width >= 70
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen))
