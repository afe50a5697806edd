"""The `shopbench` command (composition root only), the `verifiers` environment entry point, and the name
Gymnasium imports for `gymnasium.make("shopbench:shopbench/ShoppingBench-v0")`.

Gymnasium 1.x loads no plugin entry points (0.x's `gymnasium.envs` group is gone: an environment is registered by
importing its module), so the ShoppingBench environment is registered when this package is imported while Gymnasium
is loaded: the `module:id` form imports `shopbench` first. The `shopbench` command, which never imports Gymnasium,
pays nothing for it.
"""

from __future__ import annotations

import sys
from typing import Any

if "gymnasium" in sys.modules:
    import evaluators.integrations.gym  # noqa: F401  (registers shopbench/ShoppingBench-v0)


def load_environment(benchmark: str = "shoppingbench", **options: Any) -> Any:
    """A registered benchmark as a verifiers environment (evaluators.integrations.verifiers). It lives here because
    `verifiers.load_environment("shopbench", ...)` imports the module named after the environment id and calls its
    `load_environment`."""
    from evaluators.integrations.verifiers import load_environment as load

    return load(benchmark, **options)
