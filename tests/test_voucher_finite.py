"""Voucher amounts must be finite numbers wherever vouchers enter: a task file naming NaN or Infinity is refused naming
the file and line, `calculate` refuses them with an error the agent can read (a NaN threshold used to "apply" to
any cart), and the calculator refuses a literal that reads as infinity (1 / 1e999 used to give 0)."""

from __future__ import annotations

import json
import re

import pytest

from benchmarks.jsonl import DataFileError
from benchmarks.shoppingbench.schema import TASK_FILES
from benchmarks.shoppingbench.tasks import OFFICIAL_DIR, load_task_file
from mcp_server.shopping.calculator import CalculationError, evaluate
from mcp_server.shopping.tools import Sandbox, ToolCallError

VOUCHER_FILE = OFFICIAL_DIR / TASK_FILES["voucher"]


@pytest.mark.parametrize(("field", "value"), [("threshold", "NaN"), ("budget", "Infinity"), ("cap", "-Infinity")])
def test_a_task_file_with_a_non_finite_voucher_amount_names_file_line_and_field(tmp_path, field, value):
    lines = VOUCHER_FILE.read_text(encoding="utf-8").splitlines()[:3]
    record = json.loads(lines[1])
    record["voucher"][field] = value
    bad = tmp_path / TASK_FILES["voucher"]
    bad.write_text("\n".join([lines[0], json.dumps(record), lines[2]]) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{bad}:2: {field}: Input should be a finite number")):
        load_task_file(bad, "voucher", "mine")
    record["voucher"][field] = float(value)  # the bare JSON literals NaN / Infinity, which Python's json writes
    bad.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=re.escape(f"{bad}:1: {field}: Input should be a finite number")):
        load_task_file(bad, "voucher", "mine")


def test_calculate_refuses_a_non_finite_voucher_amount_with_an_error_the_agent_reads(default_world):
    sandbox = Sandbox(default_world.products, None)
    ids = ",".join(card["product_id"] for card in default_world.products.find("shirt")[:2])
    cart = {"product_ids": ids, "voucher_type": "platform", "threshold": 100, "discount_type": "fixed",
            "face_value": 10}
    assert sandbox.call("calculate", cart)["voucher_applies"] in (True, False)  # the finite voucher prices the cart
    for field, value in (("threshold", "NaN"), ("face_value", "Infinity"), ("budget", "-Infinity")):
        with pytest.raises(ToolCallError, match=rf"^calculate: {field}: Input should be a finite number"):
            sandbox.call("calculate", {**cart, field: value})


def test_the_calculator_refuses_a_literal_that_reads_as_infinity():
    with pytest.raises(CalculationError, match="too large"):
        evaluate("1 / 1e999")
    assert evaluate("1 / 1e300") == 0  # a tiny but finite result is still computed
