"""Issue 10 fixes: IntentionQA excluded items carry no score and say why; the grader audit; undefined r explained."""

from __future__ import annotations

from _scoring_runs import make_run, official_catalog, recommend, write_episode
from rich.console import Console

from benchmarks.intentionqa import aggregate, score_item
from benchmarks.intentionqa.loader import load_items
from benchmarks.intentionqa.metrics import EXCLUDED_FAILED_CALL, EXCLUDED_FEWER_OPTIONS
from evaluators.results.reports.audit import audit_run
from evaluators.results.reports.console import shoppingbench_renderables
from evaluators.results.shoppingbench.catalog import MappingLookup
from evaluators.results.shoppingbench.scorer import score_trajectories


def test_intentionqa_items_with_fewer_than_four_options_carry_no_score():
    items = load_items()
    short = next(item for item in items if not item.scorable)
    full = next(item for item in items if item.scorable)
    scores = {short.qid: score_item(short, short.gold_ind, "zero-shot"),  # right letter, still no score
              full.qid: score_item(full, None, "zero-shot")}
    record = scores[short.qid].report()
    assert record["score"] is None and record["excluded"] is True
    assert record["excluded_reason"] == EXCLUDED_FEWER_OPTIONS
    assert scores[full.qid].report()["excluded_reason"] == EXCLUDED_FAILED_CALL
    summary = aggregate([short, full], scores)
    assert summary["skipped_fewer_than_4_options"] == 1 and summary["invalid"] == 1  # the skip is no failed call


def test_grader_audit_flags_ids_the_agent_never_saw(tmp_path):
    tasks, products = official_catalog()
    a, b, c = [t for t in tasks if t.intent == "product"][:3]
    run = make_run(tmp_path / "run")
    target_a, target_b = a.targets[0].product_id, b.targets[0].product_id
    # a: found by a search whose observation lists it → grounded
    seen = write_episode(run, a, [("find_product", {"q": "x", "page": 1}), ("recommend_product",
                                                                            {"product_ids": target_a})])
    # b: viewed by id before anything showed it (the view's observation then holds it) → named before seen
    premature = write_episode(run, b, [("view_product_information", {"product_ids": target_b}),
                                       ("recommend_product", {"product_ids": target_b})])
    # c: recommended straight away → never seen
    never = write_episode(run, c, recommend(c.targets[0].product_id)[2:])
    for episode, observation in ((seen, [{"product_id": target_a}]), (premature, [{"product_id": target_b}])):
        path = run / "episodes" / f"{episode}.jsonl"
        lines = path.read_text().splitlines()
        lines[1] = lines[1].replace('"observation":{"ok":true}', f'"observation":{_json(observation)}')
        path.write_text("\n".join(lines) + "\n")
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    assert all(result.episode_success().values())
    audit = audit_run(run, result)
    assert audit is not None and audit.successes == 3
    flags = {flag.episode_id: flag for flag in audit.flags}
    assert set(flags) == {premature, never}
    assert flags[premature].named_before_seen == [target_b] and flags[premature].never_seen == []
    assert flags[never].never_seen == [c.targets[0].product_id]
    assert audit.text() == "2 of 3 successes use ids not seen first"
    assert result.overall_asr.value == 1.0  # the reference score is untouched


def _json(value) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


def test_trajectory_table_says_why_r_is_undefined(tmp_path):
    tasks, products = official_catalog()
    run = make_run(tmp_path / "run")
    for task in [t for t in tasks if t.intent == "product"][:3]:  # every episode succeeds: success is constant
        write_episode(run, task, recommend(task.targets[0].product_id))
    result = score_trajectories(run, lambda _: tasks, MappingLookup(products))
    console = Console(width=200, record=True)
    for renderable in shoppingbench_renderables(result):
        console.print(renderable)
    text = console.export_text()
    assert "(r –)" in text and "success is constant" in text
