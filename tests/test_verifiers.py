"""shopbench as a Prime Intellect `verifiers` environment, evaluated with verifiers' own evaluator (`env.evaluate`)
against an OpenAI-compatible endpoint: the model bridge (evaluators.bridge) in front of a shopbench baseline or a
scripted policy. The rollouts' rewards must be the numbers `shopbench score` gives the episodes they recorded, and the
episodes must be those `shopbench run` plays with the same model."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import verifiers as vf

import evaluators.players.baselines  # noqa: F401 - registers the baselines as model specs
from evaluators.bridge import ModelBridge, ScriptedPolicy
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.integrations.gym.rewards import oracle_reference
from evaluators.models import ModelAPI, get_model
from evaluators.models.base import ChatMessage, GenerateConfig, ModelOutput, ToolSpec
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_trajectory

KEY_VAR = "SHOPBENCH_TEST_BRIDGE_KEY"


@asynccontextmanager
async def endpoint(model: ModelAPI, tools: frozenset[str] = frozenset()) -> AsyncIterator[vf.ClientConfig]:
    """verifiers' client config for an OpenAI-compatible endpoint answered by `model` (the bridge: tools offered
    under their bare names are the server's own)."""
    os.environ[KEY_VAR] = "unused"
    async with ModelBridge(server_tools=tools) as bridge:
        yield vf.ClientConfig(api_base_url=bridge.open_episode(model).openai_base_url, api_key_var=KEY_VAR)


def steps_by_task(run) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Each task's tool calls in order, as the run folder recorded them."""
    played = {}
    for path in iter_episode_files(run):
        trajectory = read_trajectory(path)
        played[trajectory.start.task_id] = [(step.tool, step.arguments) for step in trajectory.steps]
    return played


def quiet(**kwargs: Any) -> dict[str, Any]:
    return {"on_progress": lambda *a, **k: None, **kwargs}


@pytest.mark.parametrize("baseline", ["heuristic", "naive"])
async def test_verifiers_evaluation_equals_shopbench_run(default_world, tmp_path, baseline):
    """One task per intent (4 tasks): verifiers' evaluation of load_environment("shopbench") through the bridge plays
    the same calls as `shopbench run --model BASELINE --limit 1`, and its mean ASR reward is that run's ASR."""
    await run_benchmark(RunConfig(benchmark="shoppingbench", model=baseline, world=default_world.root, limit=1,
                                  out=tmp_path / "run", cache=False))
    reference = score_run(tmp_path / "run")
    env = vf.load_environment("shopbench", benchmark="shoppingbench", world=str(default_world.root), limit=1,
                              runs=str(tmp_path / "vf"))
    # vf-eval's env-server workers load the environment again from these
    assert (env.env_id, env.env_args["benchmark"]) == ("shopbench", "shoppingbench")
    async with endpoint(get_model(baseline), frozenset(tool.name for tool in env.tool_defs)) as client:
        results = await env.evaluate(client, baseline, num_examples=4, **quiet())
    outputs = results["outputs"]
    assert len(outputs) == 4 and all(output["error"] is None for output in outputs)
    assert all(output["stop_condition"] == "has_final_env_response" for output in outputs)

    assert steps_by_task(tmp_path / "vf") == steps_by_task(tmp_path / "run")
    by_task = {score.task_id: score for score in reference.scores}
    for output in outputs:
        task = by_task[output["info"]["task_id"]]
        assert output["metrics"]["ASR"] == float(task.success) and output["metrics"]["CAR"] == task.rule
        assert output["reward"] == float(task.success)
    asr = reference.to_json()["overall_asr"]["value"]
    assert sum(output["reward"] for output in outputs) / 4 == asr
    assert score_run(tmp_path / "vf").to_json()["overall_asr"]["value"] == asr
    start = read_trajectory(iter_episode_files(tmp_path / "vf")[0]).start
    assert (start.agent.name, start.agent.details["harness"]) == (baseline, "verifiers")
    if baseline == "heuristic":
        assert asr == 1.0
    else:
        assert asr < 1.0


async def test_malformed_turns_are_steps_and_the_tool_reward_follows_the_paper(default_world, tmp_path):
    """A policy that plays the oracle's first two moves, then answers in text: each text turn is a malformed step
    whose feedback the model reads, the step limit ends the rollout, and the tool reward is the mean per-turn reward
    ((1 + 3) twice for the exact moves, (0 - 3) twice for the turns without a call)."""
    env = vf.load_environment("shopbench", world=str(default_world.root), task_ids=["product-0000"], max_steps=4,
                              tool_reward=True, runs=str(tmp_path / "vf"))
    task = next(task for task in default_world.tasks("generated") if task.task_id == "product-0000")
    policy = ScriptedPolicy(oracle_reference(task)[:2], final="I am still thinking.")
    async with endpoint(policy, frozenset(tool.name for tool in env.tool_defs)) as client:
        [output] = (await env.evaluate(client, "scripted", num_examples=1, **quiet()))["outputs"]
    assert output["metrics"]["tool_reward"] == pytest.approx(0.5)
    assert output["metrics"]["ASR"] == 0.0 and output["reward"] == pytest.approx(0.5)
    [path] = iter_episode_files(tmp_path / "vf")
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps[:2]] == ["find_product", "view_product_information"]
    assert [step.malformed is not None for step in trajectory.steps] == [False, False, True, True]
    assert trajectory.end is not None and trajectory.end.status == "step_limit"
    feedback = [message for message in output["completion"] if message["role"] == "user"]
    assert len(feedback) == 2 and "tool call" in feedback[0]["content"]
    assert task.targets[0].product_id not in str(output["prompt"])  # the reference never reaches the policy


class Letters(ModelAPI):
    """Answers a multiple-choice question with a letter picked from its text: some right, some wrong."""

    spec = "letters"

    async def generate(self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None,
                       config: GenerateConfig | None = None) -> ModelOutput:
        return ModelOutput(text="ABCD"[sum(map(ord, messages[-1].content)) % 4], model=self.spec)


async def test_question_environment_scores_answers_as_shopbench_score(tmp_path):
    env = vf.load_environment("shopbench", benchmark="intentionqa", limit=4, runs=str(tmp_path / "vf"))
    assert isinstance(env, vf.SingleTurnEnv) and not env.tool_defs
    async with endpoint(Letters()) as client:
        outputs = (await env.evaluate(client, "letters", **quiet()))["outputs"]
    assert len(outputs) == 8
    scored = score_run(tmp_path / "vf").to_json()
    items = scored["items"]
    rewards = {output["info"]["task_id"]: output["reward"] for output in outputs}
    assert rewards == {item_id: item["score"] for item_id, item in items.items()}
    assert 0 < sum(rewards.values()) < len(rewards)
    assert sum(rewards.values()) / len(rewards) == pytest.approx(scored["overall"])


def test_load_environment_refuses_an_option_its_benchmark_does_not_take():
    with pytest.raises(RuntimeError, match=r"takes no option 'intent'; its options: items, prompting"):
        vf.load_environment("shopbench", benchmark="intentionqa", intent="product")
    with pytest.raises(RuntimeError, match="samples per question"):
        vf.load_environment("shopbench", benchmark="intentionqa", prompting="cot-sc", limit=1)
