"""A registry of one layer's part of every benchmark, looked up by spec: the entry registered for the benchmark's
name, else the default of its kind. The server's suites (mcp_server.suite_registry), the evaluators' parts
(evaluators.parts, one registry per part), verifiers' environments (evaluators.integrations.verifiers.registry) and
the play screens (shopbench_tui.play.screen_registry) are kept in one each, so the layers above ask the registration
instead of branching on a kind.

The built-in entries are registered by modules the registry imports on first use (named by string: no import
arrow from here); a plugin registers by importing its own module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec

T = TypeVar("T")


class PartRegistry(Generic[T]):
    """Entries of one kind of part (`what`, for messages), by benchmark name and by kind."""

    def __init__(self, what: str, builtins: tuple[str, ...]) -> None:
        self.what, self.builtins = what, builtins
        self.by_name: dict[str, T] = {}
        self.by_kind: dict[str, T] = {}
        self._loaded = False

    def add(self, entry: T, *, name: str | None = None, kind: str | None = None) -> None:
        """Register `entry` for the benchmark `name`, or as the default of `kind`. The same entry again is a no-op;
        another under a taken key is an error. The built-ins are registered first."""
        if (name is None) == (kind is None):
            raise ValueError(f"a {self.what} is registered for a benchmark name or a kind, not both or neither")
        self.load()
        table, key = (self.by_name, name) if name is not None else (self.by_kind, kind)
        assert key is not None
        known = table.get(key)
        if known is not None and known != entry:
            raise ValueError(f"a {self.what} is already registered for {key!r}: {known!r}")
        table[key] = entry

    def get(self, spec: BenchmarkSpec) -> T | None:
        """The entry registered for this benchmark, else for its kind; None when neither."""
        self.load()
        return self.by_name.get(spec.name, self.by_kind.get(spec.kind))

    def find(self, spec: BenchmarkSpec) -> T:
        """The entry registered for this benchmark, else for its kind (LookupError naming both when neither)."""
        entry = self.get(spec)
        if entry is None:
            raise LookupError(f"no {self.what} for benchmark {spec.name!r} (kind {spec.kind!r}) is registered")
        return entry

    def entries(self) -> list[T]:
        """Every registered entry: by name, then by kind, each in the order registered."""
        self.load()
        return [*self.by_name.values(), *self.by_kind.values()]

    def load(self) -> None:
        """Import the built-in modules (once), which register their entries."""
        if self._loaded:
            return
        self._loaded = True
        for module in self.builtins:
            importlib.import_module(module)
