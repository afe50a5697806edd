"""`shopbench info` prints each layer's part of every benchmark and where it came from (its own registration or its
kind's default), the model providers with their SDKs, the baselines and the installed agents."""

from __future__ import annotations

import re

from typer.testing import CliRunner

import examples.tiny_sandbox as tiny
from shopbench.cli import app


def parts_of(output: str, benchmark: str) -> dict[str, str]:
    """registry → the line's entry and source, for one benchmark's block."""
    found: dict[str, str] = {}
    for line in output.split(f"\n  {benchmark} (", 1)[1].splitlines()[1:]:
        if not line.startswith("    "):
            break
        what, _, shown = line.strip().partition("  ")
        found[what] = shown.strip()
    return found


def test_info_says_where_each_part_of_each_benchmark_came_from() -> None:
    result = CliRunner().invoke(app, ["info"])
    assert result.exit_code == 0, result.output
    shopping = parts_of(result.output, "shoppingbench")
    assert shopping["server suite"] == "mcp_server.shopping.suite:ShoppingSuite  (its own)"
    assert shopping["player"] == "evaluators.harness.players:AgentPlayer  (the agentic default)"
    assert shopping["play screen"] == "shopbench_tui.play.screens:ShoppingScreen  (its own)"
    assert parts_of(result.output, "intentionqa")["server suite"] == "mcp_server.qa_suites:QASuite  (the qa default)"
    plugin = parts_of(result.output, tiny.NAME)
    assert plugin["server suite"] == "examples.tiny_sandbox:ScalesSuite  (its own)"
    assert plugin["scorer"] == "examples.tiny_sandbox:TinyScorer  (its own)"
    assert plugin["player"].endswith("(the agentic default)")
    assert re.search(r"\n  openai +openai [0-9.]+ ", result.output)
    assert re.search(r"\n  heuristic +no SDK ", result.output)
    assert re.search(r"\n  majority +\(qa\)", result.output)
    assert re.search(r"\n  codex +@openai/codex@", result.output)


def test_info_of_one_benchmark_and_an_unknown_one() -> None:
    one = CliRunner().invoke(app, ["info", "session-intent"])
    assert one.exit_code == 0 and "shoppingbench" not in one.output and "Model providers" not in one.output
    assert parts_of(one.output, "session-intent")["scorer"] == "evaluators.results.questions:QAScorer  (the qa default)"
    unknown = CliRunner().invoke(app, ["info", "shopingbench"])
    assert unknown.exit_code == 2 and "Did you mean 'shoppingbench'" in unknown.output
