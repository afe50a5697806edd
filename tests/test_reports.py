"""`shopbench report`: Markdown, HTML and PNG files that carry the runs' numbers (a model run and a human run)."""

from __future__ import annotations

import pytest
from _scoring_runs import make_run, official_catalog, recommend, write_episode

from evaluators.results.reports import write_report
from evaluators.results.reports.tables import ScoredRun
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories
from mcp_server.trajectory import read_manifest


@pytest.fixture(scope="module")
def official():
    return official_catalog()


SIZES = {("shoppingbench", "official"): None}
"""Constructed runs: coverage is judged against the runs reported together (the official set is far bigger)."""


def scored(run_dir, label, tasks, products) -> ScoredRun:
    result = score_trajectories(run_dir, lambda _: tasks, MappingLookup(products))
    return ScoredRun(run_dir, read_manifest(run_dir), result, label)


def test_report_compares_a_model_run_with_a_human_run(tmp_path, official):
    tasks, products = official
    product_tasks = [t for t in tasks if t.intent == "product"][:4]
    shop_task = next(t for t in tasks if t.intent == "shop")
    model = make_run(tmp_path / "model", name="llama-cpp:smollm2")
    for i, t in enumerate(product_tasks):  # 2 of 4 right
        write_episode(model, t, recommend(t.targets[0].product_id if i % 2 == 0 else "nope"))
    write_episode(model, shop_task, recommend(shop_task.targets[0].product_id))  # product missing
    human = make_run(tmp_path / "human", kind="human", name="alice")
    for t in product_tasks:  # all right, no token usage
        write_episode(human, t, recommend(t.targets[0].product_id), kind="human", name="alice", output_tokens=None)

    runs = [scored(model, "llama-cpp:smollm2", tasks, products), scored(human, "alice", tasks, products)]
    files = write_report(runs, tmp_path / "report", sizes=SIZES)

    markdown = files.markdown.read_text()
    page = files.html.read_text()
    for text in (markdown, page):
        assert "llama-cpp:smollm2" in text and "alice" in text
        assert runs[0].result.intents[0].asr.text() in text  # 0.500 [lo, hi]
        assert "1.000 [1.000, 1.000]" in text  # the human's product ASR
        assert "product missing" in text and "Tokens, cost and time" in text
        assert "all-MiniLM-L6-v2" in text and "Qwen3-Embedding-0.6B" in text
    assert "| llama-cpp:smollm2 | model | 5 | 4.0 | 2,000 | 400 | 0.0200 | 0.0100 |" in markdown
    # n per row; the human played 4 of the 5 tasks, so its overall is withheld
    assert "| product | human | alice | 4 | 1.000 [1.000, 1.000] | 1.000 [0.510, 1.000] |" in markdown
    assert "| overall | human | alice | 4 | partial: 4 of 5 tasks | – |" in markdown
    assert "| overall | model | llama-cpp:smollm2 | 5 | 0.250 [" in markdown  # complete: mean over 2 intents
    # the human is paired against the baseline, the only model run (A = the run, B = the baseline)
    assert "compared on the 4 tasks both runs played; left out: 0 played only by alice (of 4), 1 played only by " \
           "llama-cpp:smollm2 (of 5)" in markdown
    names = sorted(p.name for p in files.plots)
    assert names == ["shoppingbench_ASR.png", "shoppingbench_CAR.png", "shoppingbench_humans_vs_models.png",
                     "shoppingbench_paired_ASR.png"]
    for plot in files.plots:
        assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 5000
        assert plot.name in markdown and plot.name in page


def test_report_without_humans_has_no_humans_plot(tmp_path, official):
    tasks, products = official
    run = make_run(tmp_path / "only")
    write_episode(run, tasks[0], recommend(tasks[0].targets[0].product_id))
    files = write_report([scored(run, "m", tasks, products)], tmp_path / "out", sizes=SIZES)
    assert [p.name for p in files.plots] == ["shoppingbench_ASR.png", "shoppingbench_CAR.png"]


def test_report_command_scores_runs_through_the_registry(default_world, tmp_path):
    from typer.testing import CliRunner

    from shopbench.cli import app

    task_set = next(name for name in default_world.task_sets() if name != "official")
    tasks = [t for t in default_world.tasks(task_set) if t.intent == "shop"][:3]
    run = make_run(tmp_path / "run", world={"path": str(default_world.root)})
    for t in tasks:
        write_episode(run, t, recommend(",".join(x.product_id for x in t.targets)))
    outcome = CliRunner().invoke(app, ["report", str(run), "--out", str(tmp_path / "out")])
    assert outcome.exit_code == 0, outcome.output
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "| shop | model | test-model | 3 | 1.000 [1.000, 1.000] | 1.000 [0.439, 1.000] |" in markdown
    total = len(default_world.tasks(task_set))  # the task set's size comes from the run's world
    assert f"| overall | model | test-model | 3 | partial: 3 of {total} tasks | – |" in markdown
    assert (tmp_path / "out" / "shoppingbench_ASR.png").is_file()
