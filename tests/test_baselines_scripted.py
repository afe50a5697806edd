"""The `naive` and `heuristic` baselines: they play default-world tasks through the real harness and scorer from the
chat alone (instruction and observations, never the gold), natively and in the paper's text format."""

from __future__ import annotations

import json

from benchmarks.shoppingbench.worldgen.heuristic import check_task
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.models import EpisodeContext, bind_episode, get_model
from evaluators.models.base import ChatMessage, ToolCall
from evaluators.players.baselines.agentic import ScriptedBaseline
from evaluators.results.scoring import score_run
from mcp_server.shopping.world_build import WorldTools
from mcp_server.trajectory import iter_episode_files, read_trajectory


async def test_heuristic_solves_every_task_it_plays_and_naive_rarely_does(default_world, tmp_path):
    for model in ("heuristic", "naive"):
        await run_benchmark(RunConfig(benchmark="shoppingbench", model=model, world=default_world.root, limit=8,
                                      out=tmp_path / model, concurrency=4, cache=False))
    heuristic = score_run(tmp_path / "heuristic").to_json()
    assert {s["intent"]: s["asr"]["value"] for s in heuristic["intents"]} == dict.fromkeys(
        ("product", "shop", "voucher", "web"), 1.0)
    naive = score_run(tmp_path / "naive").to_json()
    assert naive["overall_asr"]["value"] <= 0.25
    for path in iter_episode_files(tmp_path / "naive"):
        trajectory = read_trajectory(path)
        calls = [step.tool for step in trajectory.steps]
        assert calls[-1] == "terminate" and set(calls) <= {"find_product", "recommend_product", "terminate"}


async def test_heuristic_through_the_paper_protocol(default_world, tmp_path):
    await run_benchmark(RunConfig(benchmark="shoppingbench", model="heuristic", world=default_world.root, limit=2,
                                  out=tmp_path, protocol="paper", cache=False))
    scored = score_run(tmp_path).to_json()
    assert all(summary["asr"]["value"] == 1.0 for summary in scored["intents"])


async def test_scripted_baselines_need_no_gold(default_world):
    """Played by hand with no episode context at all, over the world's tools: the heuristic still ends on the
    target, so nothing but the chat can have guided it."""
    tools = WorldTools(default_world.products, default_world.knowledge)
    tasks = [t for t in default_world.tasks("generated") if t.task_index < 3]
    model = get_model("heuristic")
    assert isinstance(model, ScriptedBaseline)
    bound = bind_episode(model, EpisodeContext(episode_id="e", item_id="x", gold=None))
    for task in tasks:
        messages = [ChatMessage(role="system", content="shop"), ChatMessage(role="user", content=task.query)]
        recommended, steps = None, 0
        while steps < 30:
            steps += 1
            output = await bound.generate(messages, tools=[])
            call: ToolCall = output.tool_calls[0]
            observation = tools.call(call.name, call.arguments)
            messages.append(ChatMessage(role="assistant", content=output.text, tool_calls=[call]))
            messages.append(ChatMessage(role="tool", content=json.dumps(observation), tool_call_id=call.id,
                                        name=call.name))
            if call.name == "recommend_product":
                recommended = call.arguments["product_ids"]
            if call.name == "terminate":
                break
        solved, played = check_task(task, tools)
        assert solved and recommended == played.recommended, task.task_id
        assert steps == played.steps
