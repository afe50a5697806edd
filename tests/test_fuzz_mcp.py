"""Fuzzing the MCP server through the official in-memory client (mode="legacy"): malformed and adversarial tool calls
(wrong types, huge and unicode strings, Lucene query syntax, calls before start_task and after terminate, unknown
tools). Every call must get a clear error or a valid result, no traceback or pydantic text may reach the client, the
server must keep answering, and every trajectory line must parse. This is the short version for `make test`; the
10,000-call run is perf/fuzz_mcp.py, which reuses the strategies and the checks below."""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from mcp_server.server import build_server
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.world import GENERATED_SET, World
from mcp_server.trajectory import read_trajectory

LEAKS = ("Traceback", 'File "', "pydantic", "errors.pydantic.dev")
TOOLS = ("list_tasks", "start_task", "find_product", "view_product_information", "calculate", "web_search",
         "recommend_product", "terminate", "submit_answer")
UNKNOWN_TOOLS = ("", "find_products", "record_malformed_tool_call", "__init__", "tools/list", "find_product\x00",
                 "計算", "x" * 300)
PARAMS = ("q", "page", "shop_id", "price", "sort", "service", "product_ids", "expression", "voucher_type", "threshold",
          "discount_type", "face_value", "discount", "cap", "budget", "max_results", "status", "answer", "task_id",
          "benchmark", "intent", "limit", "offset", "episode_id", "epoch", "agent_name", "agent_kind", "task_set")
LUCENE = ('title:(a OR b)^3 AND NOT *', '\\"', '"', "~", "a~0.5", "[a TO b]", "{a TO *}", "*", "?",
          "+-&&||!(){}[]^\"~*?:\\/", "title:", "AND", "NOT", "OR OR OR", "a AND", "(((", ")))",
          "/regex[/", "shirt^1e309", "*:*", "\\", "", " ", "price:[0 TO 10]", "a" * 1000 + " OR b")
EXPRESSIONS = ("1/0", "2**10**10", "9" * 5000, "(" * 500 + "1" + ")" * 500, "1e309*1e309", "__import__('os')",
               "1 +", "nan", "-inf", "0.1+0.2", "10 % 0", "2^3", "1,000 + 2", "abs(-1)", "-" * 1000 + "1")
ODD_IDS = ("", ",", ",,,,", "0", "-1", "p" * 10_000, "1, 2, 3", "\u202e1", " , ".join(["x"] * 500), "null")


