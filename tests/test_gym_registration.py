"""Gymnasium finds the environment without an import written for it: `gymnasium.make("shopbench:shopbench/...")`
imports the `shopbench` package, which registers it (Gymnasium 1.x has no plugin entry points), and the import path
used before the move to evaluators.integrations.gym still works. Each in a fresh process, as a user's script runs."""

from __future__ import annotations

import pytest

from tests._cold_python import run_python

MAKE = """import sys, gymnasium
env = gymnasium.make(sys.argv[1], world=sys.argv[2], runs_dir=sys.argv[3], intent="product")
print(env.spec.entry_point)
env.close()
"""


@pytest.mark.parametrize("env_id", ["shopbench:shopbench/ShoppingBench-v0",
                                    "evaluators.gym:shopbench/ShoppingBench-v0"])
def test_gymnasium_make_finds_it_with_no_import(env_id, default_world, tmp_path):
    made = run_python(MAKE, env_id, str(default_world.root), str(tmp_path / "run"), home=tmp_path)
    assert made.returncode == 0, made.stderr[-2000:]
    assert made.stdout.strip().splitlines()[-1] == "evaluators.integrations.gym.env:ShoppingBenchEnv"


def test_the_former_import_path_registers_it(tmp_path):
    found = run_python("import gymnasium\nfrom evaluators.gym import ENV_ID, ShoppingBenchEnv\n"
                       "print(gymnasium.spec(ENV_ID).entry_point)", home=tmp_path)
    assert found.returncode == 0, found.stderr[-2000:]
    assert found.stdout.strip() == "evaluators.integrations.gym.env:ShoppingBenchEnv"


def test_the_command_does_not_import_gymnasium(tmp_path):
    loaded = run_python("import sys, shopbench.cli\nprint('gymnasium' in sys.modules)", home=tmp_path)
    assert loaded.returncode == 0 and loaded.stdout.strip() == "False", loaded.stderr
