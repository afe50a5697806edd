"""The benchmark registry: every benchmark shopbench can run, serve, play and score is registered here once.

A registration (`BenchmarkSpec`) says what the rest of shopbench needs to know about a benchmark — its loader, item
schema, suite kind (agentic: the sandbox tools; qa: one question, one `submit_answer`), prompting modes, primary
metric and help text — so no command names a benchmark. The layers above register their own parts of a benchmark
keyed by its name or kind (the server's suite: mcp_server.suite_registry; players, scorers, report readers, Inspect
tasks: evaluators.parts); this layer names nothing above it.

Question benchmarks register their `QuestionBenchmark` class with a decorator, in the style of Inspect's `@task`::

    @register_question(primary_metric="accuracy", help="My benchmark: ...", default_items="the bundled samples")
    class MyBench:
        name = "my-bench"
        default_task_set = "samples"
        promptings = ("zero-shot",)
        ...  # load, item_id, task_of, runnable, demonstrations, prompter, random_answer, majority_answers, score

The built-in benchmarks register in their own packages (`benchmarks/<name>/adapter.py`, listed in BUILTINS and
imported on first use); other packages register through the `shopbench.benchmarks` entry point group (the value names
a module to import), or by importing a module that registers before calling shopbench's API.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from benchmarks.errors import BadInput
from benchmarks.names import did_you_mean

if TYPE_CHECKING:
    from benchmarks.qa import QuestionBenchmark

SuiteKind = Literal["agentic", "qa"]
Aggregation = Literal["groups", "pooled"]

BUILTINS: tuple[str, ...] = (
    "benchmarks.shoppingbench.adapter",
    "benchmarks.shopping_mmlu.adapter",
    "benchmarks.intentionqa.adapter",
    "benchmarks.session_intent.adapter",
)
"""Modules whose import registers the built-in benchmarks, in the order commands list them (whichever is imported
first: a benchmark whose loader lives in a built-in's package takes that built-in's place, plugins follow in the
order they registered)."""

ENTRY_POINT_GROUP = "shopbench.benchmarks"
OVERALL_AS_SCORED = "as the scorer aggregates"
"""Reports' words for an overall row whose benchmark says nothing more (or is not registered here)."""


@dataclass(frozen=True)
class BenchmarkSpec:
    """One registered benchmark."""

    name: str
    """The name commands take (`shopbench run NAME`, `serve --benchmark NAME`) and trajectories record."""
    kind: SuiteKind
    """agentic: episodes use the sandbox tools in a world; qa: one question, answered with `submit_answer`."""
    loader: str
    """"module:attr". qa: the `QuestionBenchmark` class (loads, names, asks and baseline-answers items);
    agentic: the function that loads a task set."""
    item_schema: str
    """"module:Class" of one item (a pydantic model)."""
    primary_metric: str
    """The rate reports plot and compare (e.g. "ASR", "accuracy")."""
    help: str
    """One line for `--help` and listings."""
    promptings: tuple[str, ...]
    """qa: the prompting modes (`--prompting`; the first is the default); agentic: the agent protocols
    (`--protocol`)."""
    default_items: str = "the bundled items"
    """What runs when no --items/--tasks is given, for help texts."""
    group: str = "task"
    """What one task group is called (`--limit N` plays N items per group): "intent" or "task"."""
    scores_failed_calls: bool = False
    """qa: the scorer counts failed model calls itself (IntentionQA reports them as invalid answers)."""
    version: int = 1
    """Bumped when the benchmark's data, prompts or scoring change results."""
    aggregation: Aggregation = "groups"
    """How its headline is formed, and so how reports aggregate differences between runs: "groups", the unweighted
    mean of the group means (the paper's average over intents, the reference's mean over tasks), or "pooled", the
    mean over all items (IntentionQA's accuracy over valid items)."""
    overall: str = OVERALL_AS_SCORED
    """Reports' words for the overall row, e.g. "unweighted mean over intents (the paper's average)"."""
    compared_metrics: tuple[str, ...] = ()
    """The metrics comparisons of runs cover (default: the primary metric alone)."""
    item_metrics: bool = False
    """qa: items are scored by different metrics, named in each score (extra["metric"]): reports show each task's
    metric, and only accuracy items count as binary outcomes."""

    def questions(self) -> QuestionBenchmark[Any]:
        """The QuestionBenchmark of a qa benchmark."""
        if self.kind != "qa":
            raise ValueError(f"{self.name} is an agentic benchmark, not a question benchmark")
        return resolve(self.loader)()


