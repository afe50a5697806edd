"""The Gymnasium environment: Gymnasium's own checker, the oracle's reward on every intent (equal to `shopbench
score` on the recorded run), malformed actions as observations, the paper's tool reward, and a vector env."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import evaluators.integrations.gym  # noqa: F401  (registers shopbench/ShoppingBench-v0)
from benchmarks.shoppingbench.schema import INTENTS
from evaluators.integrations.gym import ENV_ID, correctness, oracle_reference, step_reward
from evaluators.players.agent.paper_format import format_paper_call
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_trajectory


def make(default_world, tmp_path, **kwargs):
    return gym.make(ENV_ID, world=default_world.root, runs_dir=tmp_path / "run", **kwargs)


def test_environment_passes_gymnasium_check_env(default_world, tmp_path):
    env = make(default_world, tmp_path, intent="product")
    check_env(env.unwrapped, skip_render_check=False)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and obs["observation"] == ""
    assert [tool["name"] for tool in json.loads(obs["tools"])] == [
        "find_product", "view_product_information", "calculate", "web_search", "recommend_product", "terminate"]
    assert info["episode"]["state"] == "running" and info["intent"] == "product" and info["episode_id"]
    env.close()


def test_oracle_policy_gets_reward_one_on_every_intent_equal_to_shopbench_score(default_world, tmp_path):
    env = make(default_world, tmp_path)
    base = env.unwrapped
    played = {}
    for intent in INTENTS:
        task_id = next(t for t in base.task_ids if base.suite.task(t).intent == intent)
        obs, info = env.reset(options={"task_id": task_id})
        rewards, done = [], False
        while not done:
            name, arguments = oracle_reference(base.task)[info["episode"]["steps_used"]]
            obs, reward, terminated, truncated, info = env.step({"name": name, "arguments": arguments})
            rewards.append(reward)
            done = terminated or truncated
        assert terminated and not truncated, intent
        assert rewards[:-1] == [0.0, 0.0, 0.0] and rewards[-1] == 1.0, intent
        assert info["episode"]["end_reason"] == "terminated" and info["score"]["rule"] == 1.0
        played[base.episode.episode_id] = info["score"]["success"]
    env.close()
    result = score_run(tmp_path / "run")
    assert result.episode_success() == {episode: bool(value) for episode, value in played.items()}
    assert result.overall_asr.value == 1.0 and {summary.intent for summary in result.intents} == set(INTENTS)
    assert all(read_trajectory(p).start.agent.name == "gymnasium" for p in iter_episode_files(tmp_path / "run"))


def test_malformed_actions_are_observations_recorded_as_steps(default_world, tmp_path):
    env = make(default_world, tmp_path, intent="shop", max_steps=6)
    env.reset(seed=0)
    actions = [
        "I think I should search for shoes",  # no <tool_call>
        '<think>x</think><tool_call>[{"name": "find_product", "parameters": {"q": </tool_call>',  # bad JSON
        {"arguments": {"q": "x"}},  # no name
        12345,  # not an action at all
        {"name": "buy_now", "arguments": {}},  # unknown tool
        {"name": "find_product", "arguments": {"q": "tent", "page": 9}},  # bad page: the step limit ends it here
    ]
    seen = []
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        seen.append((obs["observation"], info["is_error"], reward, terminated, truncated))
    assert all(is_error for _, is_error, *_ in seen)
    assert "no <tool_call>" in seen[0][0] and "not valid JSON" in seen[1][0] and '"name"' in seen[2][0]
    assert "int" in seen[3][0] and "unknown tool 'buy_now'" in seen[4][0] and "page" in seen[5][0]
    assert seen[-1][3:] == (False, True) and info["episode"]["end_reason"] == "step_limit"
    assert info["score"]["success"] == 0.0 and seen[-1][2] == 0.0
    [path] = iter_episode_files(tmp_path / "run")
    trajectory = read_trajectory(path)
    assert [step.malformed is not None for step in trajectory.steps] == [True, True, True, True, False, False]
    assert trajectory.steps[0].malformed.raw == actions[0] and trajectory.steps[0].observation == seen[0][0]
    assert trajectory.end is not None and trajectory.end.status == "step_limit"


def test_raw_paper_text_and_the_tool_reward(default_world, tmp_path):
    env = make(default_world, tmp_path, intent="voucher", tool_reward=True)
    env.reset(seed=1)
    reference = oracle_reference(env.unwrapped.task)
    totals = []
    for name, arguments in reference:
        obs, reward, terminated, truncated, info = env.step(format_paper_call(name, arguments, "following the plan"))
        totals.append(reward)
    assert totals == [4.0, 4.0, 4.0, 4.0 + 1.0] and terminated
    assert read_trajectory(iter_episode_files(tmp_path / "run")[0]).steps[0].thought == "following the plan"
    env.reset(seed=1)
    _, reward, *_ = env.step(format_paper_call("find_product", {"q": "something else", "page": 1}))
    assert reward == pytest.approx(1.0 + 6 * (1 + 1 + 1) / (1 + 1 + 2) - 3)  # name, params, page right; q wrong
    _, reward, *_ = env.step("no call here")
    assert reward == pytest.approx(0.0 + 6 * 0 / 3 - 3)  # format 0, nothing matched (view has one key)
    env.close()


def test_tool_reward_matches_toolrl():
    reference = [("find_product", {"q": "tent", "page": 1})]
    assert correctness(reference, reference) == 3.0
    assert correctness([("web_search", {"q": "tent"})], reference) == -3.0
    assert correctness([("find_product", {"q": "tent", "page": 1, "sort": "order"})], reference) == pytest.approx(
        6 * (1 + 2 / 3 + 2) / 4 - 3)
    both = [("find_product", {"q": "a", "page": 1}), ("calculate", {"expression": "1+1"})]
    assert correctness(list(reversed(both)), both) == 3.0  # matching is order-free within a turn
    assert step_reward([], reference, well_formed=False).total == -3.0


def test_vector_env_plays_several_episodes_at_once(default_world, tmp_path):
    envs = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", world=default_world.root,
                        runs_dir=tmp_path / "run", intent="product")
    obs, info = envs.reset(seed=[5, 6])
    assert len(obs["instruction"]) == 2
    actions = (json.dumps({"x": 1}), format_paper_call("find_product", {"q": "shoes", "page": 1}))
    obs, reward, terminated, truncated, info = envs.step(actions)
    assert "no <tool_call>" in obs["observation"][0] and json.loads(obs["observation"][1])[0]["product_id"]
    assert list(terminated) == [False, False] and list(reward) == [0.0, 0.0]
    envs.close()
    assert len(iter_episode_files(tmp_path / "run")) == 2
    assert all(read_trajectory(p).end.status == "abandoned" for p in iter_episode_files(tmp_path / "run"))
