"""Players through conversational episodes (issue 31), scored: the built-in agent loop with the scripted baselines
(the heuristic asks before it shops, natively and in the paper's text format; the oracle reaches 1.0 without asking;
naive never asks), and an installed agent (Claude Code from npm, driven by the heuristic through the loopback
bridge) asking the rules user over MCP exactly as the built-in loop does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from tests._agent_runs import run_cli

TASKS = ("product-0000", "shop-0000", "web-0000")
"""One task of each kind the heuristic solves by asking in the default world (a knowledge task needs no asking:
its opener keeps the question whole)."""


def play(world: Any, out: Path, *args: str) -> Path:
    """`shopbench run shoppingbench --user rules` on TASKS, in process."""
    ids = [arg for task in TASKS for arg in ("--task-id", task)]
    ran = run_cli("shoppingbench", "--user", "rules", *ids, "--world", str(world.root), "--out", str(out),
                  "--no-cache", *args)
    assert ran.exit_code == 0, ran.output
    return out


def steps_by_task(run_dir: Path) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {(t := read_trajectory(path)).start.task_id: [(s.tool, s.arguments) for s in t.steps]
            for path in iter_episode_files(run_dir)}


@pytest.fixture(scope="module")
def heuristic_run(default_world, tmp_path_factory) -> Path:
    return play(default_world, tmp_path_factory.mktemp("heuristic") / "run", "--model", "heuristic")


@pytest.fixture(scope="module")
def naive_run(default_world, tmp_path_factory) -> Path:
    return play(default_world, tmp_path_factory.mktemp("naive") / "run", "--model", "naive")


def test_the_heuristic_asks_about_each_kind_then_shops_and_is_scored(heuristic_run):
    manifest = read_manifest(heuristic_run)
    assert manifest.parameters["user"] == "rules" and manifest.parameters["stated"] == 1
    asked = 0
    for path in iter_episode_files(heuristic_run):
        trajectory = read_trajectory(path)
        tools = [step.tool for step in trajectory.steps]
        if trajectory.start.intent == "web":
            assert "ask_user" not in tools  # the question is in the opener: shopped for at once
            continue
        first_search = tools.index("find_product")
        assert set(tools[:first_search]) == {"ask_user"} and "ask_user" not in tools[first_search:]
        questions = " ".join(step.arguments["question"].lower() for step in trajectory.steps[:first_search])
        for kind in ("brand", "colour", "size", "price", "budget", "voucher", "shipping", "cash on delivery"):
            assert kind in questions, kind
        assert all(step.user is not None and step.user.user == "rules" and step.user.understood
                   for step in trajectory.steps[:first_search])
        asked += first_search
    result = score_run(heuristic_run)
    assert {s.intent: s.asr.value for s in result.intents} == {"product": 1.0, "shop": 1.0, "web": 1.0}
    talk = result.conversation
    assert talk is not None and talk.simulator_errors == []
    assert sum(e.questions for e in talk.episodes) == asked and all(e.unanswered == 0 for e in talk.episodes)
    for episode in talk.episodes:
        assert episode.uncovered == episode.held and episode.assumed == []  # it asked about everything it needed
    assert sum(len(e.held) for e in talk.episodes) > 0


def test_the_heuristic_asks_in_the_paper_format_too(default_world, heuristic_run, tmp_path):
    out = play(default_world, tmp_path / "paper", "--model", "heuristic", "--protocol", "paper")
    assert steps_by_task(out) == steps_by_task(heuristic_run)


def test_the_oracle_needs_no_questions_and_naive_asks_none(default_world, naive_run, tmp_path):
    for model, out in (("oracle", play(default_world, tmp_path / "oracle", "--model", "oracle")),
                       ("naive", naive_run)):
        result = score_run(out)
        assert result.conversation is not None
        assert all(episode.questions == 0 for episode in result.conversation.episodes)
        if model == "oracle":
            assert result.overall_asr.value == 1.0
        held = [e for e in result.conversation.episodes if e.held]
        assert held and all(e.uncovered == [] for e in held)


def test_an_installed_agent_asks_the_user_over_mcp(default_world, heuristic_run, tmp_path):
    """Claude Code carries the heuristic's questions to the server's `ask_user` and its answers back: the same steps
    as the built-in loop, the user's side recorded by the server, the same score and conversation measures."""
    out = tmp_path / "claude"
    ran = run_cli("shoppingbench", "--agent", "claude-code", "--model", "heuristic", "--user", "rules",
                  "--task-id", "product-0000", "--world", str(default_world.root), "--out", str(out), "--no-cache",
                  "--timeout", "120")
    assert ran.exit_code == 0, ran.output
    assert read_manifest(out).parameters["agent"] == "claude-code"
    played = steps_by_task(out)["product-0000"]
    assert played == steps_by_task(heuristic_run)["product-0000"]
    assert [tool for tool, _ in played].count("ask_user") >= 4
    (path,) = iter_episode_files(out)
    assert all(step.user is not None for step in read_trajectory(path).steps if step.tool == "ask_user")
    result, built_in = score_run(out), score_run(heuristic_run)
    assert result.conversation is not None and built_in.conversation is not None
    [agent] = result.conversation.episodes
    [same] = [e for e in built_in.conversation.episodes if e.task_id == "product-0000"]
    assert result.scores[0].success
    assert (agent.held, agent.uncovered, agent.questions, agent.assumed) == (same.held, same.uncovered,
                                                                             same.questions, same.assumed)


