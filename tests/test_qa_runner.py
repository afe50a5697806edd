"""The QA runner and scorer end to end: baselines on every benchmark, the scoring contract, resume, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.jsonl import DataFileError
from evaluators.harness.orchestrate import RunDirError
from evaluators.harness.run import RunConfig, episode_id_for, run_benchmark
from evaluators.results.scoring import ScoreOptions, get_scorer, score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory

MMLU_FIRST_TEN = [f"sample-{i:02d}" for i in range(10)]


async def test_intentionqa_random_is_a_quarter(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="intentionqa", model="random", out=tmp_path / "run",
                                           concurrency=8))
    assert result.summary.total == 4630 - 242 and not result.summary.failed  # items with < 4 options: not asked
    manifest = read_manifest(result.run_dir)
    assert manifest.agent.kind == "baseline" and manifest.parameters["prompting"] == "zero-shot"
    scored = score_run(result.run_dir).to_json()
    assert 0.23 < scored["overall"] < 0.27
    assert set(scored["tasks"]) == {"task1", "task2"} and scored["invalid_rate"] == 0.0
    assert sum(scored["difficulty_counts"].values()) == result.summary.total
    assert "item_a_name and item_b_name" in scored["difficulty_method"]
    first = scored["items"]["task1:FS_1"]
    assert first["task"] == "task1" and first["score"] in (0.0, 1.0)
    assert first["difficulty"] in ("easy", "medium", "hard")


async def test_session_intent_samples_run_and_score(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="session-intent", model="majority", out=tmp_path / "run"))
    scored = score_run(result.run_dir).to_json()
    assert len(scored["items"]) == 40 and set(scored["tasks"]) == {"task1", "task2", "task3", "task4"}
    assert all(value >= 0.5 for value in scored["tasks"].values())  # majority never does worse than half
    trajectory = read_trajectory(next(iter(iter_episode_files(result.run_dir))))
    assert trajectory.start.instruction.startswith("Act as a customer") and trajectory.start.max_steps == 3
    assert [s.tool for s in trajectory.steps] == ["submit_answer"] and trajectory.end.status == "submitted"
    assert trajectory.steps[0].observation == "Your answer has been recorded. The episode is over."
    few = await run_benchmark(RunConfig(benchmark="session-intent", model="random", prompting="few-shot", limit=1,
                                        out=tmp_path / "few"))
    assert few.summary.total == 4  # --limit counts per task: one item of each of the four tasks
    assert score_run(few.run_dir).to_json()["prompting"] == "few-shot"


async def test_shopping_mmlu_samples_run_score_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", task_ids=MMLU_FIRST_TEN,
                                          out=out))
    assert first.summary.completed == 10
    with pytest.raises(RunDirError):
        await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", out=out))
    with pytest.raises(RunDirError, match="does not exist"):
        await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", out=tmp_path / "nope", resume=True))
    assert not (tmp_path / "nope").exists()
    # a crash mid-episode: the file has a start but no end; resume replays it and adds the remaining items
    crashed = sorted(iter_episode_files(out))[0]
    crashed.write_text(crashed.read_text().splitlines()[0] + "\n")
    resumed = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", out=out, resume=True))
    assert resumed.summary.skipped == 9 and resumed.summary.completed == 28 - 9
    scored = score_run(out).to_json()
    assert len(scored["items"]) == 28
    metrics = {row["metric"] for row in scored["items"].values()}
    assert metrics >= {"accuracy", "hit rate@3", "ndcg", "micro f1", "rougel", "bleu", "sent-transformer"}
    assert set(scored["skills"]) == {"skill1_concept", "skill2_reasoning", "skill3_behavior", "skill4_multilingual"}
    assert "FALLBACK" in scored["embedders"]["multilingual-sent-transformer"]


async def test_few_shot_mmlu_records_demonstrations(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", prompting="few-shot", shots=1,
                                           task_ids=["sample-01"], out=tmp_path / "run"))
    trajectory = read_trajectory(next(iter(iter_episode_files(result.run_dir))))
    assert trajectory.start.instruction.count("Answer: ") == 2  # one demonstration + the question


def test_predictions_contract(tmp_path: Path) -> None:
    from benchmarks.shopping_mmlu import load_items

    items = load_items()
    gold_like = {"multiple-choice": lambda i: str(i.output_field), "named_entity_recognition": lambda i: ", ".join(
        i.output_field)}
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps({"id": i.id, "output": gold_like[i.task_type](i)}) + "\n" for i in items
                             if i.task_type in gold_like))
    result = get_scorer("shopping-mmlu").score_predictions(preds, ScoreOptions()).to_json()
    assert result["overall"] == 1.0 and result["not_scored"]["unanswered"] == 28 - 11
    ner = next(row for row in result["items"].values() if row["task"] == "sample_query_ner")
    assert {"score", "parsed", "task", "tp", "fp", "fn"} <= set(ner)

    qa_preds = tmp_path / "iqa.jsonl"
    qa_preds.write_text(json.dumps({"id": "task1:FS_1", "output": "Answer: B"}) + "\n"
                        + json.dumps({"id": "task2:FS_1", "output": "Error"}) + "\n")
    iqa = get_scorer("intentionqa").score_predictions(qa_preds, ScoreOptions()).to_json()
    assert iqa["items"]["task1:FS_1"]["parsed"] == "A" and iqa["items"]["task2:FS_1"]["excluded"] is True
    assert iqa["invalid_rate"] == 0.5

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "task1:FS_1", "output": "A"}) + "\n" + json.dumps({"id": "nope", "output": "A"}))
    with pytest.raises(DataFileError, match="bad.jsonl:2"):
        get_scorer("intentionqa").score_predictions(bad, ScoreOptions())


def test_cli_run_and_score(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from shopbench.cli import app

    runner = CliRunner()
    out = tmp_path / "run"
    ran = runner.invoke(app, ["run", "session-intent", "--model", "random", "--limit", "1", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    scored = runner.invoke(app, ["score", str(out), "--json", str(tmp_path / "s.json")])
    assert scored.exit_code == 0, scored.output
    assert json.loads((tmp_path / "s.json").read_text())["benchmark"] == "session-intent"
    wrong = runner.invoke(app, ["run", "intentionqa", "--model", "random", "--prompting", "few-shot", "--out",
                                str(tmp_path / "x")])
    assert wrong.exit_code == 2 and "zero-shot, cot, cot-sc" in wrong.output
    not_here = runner.invoke(app, ["run", "intentionqa", "--model", "random", "--world", str(tmp_path), "--out",
                                   str(tmp_path / "x")])
    assert not_here.exit_code == 2 and "--world does not apply to intentionqa" in not_here.output
    assert not (tmp_path / "x").exists()


def test_episode_ids_are_file_safe_and_unique() -> None:
    ids = [episode_id_for(i) for i in ("task1:FS_1", "task1_FS_1", "multiple_choice/unit:0", "sample-00")]
    assert len(set(ids)) == 4 and ids[3] == "sample-00-e0" and episode_id_for("sample-00", 2) == "sample-00-e2"
    assert all("/" not in i and ":" not in i for i in ids)


async def test_intentionqa_cot_sc_records_five_samples(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="intentionqa", model="random", prompting="cot-sc", limit=6,
                                           out=tmp_path / "run"))
    assert result.summary.total == 12  # six per task
    trajectory = read_trajectory(next(iter(iter_episode_files(result.run_dir))))
    samples = json.loads(trajectory.end.answer)
    assert len(samples) == 5 and trajectory.steps[0].arguments["answer"] == trajectory.end.answer
    scored = score_run(result.run_dir).to_json()
    assert scored["prompting"] == "cot-sc"
    assert all(row["parsed"] in "ABCD" and len(row["parsed"]) == 1 for row in scored["items"].values())
