"""The TUI's screens keep Textual's rule "attributes down, messages up": what a screen shows is handed to it when it is
built, and what the app must do next goes up as a message, which the app answers. The one use of `self.app` left to a
screen or widget is opening its own dialog (`self.app.push_screen(dialog, callback)`: the dialog answers by being
dismissed)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from shopbench_tui.play import PlayApp
from shopbench_tui.play.runner import build_play_server
from shopbench_tui.play.screens import EndScreen, QuestionScreen, TaskPickerScreen
from tests.test_tui_play import settle, until

TUI = Path(__file__).resolve().parents[1] / "shopbench_tui"


def app_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for each `self.app` in the source other than a call of `self.app.push_screen`."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr == "app" and isinstance(node.value, ast.Name)
                and node.value.id == "self"):
            continue
        used = parents[node]
        opens_dialog = (isinstance(used, ast.Attribute) and used.attr == "push_screen"
                        and isinstance(parents[used], ast.Call) and parents[used].func is used)
        if not opens_dialog:
            found.append((node.lineno, ast.unparse(used)))
    return sorted(found)


def test_screens_neither_write_into_nor_drive_their_app() -> None:
    uses = [f"{path.relative_to(TUI.parent)}:{line}: {what}" for path in sorted(TUI.rglob("*.py"))
            for line, what in app_uses(path.read_text())]
    assert not uses, "pass it down at construction, or post a message up:\n" + "\n".join(uses)


def test_the_check_sees_a_write_a_call_and_a_read() -> None:
    source = ("class S:\n    def f(self):\n        self.app.answer = 1\n        self.app.begin(2)\n"
              "        x = self.app.rng\n        self.app.push_screen(D(), self.f)\n")
    assert [line for line, _ in app_uses(source)] == [3, 4, 5]


async def test_the_play_app_answers_its_screens_messages(tmp_path: Path) -> None:
    """A task chosen on the picker starts it; the answer step ends it on the end screen, with the answer it posted;
    n there (another task) shows the picker again, whose r draws with the app's seeded generator."""
    runs = tmp_path / "runs"
    app = PlayApp(build_play_server("shopping-mmlu", runs), runs, player="gil", benchmark="shopping-mmlu", seed=3,
                  clock=lambda: 0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TaskPickerScreen) and app.focused is not None)
        await pilot.press("enter")  # TaskPickerScreen.Chosen: the first task
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.session.task["task_id"] == app.tasks[0]["task_id"]
        await pilot.press("2", "y")  # EpisodeScreen.Acted (submit_answer): the end follows, with the answer kept
        await settle(pilot)
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert app.answer == "2"
        await pilot.press("n")  # EndScreen.AnotherTask
        await until(pilot, lambda: isinstance(app.screen, TaskPickerScreen))
        await pilot.press("r")  # TaskPickerScreen.Chosen, drawn with the app's generator
        await until(pilot, lambda: isinstance(app.screen, QuestionScreen))
        assert app.session.task["task_id"] == random.Random(3).choice(app.tasks)["task_id"]
