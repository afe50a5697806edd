"""IntentionQA: the bundled data, the reference prompts and parsers (SPEC §3, §6), difficulty and aggregation."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks.intentionqa import TASK_FILES, build_prompt, load_items
from benchmarks.intentionqa.baselines import majority_answers, random_answer
from benchmarks.intentionqa.metrics import aggregate, difficulty_of, score_item
from benchmarks.intentionqa.parsers import parse, parse_cot, parse_cot_sc, parse_zero_shot
from benchmarks.intentionqa.prompts import reason_after_because
from benchmarks.jsonl import DataFileError


@pytest.fixture(scope="module")
def items():
    return load_items()


def test_bundled_data_both_tasks(items) -> None:
    assert (TASK_FILES["task1"].parent / "LICENSE").read_text().startswith("MIT License")
    tasks = [item.task for item in items]
    assert tasks.count("task1") == 2315 and tasks.count("task2") == 2315
    assert len({item.qid for item in items}) == len(items)
    assert items[0].qid == "task1:FS_1" and items[2315].qid == "task2:FS_1"
    assert sum(not item.scorable for item in items) == 70 + 172


def test_task1_prompt_is_the_reference(items) -> None:
    item = items[0]
    prompt = build_prompt(item, "zero-shot")
    assert prompt.system is None and prompt.max_tokens == 10 and prompt.temperature == 0.1
    assert prompt.user == (
        f"A customer buys {item.item_a_name} and {item.item_b_name}. What is the most likely intention for buying "
        "them?\n"
        f"A. {item.options['A']}\nB. {item.options['B']}\nC. {item.options['C']}\nD. {item.options['D']}\n"
        "Answer A or B or C or D only without any other word."
    )
    cot = build_prompt(item, "cot")
    assert cot.max_tokens == 200 and cot.user.endswith(
        "Formulate your answer in this way.\nStep 1: Give a short and brief rationale by thinking step by step.\n"
        "Step 2: Answer A or B or C or D only without any other word."
    )
    sc = build_prompt(item, "cot-sc")
    assert (sc.samples, sc.temperature, sc.max_tokens) == (5, 0.7, 200)
    with pytest.raises(ValueError, match="few-shot"):
        build_prompt(item, "few-shot")


def test_task2_prompt_takes_the_reason(items) -> None:
    item = items[2315]
    text = build_prompt(item).user
    reason = "because they both are a type of USB extension cable."
    assert text.startswith(f"A customer buys {item.item_a_name}, {reason}\n")
    assert "What is the customer's most probable additional purchase?\nA. " in text
    assert reason_after_because("PersonX bought A, as a result, he needs a case") == "as a result, he needs a case"
    assert reason_after_because("no marker here") == "e"  # the reference slices from index -1


def test_answer_line_follows_the_options(items) -> None:
    five = next(item for item in items if len(item.options) == 5)
    assert build_prompt(five).user.endswith("Answer A or B or C or D or E only without any other word.")


@pytest.mark.parametrize(
    ("output", "expected"),
    [("B", "B"), ("b.", "B"), ("  .C ", "C"), ("Answer: B", "A"), ("", " "), ("...", " "), ("D) hats", "D")],
)
def test_zero_shot_parser(output: str, expected: str) -> None:
    assert parse_zero_shot(output) == expected


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Step 1: Both are cables.\nStep 2: c", "C"),
        ("STEP 2:   d.", "D"),
        ("Step 1: thinking\nStep 2:", " "),
        ("The answer is B", " "),
        ("Step 2: .", " "),
        ("", " "),
    ],
)
def test_cot_parser(output: str, expected: str) -> None:
    assert parse_cot(output) == expected


def test_cot_sc_votes() -> None:
    samples = ["Step 2: A", "Step 2: B", "Step 2: B", "no", "Step 2: A"]
    assert parse_cot_sc(samples) == "A"  # tie 2–2: the first seen wins, as Counter.most_common
    assert parse(json.dumps(["Step 2: C", "Step 2: C", "Step 2: D"]), "cot-sc") == "C"


def test_failed_calls_are_excluded_and_counted(items) -> None:
    chosen = [item for item in items[:10] if item.scorable][:4]
    outputs = {chosen[0].qid: chosen[0].gold_ind, chosen[1].qid: "Error", chosen[2].qid: None, chosen[3].qid: "Z"}
    scores = {item.qid: score_item(item, outputs[item.qid], "zero-shot", similarity=0.7) for item in chosen}
    assert scores[chosen[1].qid].excluded and scores[chosen[2].qid].excluded
    result = aggregate(chosen, scores)
    assert result["overall"] == 0.5  # one right of two valid
    assert result["invalid"] == 2 and result["invalid_rate"] == 0.5
    assert result["difficulty"] == {"medium": 0.5}
    assert scores[chosen[0].qid].report()["task"] == "task1"


def test_items_with_fewer_than_four_options_are_skipped(items) -> None:
    short = next(item for item in items if not item.scorable)
    scores = {short.qid: score_item(short, short.gold_ind, "zero-shot")}
    result = aggregate([short], scores)
    assert result["overall"] is None and result["skipped_fewer_than_4_options"] == 1


def test_difficulty_thresholds() -> None:
    assert [difficulty_of(s) for s in (0.95, 0.85, 0.84, 0.6, 0.59)] == ["easy", "easy", "medium", "medium", "hard"]


def test_random_baseline_is_near_a_quarter(items) -> None:
    rng = random.Random(0)
    scorable = [item for item in items if item.scorable]
    scores = {item.qid: score_item(item, random_answer(item, rng), "zero-shot") for item in scorable}
    accuracy = aggregate(scorable, scores)["overall"]
    assert 0.22 < accuracy < 0.28
    majority = majority_answers(scorable)
    assert {majority[item.qid] for item in scorable if item.task == "task2"} == {"A"}


def test_bad_line_names_file_and_line(tmp_path) -> None:
    lines = TASK_FILES["task1"].read_text().splitlines()[:2]
    bad = json.loads(lines[1])
    del bad["options"]
    path = tmp_path / "qa.jsonl"
    path.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(DataFileError, match="qa.jsonl:2: options"):
        load_items(path)
