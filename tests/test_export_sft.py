"""`shopbench export sft`: one chat sample per step, from successful episodes only, as the model saw it."""

from __future__ import annotations

import json

from _scoring_runs import make_run, official_catalog, recommend, write_episode

from benchmarks.jsonl import read_jsonl
from benchmarks.shoppingbench.agent_prompts import NATIVE_SYSTEM_PROMPT
from evaluators.integrations.export_sft import BASELINE_REASONING, export_sft
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories
from mcp_server.trajectory import MalformedTurn, RunManifest, StepEvent, read_manifest, write_manifest


def _records(path):
    return [record for _, record in read_jsonl(path)]


def test_export_keeps_only_successful_episodes_one_sample_per_step(tmp_path):
    tasks, products = official_catalog()
    a, b = [t for t in tasks if t.intent == "product"][:2]
    run = make_run(tmp_path / "run")
    good = write_episode(run, a, recommend(a.targets[0].product_id))
    write_episode(run, b, recommend("wrong-id"))
    write_episode(run, b, recommend(b.targets[0].product_id), finished=False)
    success = score_trajectories(run, lambda _: tasks, MappingLookup(products)).episode_success()

    summary = export_sft(run, tmp_path / "sft.jsonl", success=success)
    samples = _records(tmp_path / "sft.jsonl")
    assert (summary.episodes, summary.successes, summary.samples) == (3, 1, 4)
    assert summary.line().startswith("4 samples from 1 successful of 3 episodes (4 of 4 steps kept); episodes "
                                     "dropped: 1 not successful, 1 unfinished (only successful episodes are distilled)")
    assert {s["metadata"]["episode_id"] for s in samples} == {good}
    assert [s["metadata"]["step"] for s in samples] == [0, 1, 2, 3]

    last = samples[2]["messages"]  # the recommend_product step
    assert last[0] == {"role": "system", "content": NATIVE_SYSTEM_PROMPT}
    assert last[1] == {"role": "user", "content": a.instruction}
    assert [m["role"] for m in last] == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert [t["function"]["name"] for t in samples[2]["tools"]] == [
        "find_product", "view_product_information", "calculate", "web_search", "recommend_product", "terminate"]
    assert samples[2]["tools"][0]["function"]["parameters"]["required"] == ["q", "page"]
    target = last[-1]
    assert target["content"] == "thinking about step 2" and samples[2]["metadata"]["reasoning"] == (
        "from the step's thought")
    call = target["tool_calls"][0]
    assert call["function"]["name"] == "recommend_product"
    assert call["function"]["arguments"] == {"product_ids": a.targets[0].product_id}  # TRL: a JSON object
    assert last[3]["tool_call_id"] == last[2]["tool_calls"][0]["id"] and json.loads(last[3]["content"]) == {"ok": True}


def test_openai_format_weights_the_target_and_keeps_metadata_apart(tmp_path):
    tasks, products = official_catalog()
    a = tasks[0]
    run = make_run(tmp_path / "run")
    write_episode(run, a, recommend(a.targets[0].product_id))
    success = score_trajectories(run, lambda _: tasks, MappingLookup(products)).episode_success()
    export_sft(run, tmp_path / "oa.jsonl", success=success, fmt="openai")
    samples = _records(tmp_path / "oa.jsonl")
    meta = _records(tmp_path / "oa.meta.jsonl")
    assert len(samples) == len(meta) == 4 and set(samples[0]) == {"messages", "tools", "parallel_tool_calls"}
    messages = samples[3]["messages"]
    assert [m.get("weight") for m in messages if m["role"] == "assistant"] == [0, 0, 0, 1]
    assert json.loads(messages[-1]["tool_calls"][0]["function"]["arguments"]) == {"status": "success"}
    assert meta[3]["step"] == 3 and meta[3]["task_id"] == a.task_id


def test_prompt_completion_format_splits_input_and_output(tmp_path):
    tasks, products = official_catalog()
    a = tasks[0]
    run = make_run(tmp_path / "run")
    write_episode(run, a, recommend(a.targets[0].product_id))
    success = score_trajectories(run, lambda _: tasks, MappingLookup(products)).episode_success()
    export_sft(run, tmp_path / "pc.jsonl", success=success, fmt="prompt-completion")
    samples = _records(tmp_path / "pc.jsonl")
    assert len(samples) == 4
    assert len(samples[0]["prompt"]) == 2 and samples[0]["completion"][0]["tool_calls"][0]["function"]["name"] == (
        "find_product")
    assert len(samples[3]["prompt"]) == 8  # system + user + 3 × (assistant, tool)