_REGISTRY: dict[str, BenchmarkSpec] = {}
_loaded = False

Q = TypeVar("Q", bound="QuestionBenchmark[Any]")
"""A QuestionBenchmark class being registered (its instances must match the protocol)."""


class UnknownBenchmarkError(BadInput):
    """No benchmark is registered under the name; the message suggests the closest names."""


def resolve(target: str) -> Any:
    """The object a "module:attr" string names."""
    module, _, attribute = target.partition(":")
    value: Any = importlib.import_module(module)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def register(spec: BenchmarkSpec) -> BenchmarkSpec:
    """Add a benchmark. Registering the same spec again (a module imported twice) is a no-op; another benchmark
    under a taken name is an error (the built-ins are loaded first, so a plugin cannot take a built-in's name)."""
    _load()
    known = _REGISTRY.get(spec.name)
    if known is not None and known != spec:
        raise ValueError(f"benchmark {spec.name!r} is already registered (by {known.loader})")
    _REGISTRY[spec.name] = spec
    return spec


def register_question(
    *,
    primary_metric: str,
    help: str,  # noqa: A002 - the registry's word for it
    default_items: str = "the bundled items",
    group: str = "task",
    scores_failed_calls: bool = False,
    version: int = 1,
    aggregation: Aggregation = "groups",
    overall: str = OVERALL_AS_SCORED,
    compared_metrics: tuple[str, ...] = (),
    item_metrics: bool = False,
) -> Callable[[type[Q]], type[Q]]:
    """Class decorator registering a `QuestionBenchmark` (name, promptings and item schema read from the class)."""

    def decorate(cls: type[Q]) -> type[Q]:
        benchmark: Any = cls  # a QuestionBenchmark class: name, promptings and item_schema are class attributes
        schema = getattr(benchmark, "item_schema", None)
        register(
            BenchmarkSpec(
                name=benchmark.name,
                kind="qa",
                loader=f"{cls.__module__}:{cls.__qualname__}",
                item_schema=f"{schema.__module__}:{schema.__qualname__}" if schema is not None else "",
                primary_metric=primary_metric,
                help=help,
                promptings=tuple(benchmark.promptings),
                default_items=default_items,
                group=group,
                scores_failed_calls=scores_failed_calls,
                version=version,
                aggregation=aggregation,
                overall=overall,
                compared_metrics=compared_metrics,
                item_metrics=item_metrics,
            )
        )
        return cls

    return decorate


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILTINS:
        importlib.import_module(module)
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        importlib.import_module(entry.value.partition(":")[0])


def get_benchmark(name: str) -> BenchmarkSpec:
    """The benchmark registered as `name`; an unknown name gets a "did you mean" error."""
    _load()
    spec = _REGISTRY.get(name)
    if spec is None:
        raise UnknownBenchmarkError(f"no benchmark {name!r}.{did_you_mean(name, _REGISTRY)} Known: "
                                    f"{', '.join(benchmark_names())}.")
    return spec


def question_benchmark(name: str) -> QuestionBenchmark[Any]:
    """The question benchmark registered as `name`; an unknown name gets a "did you mean" error, an agentic one says
    so."""
    return get_benchmark(name).questions()


def benchmarks(kind: SuiteKind | None = None) -> list[BenchmarkSpec]:
    """Every registered benchmark (of one kind): the built-ins in BUILTINS order, then plugins as registered."""
    _load()
    listed = sorted(_REGISTRY.values(), key=_builtin_place)  # stable: plugins keep their registration order
    return [spec for spec in listed if kind is None or spec.kind == kind]


def _builtin_place(spec: BenchmarkSpec) -> int:
    """The place in BUILTINS of the built-in package the spec's loader lives in (len(BUILTINS) for a plugin).

    Not the order of registration: importing a built-in's module before the registry's first load (`import
    benchmarks.shoppingbench.adapter`) registers it after the others, since its registration loads them first."""
    module = spec.loader.partition(":")[0]
    packages = [builtin.rpartition(".")[0] + "." for builtin in BUILTINS]
    return next((place for place, package in enumerate(packages) if module.startswith(package)), len(BUILTINS))


def benchmark_names(kind: SuiteKind | None = None) -> list[str]:
    return [spec.name for spec in benchmarks(kind)]


def names_help() -> str:
    """"name (what it is); ..." for command help texts."""
    return "; ".join(f"{spec.name} ({spec.help})" for spec in benchmarks())
