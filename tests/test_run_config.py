"""The run's options, by group, and the check that each applies: the benchmark's player part says which options it
takes (no branch on a benchmark's kind), and no step limit but the environment's default is written anywhere."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import examples.tiny_bench  # noqa: F401 - registers "tiny-bench"
from benchmarks.registry import get_benchmark
from evaluators import parts
from evaluators.harness.config import RunConfig, RunOptionError
from evaluators.harness.player_choice import check_options
from evaluators.harness.players import QuestionPlayer
from mcp_server.protocol import DEFAULT_MAX_STEPS

REPO = Path(__file__).resolve().parent.parent


def test_options_are_filed_in_their_groups():
    config = RunConfig(benchmark="shoppingbench", model="random", limit=2, world=Path("w"), temperature=0.5,
                       n_ctx=1024, out=Path("o"), server_url="http://x/mcp", shots=3)
    assert (config.selection.limit, config.options.world, config.decoding.temperature) == (2, Path("w"), 0.5)
    assert (config.backend.n_ctx, config.execution.out, config.execution.server_url) == (1024, Path("o"),
                                                                                         "http://x/mcp")
    assert config.options.shots == 3 and config.selection.epochs == 1 and config.options.max_steps is None
    with pytest.raises(TypeError, match="unknown option.*max_step"):
        RunConfig(benchmark="shoppingbench", model="random", max_step=3)


class WorldQuestions(QuestionPlayer):
    """A question player whose benchmark also takes a world (what a plugin's player may declare)."""

    options = ("items", "world")
    plays = "a question benchmark with a world"


def test_the_benchmarks_player_says_which_options_apply(monkeypatch):
    spec = get_benchmark("tiny-bench")
    with pytest.raises(RunOptionError, match="--world does not apply to tiny-bench .a question benchmark, which "
                                             "takes --items, --prompting, --shots"):
        check_options(spec, RunConfig(benchmark="tiny-bench", model="random", world=Path("w")))
    monkeypatch.setitem(parts.REGISTRIES["player"].by_name, "tiny-bench", WorldQuestions)
    check_options(spec, RunConfig(benchmark="tiny-bench", model="random", world=Path("w")))  # now it applies
    with pytest.raises(RunOptionError, match="--shots does not apply to tiny-bench .a question benchmark with a "
                                             "world, which takes --items, --world"):
        check_options(spec, RunConfig(benchmark="tiny-bench", model="random", shots=2))


def _step_limit_literals(path: Path) -> list[str]:
    """Places that fall back to a step limit of their own: `max_steps or <n>`, a `max_steps` parameter defaulting to
    a number, a `--max-steps` option defaulting to one."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        numbers: list[ast.expr] = []
        if isinstance(node, ast.BoolOp) and any("max_steps" in ast.unparse(v) for v in node.values):
            numbers = node.values
        elif isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args]
            defaults = dict(zip([a.arg for a in named[len(named) - len(node.defaults):]], node.defaults, strict=True))
            defaults |= {a.arg: d for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True) if d is not None}
            numbers = [defaults["max_steps"]] if "max_steps" in defaults else []
        elif isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value == "--max-steps"
                                                for a in node.args):
            numbers = node.args[:1]
        found += [f"{path.relative_to(REPO)}:{getattr(node, 'lineno', '?')}" for number in numbers
                  if isinstance(number, ast.Constant) and number.value == DEFAULT_MAX_STEPS]
    return found


def test_no_step_limit_is_written_but_the_environments_default():
    paths = [path for part in ("evaluators", "shopbench", "shopbench_tui", "mcp_server")
             for path in sorted((REPO / part).rglob("*.py"))]
    assert [hit for path in paths for hit in _step_limit_literals(path)] == []
