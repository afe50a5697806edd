"""The question benchmarks with the embedded llama.cpp model (real inference, a few items each)."""

from __future__ import annotations

from pathlib import Path

from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import score_run
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory


async def test_intentionqa_with_smollm2(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="intentionqa", model="llama-cpp:smollm2", intents=("task1",),
                                           limit=3, out=tmp_path / "run", cache=False))
    assert result.summary.completed == 3 and not result.summary.failed
    manifest = read_manifest(result.run_dir)
    assert manifest.agent.kind == "model" and manifest.agent.details
    for path in iter_episode_files(result.run_dir):
        trajectory = read_trajectory(path)
        assert trajectory.end.status == "submitted" and trajectory.end.answer is not None
        assert trajectory.steps[0].usage.output_tokens <= 10  # the reference's zero-shot budget
    scored = score_run(result.run_dir).to_json()
    assert len(scored["items"]) == 3 and scored["invalid"] == 0
    assert all(row["parsed"] is not None for row in scored["items"].values())


async def test_session_intent_cot_with_smollm2(tmp_path: Path) -> None:
    result = await run_benchmark(RunConfig(benchmark="session-intent", model="llama-cpp:smollm2", prompting="cot",
                                           task_ids=["sample-s01-t1"], out=tmp_path / "run", cache=False))
    assert result.summary.completed == 1
    assert score_run(result.run_dir).to_json()["prompting"] == "cot"
