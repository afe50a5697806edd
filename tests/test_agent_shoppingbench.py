"""The agent runner end to end: models and baselines play default-world tasks through the MCP sandbox, the run is
scored by the real scorer, and what the model saw and did is checked in the trajectories."""

from __future__ import annotations

import json

from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from tests._fake_llm import FakeLLMServer, shopping_policy


def _trajectories(run_dir):
    return {path.stem: read_trajectory(path) for path in iter_episode_files(run_dir)}


async def test_oracle_reaches_full_success_on_every_intent(default_world, tmp_path):
    result = await run_benchmark(RunConfig(benchmark="shoppingbench", model="oracle", world=default_world.root,
                                           limit=10, out=tmp_path, concurrency=4))
    assert result.summary.completed == 40 and not result.summary.failed
    manifest = read_manifest(tmp_path)
    assert manifest.agent.name == "oracle (uses gold answers)" and manifest.agent.kind == "baseline"
    assert manifest.parameters["temperature"] == 0.0 and manifest.parameters["max_steps"] == 30
    assert manifest.git_revision and "mcp" in manifest.packages and manifest.prompts
    scored = score_run(tmp_path).to_json()
    by_intent = {summary["intent"]: summary for summary in scored["intents"]}
    assert set(by_intent) == {"product", "shop", "voucher", "web"}
    for summary in by_intent.values():
        assert summary["episodes"] == 10 and summary["asr"]["value"] == 1.0


async def test_oracle_through_the_paper_protocol_parses_and_succeeds(default_world, tmp_path):
    await run_benchmark(RunConfig(benchmark="shoppingbench", model="oracle", world=default_world.root, limit=1,
                                  out=tmp_path, protocol="paper"))
    scored = score_run(tmp_path).to_json()
    assert all(summary["asr"]["value"] == 1.0 for summary in scored["intents"])
    assert read_manifest(tmp_path).parameters["protocol"] == "paper"
    assert "reference_system_prompt" in read_manifest(tmp_path).prompts


async def test_random_baseline_stays_near_zero(default_world, tmp_path):
    await run_benchmark(RunConfig(benchmark="shoppingbench", model="random", world=default_world.root, limit=10,
                                  out=tmp_path, concurrency=4))
    trajectories = _trajectories(tmp_path)
    assert len(trajectories) == 40 and all(t.finished for t in trajectories.values())
    assert any(t.end.recommended for t in trajectories.values())
    scored = score_run(tmp_path).to_json()
    assert scored["overall_asr"]["value"] <= 0.1


async def test_openai_compatible_model_plays_through_the_sandbox_and_a_rerun_is_free(default_world, tmp_path):
    cache = tmp_path / "cache.sqlite"
    with FakeLLMServer("openai", shopping_policy) as fake:
        spec = f"openai-compatible:{fake.base_url}#fake-gpt-4.1"
        config = RunConfig(benchmark="shoppingbench", model=spec, world=default_world.root, intents=("product",),
                           limit=2, out=tmp_path / "first", cache_path=cache)
        await run_benchmark(config)
        calls_first = len(fake.requests)
        config.execution.out = tmp_path / "second"
        second = await run_benchmark(config)
    assert calls_first == 6 and len(fake.requests) == calls_first  # the rerun made no HTTP call
    assert read_manifest(second.run_dir).notes["cache_hits"] == 6
    first = _trajectories(tmp_path / "first")
    assert set(first) == {"product-0000-e0", "product-0001-e0"}
    for trajectory in first.values():
        assert [s.tool for s in trajectory.steps] == ["find_product", "recommend_product", "terminate"]
        assert trajectory.end.status == "terminated"
        found = trajectory.steps[0].observation
        assert trajectory.end.recommended == found[0]["product_id"]
        assert trajectory.steps[0].thought == "I will search first."
        assert trajectory.steps[0].usage.input_tokens > 100 and trajectory.steps[0].usage.output_tokens == 10
    # the model saw the sandbox's answer as a tool message tied to its call
    second_request = fake.requests[1]["messages"]
    assert second_request[0]["role"] == "system" and second_request[1]["role"] == "user"
    assert second_request[2]["tool_calls"][0]["function"]["name"] == "find_product"
    assert second_request[3]["role"] == "tool" and second_request[3]["tool_call_id"] == "call_1_0"
    assert json.loads(second_request[3]["content"])[0]["product_id"] == first["product-0000-e0"].end.recommended
    rerun = _trajectories(tmp_path / "second")
    assert [s.arguments for s in rerun["product-0000-e0"].steps] == [
        s.arguments for s in first["product-0000-e0"].steps
    ]


async def test_anthropic_model_plays_through_the_sandbox(default_world, tmp_path, monkeypatch):
    with FakeLLMServer("anthropic", shopping_policy) as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.base_url)
        await run_benchmark(RunConfig(benchmark="shoppingbench", model="anthropic:claude-test",
                                      world=default_world.root, intents=("shop",), limit=1, out=tmp_path, cache=False))
    (trajectory,) = _trajectories(tmp_path).values()
    assert [s.tool for s in trajectory.steps] == ["find_product", "recommend_product", "terminate"]
    tool_result = fake.requests[1]["messages"][2]["content"][0]
    assert tool_result["type"] == "tool_result" and tool_result["tool_use_id"] == "toolu_1_0"


def _misbehaving_policy(body):
    turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
    if turns == 0:
        return "I just want to chat.", []
    if turns == 1:
        return "", [("buy_now", {"id": "1"})]
    return "", [("find_product", {"q": "bag", "page": 1})]


async def test_malformed_turns_are_observations_and_count_as_steps(default_world, tmp_path):
    with FakeLLMServer("openai", _misbehaving_policy) as fake:
        await run_benchmark(RunConfig(benchmark="shoppingbench", model=f"openai-compatible:{fake.base_url}#m",
                                      world=default_world.root, intents=("product",), limit=1, out=tmp_path,
                                      max_steps=4, cache=False))
    (trajectory,) = _trajectories(tmp_path).values()
    assert [s.tool for s in trajectory.steps] == ["", "buy_now", "find_product", "find_product"]
    assert [s.is_error for s in trajectory.steps] == [True, True, False, False]
    chat = trajectory.steps[0]
    assert chat.malformed is not None and chat.malformed.raw == "I just want to chat."
    assert chat.malformed.error == "it holds no tool call" and chat.arguments == {}
    assert [s.malformed for s in trajectory.steps[1:]] == [None, None, None]
    assert trajectory.end.status == "step_limit" and trajectory.end.steps == 4
    assert len(fake.requests) == 4
    after_chat = fake.requests[1]["messages"][-1]
    # the trajectory records exactly the feedback the model was shown
    assert after_chat["role"] == "user" and after_chat["content"] == chat.observation
    assert "holds no tool call" in chat.observation
    after_unknown = fake.requests[2]["messages"][-1]
    assert after_unknown["role"] == "tool" and "unknown tool 'buy_now'" in after_unknown["content"]
