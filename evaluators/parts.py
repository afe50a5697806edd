"""The evaluators layer's part of every benchmark: who plays it, what scores it, how reports read its results, and
its Inspect AI task — looked up by spec, so shared code asks the registration instead of branching on a kind.

`benchmarks.registry` says what a benchmark is (data-layer facts, no class above it); this registry says what the
evaluators do with it. `parts_for(spec)` gives the parts registered under the benchmark's name, else its kind's
default. A registration by name may leave parts out: they come from the kind's default.

This module imports nothing of the layer above it and names no module. Each part is registered, as an object, by the
module that defines or dispatches it, and the module that asks for a part imports that module first, so whoever asks
has the built-ins, whatever was imported before:

- player: `(config: RunConfig, spec) -> Player` — plays one episode on an MCP session; the kinds' defaults
  (`AgentPlayer`, `QuestionPlayer`) are registered by evaluators.harness.players;
- scorer: `(spec) -> Scorer` — scores run folders and prediction files; the defaults (ShoppingBench's scorer for
  agentic benchmarks, `QAScorer`) are registered by evaluators.results.scoring, which dispatches to them;
- results_reader: `(spec) -> ResultsReader` — per-task outcomes, coverage, audit and console tables for reports;
  the defaults are registered by evaluators.results.reports.readers, which defines them;
- inspect_task: `(spec, **task_parameters) -> inspect_ai.Task` — its keyword parameters are the task's `-T` options;
  the defaults are registered by evaluators.integrations.inspect.tasks.

Plugins register by importing this module and calling `register_parts` (examples/tiny_sandbox.py does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from benchmarks.errors import Refusal
from benchmarks.part_registry import PartRegistry

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec, SuiteKind

Part = Literal["player", "scorer", "results_reader", "inspect_task"]
PARTS: tuple[Part, ...] = ("player", "scorer", "results_reader", "inspect_task")


@dataclass(frozen=True)
class Parts:
    """One benchmark's parts in this layer, as registered (None: neither its name nor its kind has that part)."""

    spec: BenchmarkSpec
    player: Any
    scorer: Any
    results_reader: Any
    inspect_task: Any

    def load(self, part: Part) -> Any:
        """One part; MissingPartsError naming the benchmark, its kind and the part when none is registered."""
        entry = getattr(self, part)
        if entry is None:
            raise MissingPartsError(f"benchmark {self.spec.name!r} (kind {self.spec.kind!r}) has no {part} "
                                    "registered in evaluators.parts (register_parts)")
        return entry


class MissingPartsError(Refusal, LookupError):
    """Neither the benchmark's name nor its kind has parts registered in the evaluators layer."""


REGISTRIES: dict[Part, PartRegistry[Any]] = {part: PartRegistry(part.replace("_", " "), ()) for part in PARTS}
"""One registry per part, so a benchmark registered by name may give some parts and take the rest from its kind."""


def register_parts(
    name: str | None = None,
    kind: SuiteKind | None = None,
    *,
    player: Any | None = None,
    scorer: Any | None = None,
    results_reader: Any | None = None,
    inspect_task: Any | None = None,
) -> None:
    """Register parts of one benchmark (`name`), or the default of an episode format (`kind`: each built-in module
    registers the default parts it defines). The same entry again is a no-op; another under a taken key is an
    error."""
    if (name is None) == (kind is None):
        raise ValueError("register_parts takes a benchmark name or a kind, not both or neither")
    entries = {"player": player, "scorer": scorer, "results_reader": results_reader, "inspect_task": inspect_task}
    for part in PARTS:
        if entries[part] is not None:
            REGISTRIES[part].add(entries[part], name=name, kind=kind)


def parts_for(spec: BenchmarkSpec) -> Parts:
    """The spec's parts: those registered under its name, the rest from its kind's default (`load` says which is
    missing)."""
    return Parts(spec, **{part: REGISTRIES[part].get(spec) for part in PARTS})
