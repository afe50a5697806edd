"""Inspect AI's entry point (pyproject `[project.entry-points.inspect_ai] shopbench = "shopbench.inspect_tasks"`):
`inspect eval shopbench/shoppingbench ...` imports this module, whose `@task` functions register the four
benchmarks. They live in the `shopbench` package because Inspect prefixes a task's name with the package that
defines it, so they come out as `shopbench/<name>`; the Task builders are in `evaluators/integrations/inspect/tasks.py`.
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai._util.package import get_installed_package_name

from evaluators.integrations.inspect.tasks import question_task, shoppingbench_task


def _name(short: str) -> str:
    """Inspect adds the `shopbench/` prefix itself when it sees the package installed (site-packages or editable).
    It does not when Python finds the sources before the install — run from a checkout, where setuptools' egg-info
    next to them hides the editable install's metadata — so the prefix is written then."""
    return short if get_installed_package_name(_name) == "shopbench" else f"shopbench/{short}"


@task(name=_name("shoppingbench"))
def shoppingbench(
    world: str | None = None,
    task_set: str | None = None,
    intent: str | None = None,
    max_steps: int | None = None,
    runs: str | None = None,
    embedder: str | None = None,
) -> Task:
    """ShoppingBench: one sample per task of the world's task set (default: the default world's generated set);
    `intent` picks one intent or several (comma-separated)."""
    return shoppingbench_task(world, task_set, intent, max_steps, runs, embedder)


@task(name=_name("intentionqa"))
def intentionqa(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """IntentionQA (bundled items, or an items file): accuracy per task, as shopbench scores it."""
    return question_task("intentionqa", items, prompting, runs)


@task(name=_name("shopping_mmlu"))
def shopping_mmlu(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """Shopping MMLU (bundled items, or an items file): each task type's reference metric."""
    return question_task("shopping-mmlu", items, prompting, runs)


@task(name=_name("session_intent"))
def session_intent(items: str | None = None, prompting: str | None = None, runs: str | None = None) -> Task:
    """SessionIntentBench (bundled items, or an items file): accuracy and macro-F1 per task."""
    return question_task("session-intent", items, prompting, runs)
