"""`shopbench info` prints each layer's part of every benchmark and where it came from (its own registration or its
kind's default, and the module), the model providers with their SDKs, the baselines and the installed agents — in
lines that fit 80 columns."""

from __future__ import annotations

import re

from typer.testing import CliRunner

import examples.tiny_sandbox as tiny
from shopbench.cli import app


def parts_of(output: str, benchmark: str) -> dict[str, str]:
    """registry → its entry, source and module, for one benchmark's block (wrapped lines joined)."""
    found: dict[str, str] = {}
    what = ""
    for line in output.split(f"\n  {benchmark} (", 1)[1].splitlines()[1:]:
        if not line.startswith("    "):
            break
        if line[4] != " ":
            what, _, shown = line.strip().partition("  ")
            found[what] = shown.strip()
        elif what:
            found[what] += " " + line.strip()
    return found


def test_info_says_where_each_part_of_each_benchmark_came_from() -> None:
    result = CliRunner().invoke(app, ["info"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    long = [line for line in result.output.splitlines() if len(line) > 80]
    assert not long, long
    shopping = parts_of(result.output, "shoppingbench")
    assert shopping["server suite"] == "ShoppingSuite (its own) in mcp_server.shopping.suite"
    assert shopping["player"] == "AgentPlayer (agentic default) in evaluators.harness.players"
    assert shopping["scorer"] == "ShoppingBenchScorer (agentic default) in evaluators.results.shoppingbench.scorer"
    assert shopping["play screen"] == "ShoppingScreen (its own) in shopbench_tui.play.screens"
    assert parts_of(result.output, "intentionqa")["server suite"] == "QASuite (qa default) in mcp_server.qa_suites"
    plugin = parts_of(result.output, tiny.NAME)
    assert plugin["server suite"] == "ScalesSuite (its own) in examples.tiny_sandbox"
    assert plugin["scorer"] == "TinyScorer (its own) in examples.tiny_sandbox"
    assert plugin["player"].startswith("AgentPlayer (agentic default)")
    assert re.search(r"\n  openai +openai [0-9.]+, ", result.output)
    assert re.search(r"\n  heuristic +no SDK, ", result.output)
    assert re.search(r"\n  majority +\(qa\)", result.output)
    assert re.search(r"\n  codex +@openai/codex@", result.output)


def test_info_of_one_benchmark_and_an_unknown_one() -> None:
    one = CliRunner().invoke(app, ["info", "session-intent"])
    assert one.exit_code == 0 and "shoppingbench" not in one.output and "Model providers" not in one.output
    assert parts_of(one.output, "session-intent")["scorer"] == "QAScorer (qa default) in evaluators.results.questions"
    unknown = CliRunner().invoke(app, ["info", "shopingbench"])
    assert unknown.exit_code == 2 and "Did you mean 'shoppingbench'" in unknown.output
