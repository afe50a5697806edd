"""People in a conversation's seats, with Textual's pilot: (a) a person as the shopper (`play --as-user`) answers an
agent's questions until it recommends, the answers recorded as the user's turns and the episode scored; (b) a person
as the agent asks the rules shopper with `ask_user` in a conversational task."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Input
from typer.testing import CliRunner

from benchmarks.shoppingbench.worldgen.reading import target_pairs
from evaluators.harness.config import RunConfig
from mcp_server.environment import open_environment
from mcp_server.shopping.conversation.rules_user import RULES, RulesUser
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app as cli
from shopbench_tui.play import PlayApp
from shopbench_tui.play.as_user import AsUserApp
from shopbench_tui.play.as_user_screen import AsUserScreen
from shopbench_tui.play.ask_user import AskShopperScreen
from shopbench_tui.play.screens import EndScreen, ShoppingScreen
from shopbench_tui.widgets import ObservationView, ScoreBreakdown
from tests._agent_runs import COMMAND
from tests._asker import QUESTIONS

SIZE = (160, 50)


@pytest.fixture(scope="module")
def product_task(default_world):
    """A generated one-product task holding back a colour or a price, which the asker's questions are about."""
    return next(t for t in default_world.tasks("generated") if t.intent == "product" and len(t.targets) == 1
                and (t.targets[0].price or "color_family" in dict(target_pairs(t.targets[0]))))


async def until(pilot, condition, limit: float = 90.0) -> None:
    waited = 0.0
    while not condition():
        assert waited < limit, "the app did not get there"
        await pilot.pause(0.05)
        waited += 0.05


async def settle(pilot) -> None:
    await pilot.pause()
    await until(pilot, lambda: not any(w.is_running for w in pilot.app.workers if w.group != "connection"))
    await pilot.pause()


def answer_as_shopper(profile, question: str) -> tuple[str, list[str]]:
    """What a person reading their profile answers (the held value the question is about, else no preference), and
    the key of the constraint that answer gives."""
    words = question.lower()
    for constraint in profile.held:
        if constraint.name in words or (constraint.kind in ("price", "budget") and "budget" in words):
            return f"{constraint.value}, please", [constraint.key]
    return "I have no preference about that", []


@pytest.mark.parametrize(("agent", "model"),
                         [(None, "asker"), (COMMAND, "asker"), (None, "heuristic"), (COMMAND, "heuristic")],
                         ids=["agent-loop", "installed-agent", "heuristic", "installed-heuristic"])
async def test_a_person_answers_the_agents_questions_as_the_shopper(agent, model, default_world, product_task,
                                                                   tmp_path: Path):
    """The scripted asker asks QUESTIONS; the heuristic baseline asks about each kind of constraint it offers."""
    runs = tmp_path / "runs"
    config = RunConfig("shoppingbench", model, task_ids=[product_task.task_id], out=runs, cache=False,
                       world=default_world.root, agent=agent, episode_timeout_s=120.0 if agent else None, stated=0)
    app = AsUserApp(config, product_task.task_id, world=default_world.root, person="eva")
    answers: list[str] = []
    given: list[list[str]] = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, AsUserScreen))
        screen = app.screen
        field = screen.query_one("#answer", Input)
        while True:  # answer every question until the agent is done
            await until(pilot, lambda: app.ending is not None or not field.disabled)
            if app.ending is not None:
                break
            profile = screen.profile
            assert profile is not None and "Say only when asked" in str(screen.query_one("#profile").render())
            question = str(screen.query_one("#question").render()).removeprefix("The agent asks: ")
            answer, keys = answer_as_shopper(profile, question)
            answers.append(answer)
            given.append(keys)
            field.value = answers[-1]
            await pilot.press("enter")
        await pilot.pause()
        log = "\n".join(str(line.text) for line in screen.query_one("#steps").lines)
        assert "ask_user" in log and "recommend_product" in log  # the agent's steps were shown as they came
        assert screen.query_one("#score", ScoreBreakdown).score is not None

    (path,) = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    asks = [step for step in trajectory.steps if step.tool == "ask_user"]
    assert len(asks) == len(QUESTIONS) if model == "asker" else asks
    assert [step.observation for step in asks] == answers  # the person's words, read by the agent
    assert [step.user.disclosed for step in asks if step.user] == given and any(given)  # what the words gave away
    assert all(step.user is not None and step.user.user == "person" for step in asks)
    assert [step.tool for step in trajectory.steps][-2:] == ["recommend_product", "terminate"]
    parameters = read_manifest(runs).parameters
    assert (parameters["user"], parameters["user_person"], parameters["stated"]) == ("person", "eva", 0)


