"""Which verifiers environment plays a benchmark: registered by benchmark name or by kind, like the server's suites.

`load_environment(benchmark, **options)` finds the benchmark in `benchmarks.registry`, the environment builder
registered for its name (else its kind's default: the multi-turn tool environment with ShoppingBench's rubric for
agentic benchmarks, the single-turn question environment for question benchmarks) and calls it with the spec and
the options. An option the builder does not take is refused in one line that lists the ones it does, so a trainer's
typo never silently changes what is trained on. A plugin registers its own builder by importing this module and
calling `register_environment`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from benchmarks.part_registry import PartRegistry
from benchmarks.registry import get_benchmark, resolve

if TYPE_CHECKING:
    from verifiers.legacy.envs.environment import Environment

    from benchmarks.registry import BenchmarkSpec

Builder = Callable[..., "Environment"]
"""`(spec, **options) -> vf.Environment`; its keyword parameters are the options `load_environment` takes."""

ENVIRONMENTS: PartRegistry[Builder | str] = PartRegistry("verifiers environment", ())
"""Entries are builders, or "module:attr" strings naming one (imported when first loaded: verifiers is imported
only by a benchmark's environment, never by this registry)."""


def register_environment(builder: Builder | str, *, name: str | None = None, kind: str | None = None) -> None:
    """Register the environment builder of the benchmark `name`, or the default of every benchmark of `kind`."""
    ENVIRONMENTS.add(builder, name=name, kind=kind)


def environment_builder(spec: BenchmarkSpec) -> Builder:
    """The builder registered for this benchmark, else for its kind."""
    entry = ENVIRONMENTS.find(spec)
    return resolve(entry) if isinstance(entry, str) else entry


def load_environment(benchmark: str = "shoppingbench", **options: Any) -> Environment:
    """The verifiers environment of a registered benchmark, built with `options` (see its builder's parameters)."""
    spec = get_benchmark(benchmark)
    builder = environment_builder(spec)
    taken = builder_options(builder)
    unknown = sorted(set(options) - set(taken))
    if unknown:
        raise TypeError(f"load_environment(benchmark={benchmark!r}) takes no option {', '.join(map(repr, unknown))}; "
                        f"its options: {', '.join(taken)}")
    return builder(spec, **options)


def builder_options(builder: Builder) -> list[str]:
    """The options a builder takes: its parameters after the spec."""
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [name for name, parameter in inspect.signature(builder).parameters.items() if parameter.kind in named][1:]


register_environment("evaluators.integrations.verifiers.shopping:shoppingbench_environment", kind="agentic")
register_environment("evaluators.integrations.verifiers.questions:question_environment", kind="qa")