def nasty_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=200),
        st.sampled_from(LUCENE), st.sampled_from(EXPRESSIONS), st.sampled_from(ODD_IDS),
        st.sampled_from(("success", "failure", "priceasc", "pricedesc", "order", "default", "platform", "shop",
                         "fixed", "percentage", "shoppingbench", "0-100", "100-", "-5", "a-b")),
        st.integers(min_value=1_000, max_value=60_000).map(lambda n: "é𝄞" * (n // 2)),
    )
    return st.one_of(scalars, st.lists(scalars, max_size=4), st.dictionaries(st.text(max_size=8), scalars, max_size=3))


def arguments(task_ids: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    keys = st.one_of(st.sampled_from(PARAMS), st.text(max_size=12))
    values = st.one_of(nasty_values(), st.sampled_from(task_ids))
    return st.dictionaries(keys, values, max_size=6)


def adversarial_text() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(LUCENE), st.sampled_from(EXPRESSIONS), st.sampled_from(ODD_IDS), st.sampled_from(
                     ("shirt", "red dress under 50", "2 * 21", "(1 + 2) / 3", "kids shoes", "phone case")),
                     st.text(max_size=60), st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
                     st.integers(min_value=1_000, max_value=60_000).map(lambda n: "é𝄞" * (n // 2)))


def typed_arguments(name: str, task_ids: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments of the right names and (mostly) the right types, with adversarial values: what reaches Lucene, the
    calculator and the id parsers."""
    text, small = adversarial_text(), st.one_of(st.integers(min_value=-3, max_value=12), st.integers())
    number = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                       st.integers(min_value=-(10**30), max_value=10**30))
    fields: dict[str, dict[str, st.SearchStrategy[Any]]] = {
        "find_product": {"q": text, "page": small, "shop_id": text, "price": st.one_of(text, st.sampled_from(
            ("0-100", "100-", "-5", "5-1", "nan-inf", "1e309-", "0-0"))), "sort": st.sampled_from(
            ("priceasc", "pricedesc", "order", "default", "PRICEASC", "")), "service": text},
        "view_product_information": {"product_ids": text},
        "recommend_product": {"product_ids": text},
        "calculate": {"expression": text, "product_ids": text, "voucher_type": st.sampled_from(("platform", "shop")),
                      "threshold": number, "discount_type": st.sampled_from(("fixed", "percentage")),
                      "face_value": number, "discount": number, "cap": number, "budget": number},
        "web_search": {"q": text, "max_results": small},
        "terminate": {"status": st.sampled_from(("success", "failure", "SUCCESS", ""))},
        "submit_answer": {"answer": text},
        "list_tasks": {"benchmark": text, "intent": text, "limit": small, "offset": small},
        "start_task": {"task_id": st.one_of(st.sampled_from(task_ids), text), "episode_id": text, "epoch": small,
                       "agent_name": text, "task_set": text},
    }
    required = {"find_product": ("q", "page"), "view_product_information": ("product_ids",),
                "recommend_product": ("product_ids",), "web_search": ("q",), "submit_answer": ("answer",),
                "terminate": ("status",), "start_task": ("task_id",)}.get(name, ())
    if name == "find_product":
        fields[name]["page"] = st.one_of(st.integers(min_value=1, max_value=5), small)
    optional = {key: value for key, value in fields[name].items() if key not in required}
    typed = st.fixed_dictionaries({key: fields[name][key] for key in required}, optional=optional)
    if name == "calculate":  # the expression form alone, too (any cart field next to it is an error)
        return st.one_of(st.fixed_dictionaries({"expression": text}), typed)
    return typed


@st.composite
def call_sequences(draw: st.DrawFn, task_ids: list[str], max_calls: int = 12) -> list[tuple[str, dict[str, Any]]]:
    """A sequence of calls: mostly the real tools in any order (so tools run before start_task, after terminate and
    twice), sometimes a proper start_task, sometimes an unknown tool."""
    calls: list[tuple[str, dict[str, Any]]] = []
    if draw(st.booleans()):
        calls.append(("start_task", {"task_id": draw(st.sampled_from(task_ids))}))
    for _ in range(draw(st.integers(min_value=1, max_value=max_calls))):
        kind = draw(st.sampled_from(("typed", "typed", "typed", "tool", "start", "terminate", "unknown")))
        if kind == "typed":
            name = draw(st.sampled_from(TOOLS))
            calls.append((name, draw(typed_arguments(name, task_ids))))
        elif kind == "start":
            calls.append(("start_task", {"task_id": draw(st.sampled_from(task_ids))}))
        elif kind == "terminate":
            calls.append(("terminate", {"status": draw(st.sampled_from(("success", "failure")))}))
        elif kind == "unknown":
            calls.append((draw(st.sampled_from(UNKNOWN_TOOLS)), draw(arguments(task_ids))))
        else:
            calls.append((draw(st.sampled_from(TOOLS)), draw(arguments(task_ids))))
    return calls


@dataclass
class Outcome:
    calls: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def crashes(self) -> int:
        return len(self.violations)


def _text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def _leak(text: str) -> str | None:
    return next((leak for leak in LEAKS if leak in text), None)


def _describe(name: str, args: dict[str, Any]) -> str:
    shown = repr(args)
    return f"{name!r} {shown[:300]}{'…' if len(shown) > 300 else ''}"


async def run_sequences(server: Any, sequences: list[list[tuple[str, dict[str, Any]]]], outcome: Outcome) -> None:
    """Play each sequence on its own in-memory client, classify every reply into `outcome`, and check that the server
    still answers afterwards."""
    for sequence in sequences:
        began = time.perf_counter()
        async with Client(server, mode="legacy") as client:
            for name, args in sequence:
                outcome.calls += 1
                try:
                    result = await client.call_tool(name, args)
                except MCPError as error:
                    message = error.error.message
                    outcome.kinds[f"protocol error {error.error.code}"] += 1
                    if not message.strip() or _leak(message):
                        outcome.violations.append(f"{_describe(name, args)}: unclear protocol error {message[:300]!r}")
                    continue
                except Exception as error:  # noqa: BLE001 - anything else is a crash the fuzzer reports
                    outcome.violations.append(f"{_describe(name, args)}: {type(error).__name__}: {error}"[:600])
                    continue
                text = _text(result)
                leak = _leak(text)
                if leak:
                    outcome.violations.append(f"{_describe(name, args)}: {leak!r} reached the client: {text[:300]!r}")
                if result.is_error:
                    outcome.kinds[f"tool error ({name if name in TOOLS else 'unknown tool'})"] += 1
                    if not text.strip():
                        outcome.violations.append(f"{_describe(name, args)}: an error with no message")
                elif not isinstance(result.structured_content, dict) or not result.structured_content:
                    outcome.violations.append(f"{_describe(name, args)}: a success without a structured result")
                else:
                    outcome.kinds[f"ok ({name})"] += 1
            tools = await client.list_tools()
            if not any(tool.name == "find_product" for tool in tools.tools):
                outcome.violations.append("the server stopped listing its tools")
        outcome.seconds += time.perf_counter() - began


def check_trajectories(runs: Path, outcome: Outcome) -> int:
    files = sorted(runs.rglob("*.jsonl"))
    for path in files:
        try:
            read_trajectory(path)
        except Exception as error:  # noqa: BLE001 - a trajectory that does not parse is a finding
            outcome.violations.append(f"{path}: {error}"[:600])
    return len(files)


def fuzz_server(world: World, runs: Path) -> tuple[Any, list[str]]:
    suite = ShoppingSuite(world, GENERATED_SET)
    return build_server(world, [suite], runs), [listing.task_id for listing in suite.listings()[:20]]


# ---- the short version, in `make test` -----------------------------------------------------------------------------


def test_fuzzed_tool_calls_get_clear_errors_or_valid_results(default_world, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    server, task_ids = fuzz_server(default_world, runs)
    outcome = Outcome()

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(sequence=call_sequences(task_ids))
    def fuzz(sequence: list[tuple[str, dict[str, Any]]]) -> None:
        before = len(outcome.violations)
        anyio.run(run_sequences, server, [sequence], outcome)
        assert len(outcome.violations) == before, outcome.violations[before:]

    fuzz()
    assert check_trajectories(runs, outcome) > 0
    assert not outcome.violations, outcome.violations
    assert outcome.calls >= 200, outcome.calls
    assert sum(n for kind, n in outcome.kinds.items() if kind.startswith("ok")) > 0, outcome.kinds
    assert sum(n for kind, n in outcome.kinds.items() if "error" in kind) > 0, outcome.kinds
    assert math.isfinite(outcome.seconds)


# ---- regressions the fuzzer found ----------------------------------------------------------------------------------


async def test_line_separator_characters_in_arguments_keep_the_trajectory_readable(default_world,
                                                                                   tmp_path: Path) -> None:
    """U+2028, U+2029 and U+0085 stay raw in JSON; the trajectory reader once split lines at them."""
    runs = tmp_path / "runs"
    server, task_ids = fuzz_server(default_world, runs)
    odd = "a\u2028b\u2029c\x85d"
    async with Client(server, mode="legacy") as client:
        await client.call_tool("start_task", {"task_id": task_ids[0], "episode_id": "separators"})
        await client.call_tool("find_product", {"q": odd, "page": 1})
        await client.call_tool("calculate", {"expression": odd})
        await client.call_tool("terminate", {"status": "failure"})
    (path,) = sorted(runs.rglob("separators*.jsonl"))
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps] == ["find_product", "calculate", "terminate"]
    assert trajectory.steps[0].arguments["q"] == odd and trajectory.end is not None


async def test_huge_product_ids_get_a_short_error_not_an_echo(default_world, tmp_path: Path) -> None:
    """A 40,000-character product_ids was echoed whole in view_product_information's (and calculate's) error."""
    server, task_ids = fuzz_server(default_world, tmp_path / "runs")
    huge = "é𝄞" * 20_000
    async with Client(server, mode="legacy") as client:
        await client.call_tool("start_task", {"task_id": task_ids[0]})
        for name, args in (("view_product_information", {"product_ids": huge}), ("recommend_product",
                           {"product_ids": huge}), ("calculate", {"product_ids": huge, "voucher_type": "platform",
                                                                  "threshold": 1, "discount_type": "fixed",
                                                                  "face_value": 1})):
            result = await client.call_tool(name, args)
            text = _text(result)
            assert result.is_error and "product_ids is too long (40000 characters; at most 1000)" in text, text[:200]
            assert len(text) < 500, name