async def test_quitting_while_the_agent_waits_for_an_answer_abandons_the_episode(default_world, product_task,
                                                                                   tmp_path: Path):
    runs = tmp_path / "runs"
    config = RunConfig("shoppingbench", "asker", task_ids=[product_task.task_id], out=runs, cache=False,
                       world=default_world.root)
    app = AsUserApp(config, product_task.task_id, world=default_world.root)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, AsUserScreen))
        field = app.screen.query_one("#answer", Input)
        await until(pilot, lambda: not field.disabled)
        await pilot.press("ctrl+q")
    (path,) = iter_episode_files(runs)
    for _ in range(100):  # the run's thread ends the episode once its client is gone
        trajectory = read_trajectory(path)
        if trajectory.end is not None:
            break
        time.sleep(0.05)
    assert trajectory.end is not None and trajectory.end.status == "abandoned"
    assert [step.tool for step in trajectory.steps] == ["ask_user"] and trajectory.steps[0].user is None


async def test_a_person_playing_the_agent_asks_the_rules_shopper(default_world, product_task, tmp_path: Path):
    runs = tmp_path / "runs"
    environment = open_environment(["shoppingbench"], runs_dir=runs, world=default_world.root, user=RULES)
    profile = environment.suites[0].profile(product_task.task_id)  # type: ignore[attr-defined]
    held = profile.held[0]
    question = f"What about the {held.name}?"
    app = PlayApp(environment.server, runs, player="dee", task_id=product_task.task_id, clock=lambda: 0.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ShoppingScreen))
        assert str(app.screen.query_one("#instruction").render()) == profile.opener
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, AskShopperScreen)
        app.screen.query_one("#question", Input).value = question
        await pilot.press("enter")
        await settle(pilot)
        shown = str(app.screen.query_one(ObservationView).children[0].render())
        assert RulesUser(profile).answer(question).text in shown
        await pilot.press("escape", "ctrl+t", "f")
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert app.screen.query_one(ScoreBreakdown).score is not None

    (path,) = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps] == ["ask_user", "terminate"]
    turn = trajectory.steps[0].user
    assert turn is not None and turn.user == "rules" and held.key in turn.disclosed
    assert read_manifest(runs).parameters["user"] == "rules"


@pytest.mark.parametrize(("arguments", "refusal"), [
    ([], "--as-user plays one task: give --task ID or --random"),
    (["--benchmark", "intentionqa", "--random"], "intentionqa cannot be played as a conversation"),
    (["--task", "no-such-task"], "no-such-task"),
    (["--random", "--user", "rules"], "--as-user puts you in the user's seat: drop --user"),
])
def test_play_as_user_refuses_what_it_cannot_play_before_the_app_starts(arguments, refusal, default_world,
                                                                        tmp_path: Path):
    ran = CliRunner().invoke(cli, ["play", "--as-user", "--model", "asker", "--world", str(default_world.root),
                                   "--runs", str(tmp_path / "runs"), *arguments])
    assert ran.exit_code == 2 and refusal in " ".join(ran.output.split()), ran.output
    assert not (tmp_path / "runs" / "episodes").exists()
