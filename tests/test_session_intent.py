"""SessionIntentBench: schema, the paper's prompts (Tables 8–13), parsing, binarisation, metrics, baselines."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks.jsonl import DataFileError
from benchmarks.session_intent import SAMPLES_PATH, binarise, build_prompt, load_items
from benchmarks.session_intent.baselines import majority_answers, random_answer
from benchmarks.session_intent.metrics import aggregate, macro_f1, score_item
from benchmarks.session_intent.parsers import parse


@pytest.fixture(scope="module")
def items():
    return load_items()


def test_samples_ten_per_task_marked(items) -> None:
    assert len(items) == 40
    assert all(item.sample for item in items)
    assert sorted({item.task for item in items}) == [1, 2, 3, 4]
    assert all(sum(item.task == t for item in items) == 10 for t in (1, 2, 3, 4))
    assert "NOT the benchmark" in (SAMPLES_PATH.parent / "README.md").read_text()


def test_zero_shot_prompts_follow_table_8(items) -> None:
    t1 = next(item for item in items if item.task == 1)
    text = build_prompt(t1, "zero-shot").user
    prev, last = t1.products[-2], t1.products[-1]
    assert text.startswith("Act as a customer who is browsing a series of products given as follows. \nProduct 1: ")
    assert (
        f"assuming you are a customer who has the intention of {prev.intention}. How likely are you to purchase "
        f"{last.title} based on the assumed intention?"
    ) in text
    assert text.endswith("Your Answer (Answer A or B or C or D only):")
    t4 = next(item for item in items if item.task == 4)
    assert build_prompt(t4).user.endswith("C. No: I want to explore products under other categories.\n\n"
                                          "Your Answer (Answer A or B or C only):")
    t2 = next(item for item in items if item.task == 2)
    assert f"highly value the feature {t2.products[-2].valued_attribute} of {t2.products[-2].title}." in (
        build_prompt(t2).user
    )
    t3 = next(item for item in items if item.task == 3)
    assert f"Does this comparison {t3.products[-1].comparison} provide an in-depth justification" in build_prompt(
        t3
    ).user
    for item in items:  # the tables' line-break backslashes do not survive
        assert "\\" not in build_prompt(item, "few-shot").user + build_prompt(item, "cot").user


def test_few_shot_and_cot_prompts(items) -> None:
    t3 = next(item for item in items if item.task == 3)
    few = build_prompt(t3, "few-shot").user
    assert few.count("Q: ") == 6 and few.endswith("provide in-depth justification of your impulse? A:")
    assert "Here are a few examples: Q: Comparing between a budget smartphone" in few
    cot = build_prompt(t3, "cot")
    assert cot.max_tokens == 256 and cot.user.endswith("in the last line of your response. Your Answer:")
    with pytest.raises(ValueError):
        build_prompt(t3, "cot-sc")


@pytest.mark.parametrize(
    ("output", "task", "prompting", "expected"),
    [
        ("B", 1, "zero-shot", "B"),
        (" b. Maybe yes", 2, "few-shot", "B"),
        ("D", 4, "zero-shot", ""),  # task 4 has only A–C
        ("Maybe", 1, "zero-shot", ""),
        ("The comparison is thin.\nFinal answer: C", 3, "cot", "C"),
        ("A reasonable step.\n\nB. Maybe yes\n", 1, "cot", "B"),
        ("Rationale only", 1, "cot", ""),
    ],
)
def test_parser(output: str, task: int, prompting: str, expected: str) -> None:
    assert parse(output, task, prompting) == expected


def test_binarisation() -> None:
    assert [binarise(letter, 1) for letter in "ABCD"] == [1, 1, 0, 0]
    assert [binarise(letter, 4) for letter in "ABC"] == [1, 0, 0]
    assert binarise("", 2) == -1


def test_accuracy_and_macro_f1(items) -> None:
    # predict the gold letter's binary partner (B for A, C for D...): accuracy 1 on binary labels, not on letters
    partner = {"A": "B", "B": "A", "C": "D", "D": "C"}
    outputs = {item.id: partner[item.gold] if item.task != 4 else item.gold for item in items}
    scores = {item.id: score_item(item, outputs[item.id], "zero-shot") for item in items}
    result = aggregate(items, scores)
    assert result["tasks"] == {"task1": 1.0, "task2": 1.0, "task3": 1.0, "task4": 1.0}
    assert result["exact_letter_accuracy"]["task1"] == 0.0
    assert macro_f1([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx((2 / 3 + 0.8) / 2)
    assert macro_f1([1, 0, 0], [0, 0, 0]) is None  # never predicting positive: undefined, as the paper's NaN


def test_baselines(items) -> None:
    majority = majority_answers(items)
    scores = {item.id: score_item(item, majority[item.id], "zero-shot") for item in items}
    result = aggregate(items, scores)
    for task in (1, 2, 3, 4):
        golds = [binarise(item.gold, task) for item in items if item.task == task]
        assert result["tasks"][f"task{task}"] == max(golds.count(0), golds.count(1)) / len(golds)
    rng = random.Random(0)
    letters = {random_answer(item, rng) for item in items if item.task == 4}
    assert letters <= {"A", "B", "C"} and len(letters) > 1


def test_schema_rejects_missing_metadata(tmp_path) -> None:
    record = json.loads(SAMPLES_PATH.read_text().splitlines()[2])  # a task-3 item
    assert record["task"] == 3
    record["products"][-1]["comparison"] = None
    path = tmp_path / "sib.jsonl"
    path.write_text(SAMPLES_PATH.read_text().splitlines()[0] + "\n" + json.dumps(record) + "\n")
    with pytest.raises(DataFileError, match=r"sib.jsonl:2: .*comparison"):
        load_items(path)
