"""The evaluators layer's part of every benchmark: who plays it, what scores it, how reports read its results, and
its Inspect AI task — looked up by spec, so shared code asks the registration instead of branching on a kind.

`benchmarks.registry` says what a benchmark is (data-layer facts, no class above it); this registry says what the
evaluators do with it. `parts_for(spec)` gives the parts registered under the benchmark's name, else its kind's
default ("agentic": the agent loop and ShoppingBench's scorer; "qa": the question player and the QA scorer, which
calls the benchmark's own `score`). A registration by name may leave parts out: they come from the kind's default.

Each entry is a "module:attr" string, imported when first asked for (so this module imports nothing of ours and no
import loop can start here), or the object itself. What each part is, called with the benchmark's spec:

- player: `(config: RunConfig, spec) -> Player` — plays one episode on an MCP session (evaluators.harness.players);
- scorer: `(spec) -> Scorer` — scores run folders and prediction files (evaluators.results.scoring protocol);
- results_reader: `(spec) -> ResultsReader` — per-task outcomes, coverage, audit and console tables for reports;
- inspect_task: `(spec, **task_parameters) -> inspect_ai.Task` — its keyword parameters are the task's `-T` options.

Plugins register by importing this module and calling `register_parts` (examples/tiny_sandbox.py does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from benchmarks.part_registry import PartRegistry
from benchmarks.registry import resolve

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec, SuiteKind

Part = Literal["player", "scorer", "results_reader", "inspect_task"]
PARTS: tuple[Part, ...] = ("player", "scorer", "results_reader", "inspect_task")
Entry = Any
"""A "module:attr" string naming the part (imported when used), or the part itself."""


@dataclass(frozen=True)
class Parts:
    """One benchmark's parts in this layer (entries as registered; `load` imports one)."""

    player: Entry
    scorer: Entry
    results_reader: Entry
    inspect_task: Entry

    def load(self, part: Part) -> Any:
        """The part itself: a string entry is imported now (and each time: importlib caches the module)."""
        entry = getattr(self, part)
        return resolve(entry) if isinstance(entry, str) else entry


class MissingPartsError(LookupError):
    """Neither the benchmark's name nor its kind has parts registered in the evaluators layer."""


REGISTRIES: dict[Part, PartRegistry[Entry]] = {part: PartRegistry(part.replace("_", " "), ()) for part in PARTS}
"""One registry per part, so a benchmark registered by name may give some parts and take the rest from its kind."""


def register_parts(
    name: str | None = None,
    kind: SuiteKind | None = None,
    *,
    player: Entry | None = None,
    scorer: Entry | None = None,
    results_reader: Entry | None = None,
    inspect_task: Entry | None = None,
) -> None:
    """Register the parts of one benchmark (`name`), or the default of an episode format (`kind`, every part
    required). The same entry again is a no-op; another under a taken key is an error."""
    if (name is None) == (kind is None):
        raise ValueError("register_parts takes a benchmark name or a kind, not both or neither")
    entries = {"player": player, "scorer": scorer, "results_reader": results_reader, "inspect_task": inspect_task}
    given: dict[Part, Entry] = {part: entries[part] for part in PARTS if entries[part] is not None}
    missing = [part for part in PARTS if part not in given]
    if kind is not None and missing:
        raise ValueError(f"the default parts of kind {kind!r} need every part; missing: {', '.join(missing)}")
    for part, entry in given.items():
        REGISTRIES[part].add(entry, name=name, kind=kind)


def parts_for(spec: BenchmarkSpec) -> Parts:
    """The spec's parts: those registered under its name, the rest from its kind's default."""
    found = {part: REGISTRIES[part].get(spec) for part in PARTS}
    missing = [part for part, entry in found.items() if entry is None]
    if missing:
        raise MissingPartsError(f"benchmark {spec.name!r} (kind {spec.kind!r}) has no {', '.join(missing)} "
                                "registered in evaluators.parts (register_parts)")
    return Parts(**found)


register_parts(
    kind="agentic",
    player="evaluators.harness.players:AgentPlayer",
    scorer="evaluators.results.shoppingbench.scorer:ShoppingBenchScorer",
    results_reader="evaluators.results.reports.readers:ShoppingBenchReader",
    inspect_task="evaluators.integrations.inspect.tasks:shoppingbench_task",
)
register_parts(
    kind="qa",
    player="evaluators.harness.players:QuestionPlayer",
    scorer="evaluators.results.questions:QAScorer",
    results_reader="evaluators.results.reports.readers:QuestionReader",
    inspect_task="evaluators.integrations.inspect.tasks:question_task",
)
