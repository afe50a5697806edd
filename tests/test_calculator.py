"""The calculate tool: safe arithmetic (no eval) and cart pricing under every voucher rule of SPEC §1.4."""

from __future__ import annotations

import gzip

import pytest

from benchmarks.shoppingbench.schema import CorpusRecord, Product
from mcp_server.shopping.calculator import MAX_EXPONENT, CalculationError, evaluate
from mcp_server.shopping.tools import Sandbox, ToolCallError


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("2 ** 3 ** 2", 512),
        ("-2 ** 2", -4),
        ("(-2) ** 2", 4),
        ("+5 - -3", 8),
        ("10 / 4", 2.5),
        ("7 // 2", 3),
        ("7 % 3", 1),
        ("0.1 + 0.2", 0.3),
        ("120 * (1 - 0.25)", 90),
        ("1e3 / 8", 125),
    ],
)
def test_arithmetic_follows_python_precedence(expression: str, value: float) -> None:
    assert evaluate(expression) == value


def test_whole_results_are_ints_and_fractions_stay_floats() -> None:
    assert isinstance(evaluate("4 / 2"), int)
    assert evaluate("1 / 3") == pytest.approx(0.3333333333)


@pytest.mark.parametrize("expression", ["1 / 0", "5 // 0", "5 % 0", "0 ** -1"])
def test_division_by_zero_is_an_error(expression: str) -> None:
    with pytest.raises(CalculationError, match="division by zero"):
        evaluate(expression)


@pytest.mark.parametrize(
    ("expression", "complaint"),
    [
        ("x + 1", "the name 'x'"),
        ("__import__('os').system('true')", "function call"),
        ("abs(-1)", "function call"),
        ("(1).real", "attribute"),
        ("'a' * 3", "not a number"),
        ("True + 1", "not a number"),
        ("[1, 2]", "list syntax"),
        ("1 if 2 else 3", "ifexp syntax"),
        ("1 < 2", "compare syntax"),
        ("lambda: 1", "lambda syntax"),
    ],
)
def test_anything_but_arithmetic_is_refused(expression: str, complaint: str) -> None:
    with pytest.raises(CalculationError, match=complaint):
        evaluate(expression)


def test_huge_exponents_and_overflow_are_refused_quickly() -> None:
    with pytest.raises(CalculationError, match="exponent"):
        evaluate(f"2 ** {MAX_EXPONENT + 1}")
    with pytest.raises(CalculationError, match="too large"):
        evaluate("9 ** 999")
    with pytest.raises(CalculationError, match="not a finite number"):
        evaluate("1e308 * 10")


@pytest.mark.parametrize("expression", ["-" * 999 + "1", "(" * 300 + "1" + ")" * 300, "-(" * 250 + "1" + ")" * 250])
def test_deep_nesting_is_named_as_such(expression: str) -> None:
    with pytest.raises(CalculationError, match="expression nested too deeply"):
        evaluate(expression)


def test_long_flat_expressions_are_fine_and_errors_stay_short() -> None:
    assert evaluate("+".join(["1"] * 450)) == 450
    with pytest.raises(CalculationError) as refused:
        evaluate("x" + "+1" * 400)
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize("expression", ["", "   ", "1 +", "import os", "1" * 1001])
def test_unparsable_or_empty_input_is_an_error(expression: str) -> None:
    with pytest.raises(CalculationError):
        evaluate(expression)


# ---- cart form, through the calculate tool over a real Lucene index of a hand-built catalog -----------------------

PRODUCTS = [
    Product(product_id="A", shop_id="s1", title="red kettle", price=60.0),
    Product(product_id="B", shop_id="s1", title="blue kettle", price=40.0),
    Product(product_id="C", shop_id="s2", title="green kettle", price=100.0),
    Product(product_id="D", shop_id="s1", title="white kettle", price=30.0),
]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    from mcp_server.shopping.search.product_index import ProductIndex

    root = tmp_path_factory.mktemp("cart-catalog")
    catalog = root / "catalog.jsonl.gz"
    with gzip.open(catalog, "wt", encoding="utf-8") as handle:
        for product in PRODUCTS:
            handle.write(CorpusRecord.of(product).model_dump_json() + "\n")
    return Sandbox(ProductIndex.open_or_build(catalog, root / "index"), knowledge=None)


