"""A registry of one layer's part of every benchmark, looked up by spec: the entry registered for the benchmark's
name, else the default of its kind. The server's suites (mcp_server.suite_registry), the evaluators' parts
(evaluators.parts, one registry per part), verifiers' environments (evaluators.integrations.verifiers.registry) and
the play screens (shopbench_tui.play.screen_registry) are kept in one each, so the layers above ask the registration
instead of branching on a kind.

The built-in entries are registered by modules the registry imports on first use (named by string: no import
arrow from here); a plugin registers by importing its own module. Every registry made is listed in `REGISTRIES`, and
`which(spec)` says where a benchmark's entry came from, so `shopbench info` can print each layer's part of it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec

T = TypeVar("T")
Source = Literal["name", "kind"]
"""Where a benchmark's entry was found: registered under its name, or its kind's default."""


class PartRegistry(Generic[T]):
    """Entries of one kind of part (`what`, for messages), by benchmark name and by kind."""

    def __init__(self, what: str, builtins: tuple[str, ...]) -> None:
        self.what, self.builtins = what, builtins
        self.by_name: dict[str, T] = {}
        self.by_kind: dict[str, T] = {}
        self._loaded = False
        REGISTRIES.append(self)

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

    def which(self, spec: BenchmarkSpec) -> tuple[T, Source] | None:
        """The entry registered for this benchmark and where it was found (its name, else its kind); None when
        neither."""
        self.load()
        if spec.name in self.by_name:
            return self.by_name[spec.name], "name"
        if spec.kind in self.by_kind:
            return self.by_kind[spec.kind], "kind"
        return None

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


REGISTRIES: list[PartRegistry[Any]] = []
"""Every registry made, in the order made (the layers' modules make theirs when imported)."""


def entry_name(entry: object) -> str:
    """How an entry is shown: a "module:attr" string as it is, else the module and name of what was registered."""
    if isinstance(entry, str):
        return entry
    name = getattr(entry, "__qualname__", None) or type(entry).__qualname__
    return f"{getattr(entry, '__module__', '?')}:{name}"
