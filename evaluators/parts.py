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

Plugins register by importing this module and calling `register_parts` (tests/tiny_sandbox.py does).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

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


_BY_NAME: dict[str, dict[str, Entry]] = {}
_BY_KIND: dict[SuiteKind, Parts] = {}


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
    required). Registering again replaces the entries given."""
    if (name is None) == (kind is None):
        raise ValueError("register_parts takes a benchmark name or a kind, not both or neither")
    entries = {"player": player, "scorer": scorer, "results_reader": results_reader, "inspect_task": inspect_task}
    given = {part: entry for part, entry in entries.items() if entry is not None}
    if name is not None:
        _BY_NAME.setdefault(name, {}).update(given)
        return
    assert kind is not None
    known = _BY_KIND.get(kind)
    if known is not None:
        _BY_KIND[kind] = replace(known, **given)
        return
    missing = [part for part in PARTS if part not in given]
    if missing:
        raise ValueError(f"the default parts of kind {kind!r} need every part; missing: {', '.join(missing)}")
    _BY_KIND[kind] = Parts(**given)


def parts_for(spec: BenchmarkSpec) -> Parts:
    """The spec's parts: those registered under its name, the rest from its kind's default."""
    own = _BY_NAME.get(spec.name, {})
    default = _BY_KIND.get(spec.kind)
    if default is None:
        missing = [part for part in PARTS if part not in own]
        if missing:
            raise MissingPartsError(f"benchmark {spec.name!r} (kind {spec.kind!r}) has no {', '.join(missing)} "
                                    "registered in evaluators.parts (register_parts)")
        return Parts(**own)
    return replace(default, **own)


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