def price(sandbox: Sandbox, ids: str, **voucher: object) -> dict:
    return sandbox.call("calculate", {"product_ids": ids, **voucher})


FIXED = {"voucher_type": "platform", "threshold": 100, "discount_type": "fixed", "face_value": 20}


def test_voucher_applies_at_exactly_the_threshold(sandbox: Sandbox) -> None:
    result = price(sandbox, "A,B", **FIXED)
    assert result["list_total"] == 100
    assert result["voucher_applies"] is True
    assert result["total_after_voucher"] == 80


def test_voucher_does_not_apply_below_the_threshold(sandbox: Sandbox) -> None:
    result = price(sandbox, "A,D", **FIXED)
    assert (result["list_total"], result["voucher_applies"], result["total_after_voucher"]) == (90, False, 90)
    assert "below the threshold" in result["reason"]


def test_percentage_discount_is_capped_when_the_cap_binds(sandbox: Sandbox) -> None:
    voucher = {"voucher_type": "platform", "threshold": 50, "discount_type": "percentage", "discount": 0.5, "cap": 20}
    assert price(sandbox, "A,B", **voucher)["total_after_voucher"] == 80  # 50% would be 50 off; the cap allows 20


def test_percentage_discount_when_the_cap_does_not_bind(sandbox: Sandbox) -> None:
    voucher = {"voucher_type": "platform", "threshold": 50, "discount_type": "percentage", "discount": 0.1, "cap": 50}
    assert price(sandbox, "A,B", **voucher)["total_after_voucher"] == 90


def test_shop_voucher_needs_every_product_from_one_shop(sandbox: Sandbox) -> None:
    shop = dict(FIXED, voucher_type="shop")
    mixed = price(sandbox, "A,C", **shop)
    assert mixed["voucher_applies"] is False and mixed["total_after_voucher"] == 160
    assert "same shop" in mixed["reason"]
    same = price(sandbox, "A,B", **shop)
    assert same["voucher_applies"] is True and same["total_after_voucher"] == 80
    assert [item["shop_id"] for item in mixed["items"]] == ["s1", "s2"]


def test_platform_voucher_ignores_shops(sandbox: Sandbox) -> None:
    assert price(sandbox, "A,C", **FIXED)["total_after_voucher"] == 140


def test_budget_check_passes_outright_or_through_the_voucher(sandbox: Sandbox) -> None:
    assert price(sandbox, "A,B", **FIXED, budget=100)["within_budget"] is True  # list total already fits
    assert price(sandbox, "A,B", **FIXED, budget=85)["within_budget"] is True  # 80 after the voucher
    assert price(sandbox, "A,B", **FIXED, budget=79)["within_budget"] is False
    assert price(sandbox, "A,D", **FIXED, budget=85)["within_budget"] is False  # voucher does not apply at 90
    assert price(sandbox, "A,D", budget=90)["within_budget"] is True  # no voucher given


def test_cart_without_voucher_reports_the_list_total_only(sandbox: Sandbox) -> None:
    result = price(sandbox, "A,B,C")
    assert result["list_total"] == 200
    assert "voucher_applies" not in result


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        ({"product_ids": "A,ZZZ"} | FIXED, "no product has the id"),
        ({"product_ids": "A", "voucher_type": "platform"}, "needs threshold, discount_type"),
        ({"product_ids": "A", "threshold": 10, "voucher_type": "platform", "discount_type": "fixed"}, "face_value"),
        ({"product_ids": "A", "threshold": 10, "voucher_type": "platform", "discount_type": "percentage",
          "discount": 25}, "fraction"),
        ({"product_ids": "A", "voucher_type": "coupon", "threshold": 1, "discount_type": "fixed", "face_value": 1},
         "voucher_type"),
        ({"product_ids": "A", "expression": "1+1"}, "not both"),
        ({}, "give an expression"),
        ({"expression": "x"}, "the name 'x'"),
    ],
)
def test_malformed_calculate_calls_are_errors_the_agent_can_act_on(
    sandbox: Sandbox, arguments: dict, complaint: str
) -> None:
    with pytest.raises(ToolCallError, match=complaint):
        sandbox.call("calculate", arguments)
