"""Inspect AI's entry point (pyproject `[project.entry-points.inspect_ai] shopbench = "shopbench.inspect_tasks"`):
`inspect eval shopbench/shoppingbench ...` imports this module, which registers one Inspect task per registered
benchmark, named `shopbench/<name>` (hyphens become underscores: `shopbench/shopping_mmlu`). Each task is its
benchmark's `inspect_task` part (evaluators.parts; the builders are in `evaluators/integrations/inspect/tasks.py`),
whose keyword parameters are the task's `-T` options. The tasks are registered here, in the `shopbench` package,
because Inspect prefixes a task's name with the package that defines it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from inspect_ai import Task, task
from inspect_ai.util import registry_info

from benchmarks.registry import BenchmarkSpec, benchmarks
from evaluators.integrations.inspect import tasks  # noqa: F401  (registers the kinds' default Task builders)
from evaluators.parts import parts_for

PACKAGE = "shopbench"
_registered: set[str] = set()


def task_name(spec: BenchmarkSpec) -> str:
    """The benchmark's Inspect task name, without the package prefix."""
    return spec.name.replace("-", "_")


def _task_function(spec: BenchmarkSpec) -> Callable[..., Task]:
    """A function Inspect can register: the benchmark's Task builder with the spec bound, its signature the
    builder's keyword parameters (Inspect reads a task's options from its signature)."""
    build = parts_for(spec).load("inspect_task")
    builder = inspect.signature(build)

    def make(**parameters: Any) -> Task:
        task_built: Task = build(spec, **parameters)
        return task_built

    make.__name__ = make.__qualname__ = task_name(spec)
    make.__doc__ = build.__doc__
    make.__signature__ = builder.replace(  # type: ignore[attr-defined]
        parameters=list(builder.parameters.values())[1:], return_annotation=Task)
    return make


def register_tasks() -> None:
    """Register a task for every registered benchmark that has none yet (a benchmark registered after this module
    was imported gets its task by calling this again).

    Inspect adds the `shopbench/` prefix itself when it sees the package installed (site-packages or editable); run
    from a checkout, where setuptools' egg-info next to the sources hides the editable install's metadata, it does
    not, and the task is registered under the prefixed name as well."""
    for spec in benchmarks():
        if spec.name in _registered:
            continue
        short = task_name(spec)
        if registry_info(task(name=short)(_task_function(spec))).name != f"{PACKAGE}/{short}":
            task(name=f"{PACKAGE}/{short}")(_task_function(spec))
        _registered.add(spec.name)


register_tasks()