async def test_results_shows_the_measures_and_pairs_them(heuristic_run, naive_run):
    """`shopbench results`: the scoreboard's rows of all metrics hold the conversation measures, and the pairs
    compare them too when both runs had a user."""
    from textual.widgets import DataTable

    from shopbench_tui.results import ResultsApp

    app = ResultsApp([heuristic_run, naive_run])
    async with app.run_test(size=(160, 60)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("a")
        await pilot.pause()
        board = app.query_one("#board", DataTable)
        rows = [[str(cell) for cell in board.get_row_at(index)] for index in range(board.row_count)]
        uncovered = {row[3]: row[4] for row in rows if row[1] == "product" and row[2] == "uncovered"}
        assert uncovered == {"heuristic": "1.000", "naive": "0.000"}
        assert {row[2] for row in rows} >= {"questions", "unanswered", "assumed"}
    assert {m.metric for c in app.comparisons for m in c.metrics} >= {"ASR", "CAR", "uncovered", "assumed"}


def test_the_heuristic_reads_back_exactly_what_it_was_told(default_world, monkeypatch):
    """Over every shopping task of the default world: the instruction the heuristic hands its unchanged script,
    read by that script's own reader, states exactly the constraints the opener stated and the answers disclosed —
    each item's details, services and price bound, and one shop where the shop or a shop voucher was said."""
    from benchmarks.shoppingbench.conversation.profile import profile_of
    from benchmarks.shoppingbench.worldgen.heuristic import read_instruction
    from evaluators.players.baselines import conversational
    from mcp_server.shopping.conversation.rules_user import RulesUser

    handed: list[str] = []

    def shops(text: str, steps: int) -> Any:  # the script the questions end in: what it was handed is kept
        handed.append(text)
        yield "terminate", {"status": "failure"}

    monkeypatch.setattr(conversational, "heuristic_script", shops)
    for task in [t for t in default_world.tasks("generated") if t.intent != "web"]:
        profile = profile_of(task, default_world.products.get([t.product_id for t in task.targets]))
        user, told = RulesUser(profile), {c.key for c in profile.stated}
        script = conversational.asking_script(profile.opener)
        tool, arguments = next(script)
        while tool == "ask_user":
            answer = user.answer(arguments["question"])
            told.update(answer.turn.disclosed)
            tool, arguments = script.send(answer.text)
        known = [c for c in profile.constraints if c.key in told]
        reading = read_instruction(handed.pop())
        assert len(reading.items) == len(task.targets), task.task_id
        for index, spec in enumerate(reading.items):
            mine = [c for c in known if c.item == index]
            assert set(spec.pairs) == {(c.key.split(".")[2], c.value) for c in mine
                                       if c.kind in ("option", "attribute")}, task.task_id
            assert set(spec.services) == {c.value for c in mine if c.kind == "service"}, task.task_id
            price = task.targets[index].price
            assert spec.price_constraint() == (price[0] if price and any(c.kind == "price" for c in mine)
                                               else None), task.task_id
        shop_voucher = task.voucher is not None and task.voucher.voucher_type == "shop"
        assert reading.same_shop == any(c.kind == "shop" or c.kind == "voucher" and shop_voucher for c in known)