def _rewrite_steps(path, change):
    lines = []
    for line in path.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "step":
            event = change(event)
        lines.append(json.dumps(event))
    path.write_text("\n".join(lines) + "\n")


def test_malformed_turns_are_history_not_targets_and_paper_protocol_is_text(tmp_path):
    tasks, products = official_catalog()
    a = tasks[0]
    run = make_run(tmp_path / "run")
    manifest = read_manifest(run)
    write_manifest(run, RunManifest(**{**manifest.model_dump(), "parameters": {"protocol": "paper"}}))
    episode = write_episode(run, a, recommend(a.targets[0].product_id))
    path = run / "episodes" / f"{episode}.jsonl"
    feedback = "Your reply could not be run: bad JSON. Write <think>...</think> then <tool_call>...</tool_call>."

    def malformed(event):
        if event["index"] == 1:  # the new field
            bad = MalformedTurn(raw="<think>view it</think><tool_call>[{oops", error="bad JSON")
            event.update(malformed=bad.model_dump(), observation=feedback)
        if event["index"] == 2:  # an older run's recording
            event.update(tool="invalid_tool_call", arguments={"error": "no call", "raw": "I will recommend"},
                         observation=feedback)
        return event

    _rewrite_steps(path, malformed)
    steps = [json.loads(line) for line in path.read_text().splitlines()][1:-1]
    assert StepEvent.model_validate(steps[1]).malformed is not None
    success = {episode: True}
    summary = export_sft(run, tmp_path / "sft.jsonl", success=success)
    samples = _records(tmp_path / "sft.jsonl")
    assert [s["metadata"]["step"] for s in samples] == [0, 3] and summary.dropped_steps["malformed turn"] == 2
    assert "2 malformed turn" in summary.line()
    last = samples[1]["messages"]
    assert "tools" not in samples[1]  # the paper protocol lists the tools in its system prompt
    assert "Name: find_product" in last[0]["content"] and "<|toolkit_description|>" not in last[0]["content"]
    assert last[2]["content"].startswith("<think>thinking about step 0</think>\n<tool_call>")
    assert last[3]["role"] == "user" and last[3]["content"].startswith("<obs>[")
    assert last[4] == {"role": "assistant", "content": "<think>view it</think><tool_call>[{oops"}
    assert feedback in json.loads(last[5]["content"][len("<obs>"):-len("</obs>")])[0]["content"]
    assert last[6] == {"role": "assistant", "content": "I will recommend"}
    assert json.loads(last[-1]["content"].split("<tool_call>")[1].split("</tool_call>")[0]) == [
        {"name": "terminate", "parameters": {"status": "success"}}]


def test_baseline_notes_are_not_exported_as_reasoning(tmp_path):
    tasks, products = official_catalog()
    a = tasks[0]
    run = make_run(tmp_path / "run", kind="baseline", name="oracle (uses gold answers)")
    episode = write_episode(run, a, recommend(a.targets[0].product_id), kind="baseline")
    _rewrite_steps(run / "episodes" / f"{episode}.jsonl", lambda e: {**e, "thought": "following the gold answer"})
    summary = export_sft(run, tmp_path / "sft.jsonl", success={episode: True})
    text = (tmp_path / "sft.jsonl").read_text()
    assert "following the gold answer" not in text and summary.without_reasoning == 4
    samples = _records(tmp_path / "sft.jsonl")
    assert samples[0]["messages"][-1]["content"] == "" and samples[0]["metadata"]["reasoning"] == BASELINE_REASONING


def test_export_of_a_run_without_success_says_why(tmp_path):
    tasks, products = official_catalog()
    run = make_run(tmp_path / "run")
    episode = write_episode(run, tasks[0], recommend("nope"))
    summary = export_sft(run, tmp_path / "sft.jsonl", success={episode: False})
    assert summary.samples == 0 and "episodes dropped: 1 not successful" in summary.line()


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
    assert "1 not successful" in outcome.output
    assert {r["metadata"]["task_id"] for _, r in read_jsonl(out)} == {a.task_id}
