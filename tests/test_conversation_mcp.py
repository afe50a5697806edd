"""A conversational episode through the official `mcp` client, in memory on the real server: `ask_user` is listed
only in the conversational task set, its answers are observations and its user turns are in the trajectory, the
episode scores as the task's own; a plain task set lists no ask_user and its trajectory has no "user" key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client

from benchmarks.shoppingbench.conversation.wording import read_answer
from mcp_server.environment import open_environment
from mcp_server.shopping.conversation.rules_user import RULES
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory

QUESTIONS = {"option": "What {name} would you like?", "attribute": "What {name} would you like?",
             "price": "What's your budget?", "service": "Do you need {name}?"}


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


async def call(client: Client, tool: str, arguments: dict) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, text_of(result)
    return result


async def test_an_agent_asks_recommends_and_the_episode_scores_as_the_task(default_world, tmp_path: Path) -> None:
    from evaluators.results.scoring import ScoreOptions, score_run

    runs = tmp_path / "runs"
    environment = open_environment(["shoppingbench"], runs_dir=runs, world=default_world, user=RULES, stated=0)
    [suite] = environment.suites
    task_id = next(listing.task_id for listing in suite.listings() if listing.intent == "product"
                   and len(suite.profile(listing.task_id).held) >= 2)
    profile, task = suite.profile(task_id), suite.task(task_id)
    async with Client(environment.server, mode="legacy") as client:
        assert "ask_user" in {tool.name for tool in (await client.list_tools()).tools}
        started = json.loads(text_of(await call(client, "start_task", {"task_id": task_id})))
        assert started["instruction"] == profile.opener != task.query and "ask_user" in started["tools"]
        heard: list[tuple[str, str]] = []
        for constraint in profile.held:
            question = QUESTIONS[constraint.kind].format(name=constraint.name)
            answer = await call(client, "ask_user", {"question": question})
            assert answer.structured_content["result"] == text_of(answer)  # the text only, never the turn
            heard += read_answer(text_of(answer))
        assert {(c.name, c.value) for c in profile.held} <= set(heard)
        unclear = await call(client, "ask_user", {"question": "What is the weather like?"})
        too_long = await client.call_tool("ask_user", {"question": "why? " * 101})
        assert too_long.is_error and "question" in text_of(too_long)
        await call(client, "recommend_product", {"product_ids": task.targets[0].product_id})
        await call(client, "terminate", {"status": "success"})
    [path] = iter_episode_files(runs)
    trajectory = read_trajectory(path)
    asks = [step for step in trajectory.steps if step.tool == "ask_user"]
    assert [step.user is not None for step in asks] == [True] * len(profile.held) + [True, False]
    assert {key for step in asks if step.user for key in step.user.disclosed} == {c.key for c in profile.held}
    assert asks[-2].user is not None and not asks[-2].user.understood and asks[-2].observation == text_of(unclear)
    assert read_manifest(runs).parameters | {"stated": 0, "user": "rules"} == read_manifest(runs).parameters
    score = score_run(runs, ScoreOptions(world=default_world.root))
    assert [s.success for s in score.scores] == [True]


async def test_a_plain_task_set_has_no_ask_user_and_no_user_key(default_world, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    environment = open_environment(["shoppingbench"], runs_dir=runs, world=default_world)
    [suite] = environment.suites
    task_id = suite.listings()[0].task_id
    async with Client(environment.server, mode="legacy") as client:
        assert "ask_user" not in {tool.name for tool in (await client.list_tools()).tools}
        started = json.loads(text_of(await call(client, "start_task", {"task_id": task_id})))
        assert started["instruction"] == suite.task(task_id).query and "ask_user" not in started["tools"]
        refused = await client.call_tool("ask_user", {"question": "What colour?"})
        assert refused.is_error and "ask_user" in text_of(refused)
        await call(client, "find_product", {"q": "shirt", "page": 1})
        await call(client, "terminate", {"status": "failure"})
    [path] = iter_episode_files(runs)
    steps = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()][1:-1]
    assert len(steps) == 3 and steps[0]["is_error"] and not any("user" in step for step in steps)
    assert "user" not in read_manifest(runs).parameters


def test_run_with_user_records_the_conversation_and_refuses_what_cannot_be_one(default_world, tmp_path: Path) -> None:
    from benchmarks.shoppingbench.conversation.instructions import CONVERSATIONAL_NATIVE_SYSTEM_PROMPT
    from mcp_server.trajectory import prompt_hashes
    from tests._agent_runs import run_cli

    out = tmp_path / "run"
    result = run_cli("shoppingbench", "--model", "heuristic", "--world", str(default_world.root), "--user", "rules",
                     "--stated", "2", "--intent", "product", "--limit", "1", "--out", str(out), "--no-cache")
    assert result.exit_code == 0, result.output
    manifest = read_manifest(out)
    assert {key: manifest.parameters[key] for key in ("user", "stated", "profile_seed")} == {
        "user": "rules", "stated": 2, "profile_seed": 0}
    assert manifest.prompts["native_system_prompt"] == prompt_hashes(
        {"p": CONVERSATIONAL_NATIVE_SYSTEM_PROMPT})["p"]
    [path] = iter_episode_files(out)
    assert read_trajectory(path).start.instruction.startswith(("I need", "I'm looking for", "Can you help"))
    for refused, said in ((["--stated", "2"], "needs --user"), (["--user", "robot"], "no user 'robot'")):
        result = run_cli("shoppingbench", "--model", "heuristic", "--world", str(default_world.root), *refused,
                         "--limit", "1", "--out", str(tmp_path / "refused"))
        assert result.exit_code == 2 and said in result.output and not (tmp_path / "refused").exists()
    result = run_cli("intentionqa", "--model", "random", "--user", "rules", "--out", str(tmp_path / "qa"))
    assert result.exit_code == 2 and "--user does not apply to intentionqa" in result.output


def test_the_built_in_agent_is_invited_to_ask_only_when_it_can() -> None:
    from evaluators.models.base import ToolSpec
    from evaluators.players.agent.protocols import NativeProtocol, PaperProtocol

    plain = [ToolSpec(name="terminate", description="end", parameters={})]
    asking = [*plain, ToolSpec(name="ask_user", description="ask", parameters={})]
    for protocol in (NativeProtocol(), PaperProtocol()):
        [closed, _] = protocol.opening("I need a bag.", plain)
        [invited, _] = protocol.opening("I need a bag.", asking)
        assert "ask_user" not in str(closed.content) and "ask_user" in str(invited.content)
        assert protocol.prompts() != protocol.prompts(conversational=True)
