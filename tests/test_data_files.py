"""Bad data files: every kind is reported as `FILE:LINE: what is wrong`, naming the right file, with a non-zero exit
and no output file (or a half-written one) left behind. Driven through `shopbench score` as a user would."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.intentionqa.loader import TASK_FILES
from benchmarks.jsonl import DataFileError, read_jsonl, write_json_atomic, write_jsonl
from benchmarks.session_intent.loader import SAMPLES_PATH as SESSION_SAMPLES
from benchmarks.session_intent.loader import load_items as load_session_items
from benchmarks.shopping_mmlu.loader import SAMPLES_PATH as MMLU_SAMPLES
from benchmarks.shopping_mmlu.loader import load_items as load_mmlu_items
from benchmarks.shoppingbench.schema import TASK_FILES as SHOPPING_TASK_FILES
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR, load_task_set
from evaluators.results.shoppingbench.catalog import load_catalog_products
from shopbench.cli import app

ITEM_LINES = TASK_FILES["task1"].read_text(encoding="utf-8").splitlines()[:4]
ITEM_IDS = [f"task1:{json.loads(line)['id']}" for line in ITEM_LINES]


def write_items(folder: Path, name: str = "items.jsonl", lines: list[str] | None = None) -> Path:
    path = folder / name
    text = "".join(line + "\n" for line in (ITEM_LINES if lines is None else lines))
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def prediction_lines(outputs: list[object] | None = None) -> list[str]:
    outputs = outputs if outputs is not None else ["A"] * len(ITEM_IDS)
    return [json.dumps({"id": item_id, "output": output}) for item_id, output in zip(ITEM_IDS, outputs, strict=False)]


def write_predictions(folder: Path, lines: list[str], name: str = "predictions.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def score(items: Path, predictions: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["score", "--benchmark", "intentionqa", "--items", str(items),
                                      "--predictions", str(predictions), "--json", str(out)])
    return result.exit_code, result.output


def assert_reported(code: int, output: str, path: Path, line: int, problem: str, out: Path) -> None:
    """Non-zero exit, the message names `path:line` and the problem, no traceback, and no output file (nor a
    temporary one) in the output folder."""
    assert code != 0, output
    assert f"{path}:{line}: " in output, output
    assert re.search(problem, output), output
    assert "Traceback" not in output
    assert not out.exists()
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}")] == []


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder / "scores.json"


def test_good_files_score_and_the_json_appears(tmp_path: Path, out: Path) -> None:
    code, output = score(write_items(tmp_path, "items.jsonl.gz"), write_predictions(tmp_path, prediction_lines()), out)
    assert code == 0, output
    assert set(json.loads(out.read_text(encoding="utf-8"))["items"]) == set(ITEM_IDS)
    assert [p.name for p in out.parent.iterdir()] == ["scores.json"]


def test_truncated_gzip_items(tmp_path: Path, out: Path) -> None:
    items = tmp_path / "items.jsonl.gz"
    whole = gzip.compress("".join(line + "\n" for line in ITEM_LINES).encode("utf-8"))
    items.write_bytes(whole[: len(whole) * 2 // 3])
    code, output = score(items, write_predictions(tmp_path, prediction_lines()), out)
    match = re.search(re.escape(str(items)) + r":(\d+): the gzip stream ends early", output)
    assert match and 1 <= int(match.group(1)) <= len(ITEM_LINES), output
    assert_reported(code, output, items, int(match.group(1)), "truncated", out)


def test_fake_gzip_predictions(tmp_path: Path, out: Path) -> None:
    predictions = write_predictions(tmp_path, prediction_lines(), name="predictions.jsonl.gz")  # plain text
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 1, "not gzip", out)


def test_corrupt_gzip_data(tmp_path: Path, out: Path) -> None:
    whole = bytearray(gzip.compress("".join(line + "\n" for line in ITEM_LINES).encode("utf-8")))
    whole[20:60] = b"\xff" * 40  # the header is intact, the deflate stream is not
    items = tmp_path / "items.jsonl.gz"
    items.write_bytes(bytes(whole))
    code, output = score(items, write_predictions(tmp_path, prediction_lines()), out)
    assert_reported(code, output, items, 1, "corrupt gzip data|gzip stream ends early", out)


def test_invalid_utf8_names_the_line(tmp_path: Path, out: Path) -> None:
    predictions = tmp_path / "predictions.jsonl"
    lines = [line.encode("utf-8") for line in prediction_lines()]
    lines[2] = lines[2].replace(b'"A"', b'"A\xff"')
    predictions.write_bytes(b"\n".join(lines) + b"\n")
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 3, r"not valid UTF-8 \(byte 0xff at column \d+\)", out)


def test_invalid_json(tmp_path: Path, out: Path) -> None:
    lines = prediction_lines()
    lines[1] = lines[1][:-1]
    predictions = write_predictions(tmp_path, lines)
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 2, "not valid JSON", out)


def test_wrong_json_types_in_items(tmp_path: Path, out: Path) -> None:
    lines = list(ITEM_LINES)
    record = json.loads(lines[2])
    record["options"] = ["a", "b"]
    lines[2] = json.dumps(record)
    items = write_items(tmp_path, lines=lines)
    code, output = score(items, write_predictions(tmp_path, prediction_lines()), out)
    assert_reported(code, output, items, 3, r"options: .*dictionary.* \(found an array\)", out)


def test_an_item_line_that_is_not_an_object(tmp_path: Path, out: Path) -> None:
    items = write_items(tmp_path, lines=[*ITEM_LINES[:1], "[1, 2]", *ITEM_LINES[1:]])
    code, output = score(items, write_predictions(tmp_path, prediction_lines()), out)
    assert_reported(code, output, items, 2, "expected a JSON object, found an array", out)


@pytest.mark.parametrize(("value", "found"), [({"answer": "A"}, "an object"), (3, "a number"), (None, "null"),
                                              (["A"], "an array")])
def test_prediction_output_must_be_text(tmp_path: Path, out: Path, value: object, found: str) -> None:
    predictions = write_predictions(tmp_path, prediction_lines(["A", value, "B"]))
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 2, f"output must be the model's raw text \\(a string\\), found {found}",
                    out)


def test_a_prediction_line_that_is_not_an_object(tmp_path: Path, out: Path) -> None:
    predictions = write_predictions(tmp_path, [*prediction_lines()[:2], '"A"'])
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 3, "found a string", out)


def test_duplicate_prediction_ids(tmp_path: Path, out: Path) -> None:
    lines = prediction_lines()
    predictions = write_predictions(tmp_path, [*lines[:3], lines[0]])
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 4, f"duplicate id '{ITEM_IDS[0]}' \\(first on line 1\\)", out)


def test_duplicate_item_ids(tmp_path: Path, out: Path) -> None:
    items = write_items(tmp_path, lines=[*ITEM_LINES, ITEM_LINES[1]])
    code, output = score(items, write_predictions(tmp_path, prediction_lines()), out)
    assert_reported(code, output, items, len(ITEM_LINES) + 1, "duplicate id .* \\(first on line 2\\)", out)


def test_directories_are_named(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "folder.jsonl"
    folder.mkdir()
    code, output = score(write_items(tmp_path), folder, out)
    assert_reported(code, output, folder, 1, "is a directory", out)
    code, output = score(folder, write_predictions(tmp_path, prediction_lines()), out)
    assert_reported(code, output, folder, 1, "is a directory", out)


def test_an_empty_items_file_blames_the_items_file(tmp_path: Path, out: Path) -> None:
    items = write_items(tmp_path, lines=[])
    predictions = write_predictions(tmp_path, prediction_lines())
    code, output = score(items, predictions, out)
    assert_reported(code, output, items, 1, "empty", out)
    assert str(predictions) not in output


def test_an_empty_predictions_file(tmp_path: Path, out: Path) -> None:
    predictions = write_predictions(tmp_path, ["", "  "])
    code, output = score(write_items(tmp_path), predictions, out)
    assert_reported(code, output, predictions, 1, "empty", out)


def test_a_failed_score_leaves_an_earlier_output_untouched(tmp_path: Path, out: Path) -> None:
    out.write_text("earlier\n", encoding="utf-8")
    predictions = write_predictions(tmp_path, prediction_lines(["A", None]))
    code, output = score(write_items(tmp_path), predictions, out)
    assert code != 0 and f"{predictions}:2: " in output
    assert out.read_text(encoding="utf-8") == "earlier\n"


def test_shoppingbench_predictions_and_catalog(tmp_path: Path, out: Path) -> None:
    def run(predictions: Path, catalog: Path) -> tuple[int, str]:
        result = CliRunner().invoke(app, ["score", "--benchmark", "shoppingbench", "--predictions", str(predictions),
                                          "--catalog", str(catalog), "--json", str(out)])
        return result.exit_code, result.output

    good = {"intent": "product", "task_index": 0, "recommended": "123"}
    catalog = tmp_path / "catalog.jsonl.gz"
    whole = gzip.compress(b"".join(json.dumps({"id": f"p{i}", "contents": "x", "product": {}}).encode() + b"\n"
                                   for i in range(2000)))
    catalog.write_bytes(whole[: len(whole) // 2])
    predictions = write_predictions(tmp_path, [json.dumps(good)])
    code, output = run(predictions, catalog)
    assert re.search(re.escape(str(catalog)) + r":\d+: the gzip stream ends early", output), output
    assert code != 0 and not out.exists()

    empty = write_predictions(tmp_path, [], "empty.jsonl")
    assert_reported(*run(empty, catalog), empty, 1, "empty", out)
    typed = write_predictions(tmp_path, [json.dumps({**good, "recommended": {"id": "1"}})], "typed.jsonl")
    assert_reported(*run(typed, catalog), typed, 1, r"recommended: .* \(found an object\)", out)


def test_other_loaders_name_file_and_line(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions.jsonl"
    first = SESSION_SAMPLES.read_text(encoding="utf-8").splitlines()[0]
    sessions.write_text(f"{first}\n{first}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{sessions}:2: duplicate id")):
        load_session_items(sessions)

    mmlu = tmp_path / "mmlu.jsonl"
    sample = MMLU_SAMPLES.read_text(encoding="utf-8").splitlines()[0]
    mmlu.write_text(f'{sample}\n{{"id": {{"x": 1}}}}\n{sample}\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{mmlu}:2: id: expected a string or an integer, found an")):
        load_mmlu_items(mmlu)
    mmlu.write_text(f"{sample}\n{sample}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{mmlu}:2: duplicate id 'sample-00' (first on line 1)")):
        load_mmlu_items(mmlu)
    csv_file = tmp_path / "multiple_choice" / "task_dataset.csv"
    csv_file.parent.mkdir()
    csv_file.write_text("", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{csv_file}:1: the file is empty")):
        load_mmlu_items(csv_file)

    task_set = tmp_path / "tasks"
    task_set.mkdir()
    official = (OFFICIAL_DIR / SHOPPING_TASK_FILES["product"]).read_text(encoding="utf-8").splitlines()
    bad = task_set / SHOPPING_TASK_FILES["product"]
    bad.write_text(f"{official[0]}\n42\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{bad}:2: expected a JSON object (one task), found a number")):
        load_task_set(task_set, "mine")
    bad.write_text("", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{bad}:1: the task set 'mine' holds no tasks")):
        load_task_set(task_set, "mine")

    catalog = tmp_path / "catalog.jsonl"
    catalog.write_bytes(b'{"id": "1", "contents": "x", "product": {"title": "caf\xe9"}}\n')
    with pytest.raises(DataFileError, match=re.escape(f"{catalog}:1: not valid UTF-8 (byte 0xe9 at column")):
        load_catalog_products(catalog, ["1"])


def test_lone_surrogates_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": "ok \\ud83d\\ude00"}\n{"a": "bad \\ud800"}\n', encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{path}:2: contains a lone UTF-16 surrogate")):
        list(read_jsonl(path))


def test_writers_are_atomic(tmp_path: Path) -> None:
    target = tmp_path / "export.jsonl.gz"
    assert write_jsonl(target, [{"n": 1}, {"n": 2}]) == 2
    assert [record for _, record in read_jsonl(target)] == [{"n": 1}, {"n": 2}]

    def failing():
        yield {"n": 3}
        raise RuntimeError("the exporter failed half way")

    with pytest.raises(RuntimeError):
        write_jsonl(target, failing())
    assert [record for _, record in read_jsonl(target)] == [{"n": 1}, {"n": 2}]  # the old file, whole
    with pytest.raises(TypeError):
        write_json_atomic(tmp_path / "scores.json", {"bad": object()})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.jsonl.gz"]
