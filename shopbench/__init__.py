"""The `shopbench` command (composition root only), and the `verifiers` environment entry point."""

from __future__ import annotations

from typing import Any


def load_environment(benchmark: str = "shoppingbench", **options: Any) -> Any:
    """A registered benchmark as a verifiers environment (evaluators.integrations.verifiers). It lives here because
    `verifiers.load_environment("shopbench", ...)` imports the module named after the environment id and calls its
    `load_environment`."""
    from evaluators.integrations.verifiers import load_environment as load

    return load(benchmark, **options)
