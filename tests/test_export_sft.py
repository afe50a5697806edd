"""`shopbench export sft`: one chat sample per step, from successful episodes only."""

from __future__ import annotations

import json

from _scoring_runs import make_run, official_catalog, recommend, write_episode

from benchmarks.jsonl import read_jsonl
from evaluators.export_sft import export_sft
from evaluators.scoring.catalog import MappingLookup
from evaluators.scoring.shoppingbench_run import score_trajectories


def test_export_keeps_only_successful_episodes_one_sample_per_step(tmp_path):
    tasks, products = official_catalog()
    a, b = [t for t in tasks if t.intent == "product"][:2]
    run = make_run(tmp_path / "run")
    good = write_episode(run, a, recommend(a.targets[0].product_id))
    write_episode(run, b, recommend("wrong-id"))
    write_episode(run, b, recommend(b.targets[0].product_id), finished=False)
    success = score_trajectories(run, lambda _: tasks, MappingLookup(products)).episode_success()

    summary = export_sft(run, tmp_path / "sft.jsonl", success=success)
    samples = [record for _, record in read_jsonl(tmp_path / "sft.jsonl")]
    assert (summary.episodes, summary.successes, summary.samples) == (3, 1, 4)
    assert {s["metadata"]["episode_id"] for s in samples} == {good}
    assert [s["metadata"]["step"] for s in samples] == [0, 1, 2, 3]

    last = samples[2]["messages"]  # the recommend_product step
    assert last[0] == {"role": "user", "content": a.instruction}
    assert [m["role"] for m in last] == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    target = last[-1]
    assert target["content"] == "thinking about step 2"
    call = target["tool_calls"][0]
    assert call["function"]["name"] == "recommend_product"
    assert json.loads(call["function"]["arguments"]) == {"product_ids": a.targets[0].product_id}
    assert last[2]["tool_call_id"] == last[1]["tool_calls"][0]["id"] and json.loads(last[2]["content"]) == {"ok": True}


def test_prompt_completion_format_splits_input_and_output(tmp_path):
    tasks, products = official_catalog()
    a = tasks[0]
    run = make_run(tmp_path / "run")
    write_episode(run, a, recommend(a.targets[0].product_id))
    success = score_trajectories(run, lambda _: tasks, MappingLookup(products)).episode_success()
    export_sft(run, tmp_path / "pc.jsonl", success=success, fmt="prompt-completion")
    samples = [record for _, record in read_jsonl(tmp_path / "pc.jsonl")]
    assert len(samples) == 4
    assert len(samples[0]["prompt"]) == 1 and samples[0]["completion"][0]["tool_calls"][0]["function"]["name"] == (
        "find_product")
    assert len(samples[3]["prompt"]) == 7  # user + 3 × (assistant, tool)


def test_export_command_scores_the_run_in_its_world(default_world, tmp_path):
    from typer.testing import CliRunner

    from shopbench.cli import app

    task_set = next(name for name in default_world.task_sets() if name != "official")
    a, b = [t for t in default_world.tasks(task_set) if t.intent == "product"][:2]
    run = make_run(tmp_path / "run", world={"path": str(default_world.root)})
    write_episode(run, a, recommend(a.targets[0].product_id))
    write_episode(run, b, recommend(""))
    out = tmp_path / "sft.jsonl"
    outcome = CliRunner().invoke(app, ["export", "sft", str(run), "--out", str(out)])
    assert outcome.exit_code == 0, outcome.output
    assert "4 samples from 1 successful of 2 episodes" in outcome.output
    assert {r["metadata"]["task_id"] for _, r in read_jsonl(out)} == {a.task_id}
