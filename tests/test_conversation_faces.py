"""`user` and `stated` on the Gym, verifiers and Inspect faces: the instruction is the shopper's opener, the tools
include ask_user and its answer comes back as the observation; without them, the task set as it is."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mcp_server.trajectory import iter_episode_files, read_trajectory
from tests._conversation import generated_tasks, profiles


def colour_task(world) -> str:
    """The first product task whose shopper, saying nothing but the kind, holds back a colour and no price (the
    asking policies below ask for both)."""
    return next(task.task_id for task, profile in profiles(generated_tasks(world), stated=0)
                if task.intent == "product" and any(c.name == "colour" for c in profile.held)
                and not any(c.kind == "price" for c in profile.held))


def test_gym_plays_a_conversation(default_world, tmp_path: Path) -> None:
    from evaluators.integrations.gym.env import ShoppingBenchEnv

    task_id = colour_task(default_world)
    env = ShoppingBenchEnv(world=default_world, user="rules", stated=0, runs_dir=tmp_path / "gym")
    observation, info = env.reset(options={"task_id": task_id})
    profile = env.suite.profile(task_id)  # type: ignore[attr-defined]
    assert observation["instruction"] == profile.opener and "ask_user" in observation["tools"]
    assert "ask_user" in [tool["name"] for tool in info["tools"]]
    observation, *_ = env.step({"name": "ask_user", "arguments": {"question": "What colour would you like?"}})
    colour = next(c for c in profile.held if c.name == "colour")
    assert colour.value in observation["observation"]
    env.close()
    [path] = iter_episode_files(tmp_path / "gym")
    [step] = read_trajectory(path).steps
    assert step.user is not None and step.user.disclosed == [c.key for c in profile.held if c.name == "colour"]
    plain = ShoppingBenchEnv(world=default_world, runs_dir=tmp_path / "plain")
    observation, _ = plain.reset(options={"task_id": task_id})
    assert "ask_user" not in observation["tools"] and observation["instruction"] != profile.opener
    plain.close()


def test_verifiers_and_inspect_take_the_user(default_world, tmp_path: Path) -> None:
    import verifiers as vf

    from benchmarks.registry import get_benchmark
    from evaluators.integrations.inspect.tasks import shoppingbench_task

    env = vf.load_environment("shopbench", world=str(default_world.root), task_ids=["product-0003"], user="rules",
                              stated=1, runs=str(tmp_path / "vf"))
    assert "ask_user" in {tool["name"] for tool in env.tool_defs}
    [system, user] = env.dataset[0]["prompt"]
    assert "ask_user" in system["content"] and user["content"].startswith(("I need", "I'm looking", "Can you"))
    task = shoppingbench_task(get_benchmark("shoppingbench"), world=str(default_world.root), intent="product",
                              runs=str(tmp_path / "inspect"), user="rules", stated=0)
    openers = {t.task_id: profile.opener for t, profile in profiles(generated_tasks(default_world), stated=0)}
    assert len(task.dataset) == 100 and all(sample.input == openers[sample.id] for sample in task.dataset)


def test_serve_and_play_refuse_stated_without_a_user_and_an_unknown_user(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from shopbench.cli import app

    commands = (["serve", "--runs", str(tmp_path / "s")], ["play", "--player", "ana", "--runs", str(tmp_path / "p")])
    for command in commands:
        for extra, said in ((["--stated", "1"], "needs --user"), (["--user", "robot"], "no user 'robot'")):
            result = CliRunner().invoke(app, [*command, *extra], catch_exceptions=False)
            assert result.exit_code == 2 and said in result.output, (command, extra, result.output)
    assert not any(tmp_path.iterdir())


def _asking_policy(body: dict) -> tuple[str, list]:
    """Ask two questions, then search with what the shopper said, recommend the first hit and end."""
    turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
    if turns < 2:
        return "", [("ask_user", {"question": ("What colour would you like?", "What's your budget?")[turns]})]
    if turns == 2:
        return "", [("find_product", {"q": "shirt", "page": 1})]
    if turns == 3:
        found = re.findall(r'"product_id"\s*:\s*"([^"]+)"', json.dumps(body["messages"][-1]).replace('\\"', '"'))
        return "", [("recommend_product", {"product_ids": found[0] if found else "none"})]
    return "", [("terminate", {"status": "success"})]


async def test_the_built_in_loop_asks_through_the_same_tool(default_world, tmp_path: Path) -> None:
    from evaluators.harness.run import RunConfig, run_benchmark
    from evaluators.results.scoring import score_run
    from tests._fake_llm import FakeLLMServer

    task_id = colour_task(default_world)
    with FakeLLMServer("openai", _asking_policy) as fake:
        await run_benchmark(RunConfig(benchmark="shoppingbench", model=f"openai-compatible:{fake.base_url}#m",
                                      world=default_world.root, task_ids=[task_id], out=tmp_path, cache=False,
                                      user="rules", stated=0))
    first = fake.requests[0]
    assert "ask_user" in first["messages"][0]["content"]  # the system prompt invites asking
    assert "ask_user" in {tool["function"]["name"] for tool in first["tools"]}
    [path] = iter_episode_files(tmp_path)
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps] == ["ask_user", "ask_user", "find_product", "recommend_product",
                                                        "terminate"]
    colour = trajectory.steps[0]
    assert colour.user is not None and colour.user.disclosed  # every held colour (a SKU option and an attribute)
    assert all(".color" in key for key in colour.user.disclosed)
    shown = fake.requests[1]["messages"][-1]
    assert shown["role"] == "tool" and shown["content"] == colour.observation  # the answer text, nothing more
    assert trajectory.steps[1].user is not None and trajectory.steps[1].user.disclosed == []  # no price held
    assert len(score_run(tmp_path).scores) == 1
