"""The server's part of a benchmark's registration: the suite class that serves it.

A suite class is registered for one benchmark (`@register_suite(name="shoppingbench")`) or as the default of an
episode format (`@register_suite(kind="qa")`: every question benchmark); `suite_factory(spec)` finds the benchmark's
own, else its kind's. The class declares its `tools` and opens its suite with `open(spec, options)`. The built-in
suite modules are listed here and imported on first use; a plugin registers by importing its module (a benchmark
package, or a file in the test folder), as benchmarks register with benchmarks.registry.

`build_suites` makes the suites of the benchmarks a command names (through `open_environment`), and `listed_tools`
says which tools a server hosting them lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from benchmarks.errors import BadInput
from benchmarks.part_registry import PartRegistry
from benchmarks.registry import BenchmarkSpec, get_benchmark
from mcp_server.suites import SuiteOptions, SuiteWorld, TaskSuite
from mcp_server.toolbox import EpisodeTool
from mcp_server.users import USER_SOURCES, UnknownUser, UserSource

BUILTINS: tuple[str, ...] = ("mcp_server.shopping.suite", "mcp_server.qa_suites")
"""Modules whose import registers the built-in suites, in the order their tools are listed."""


class SuiteFactory(Protocol):
    """A registered suite class: its tools, whether it reads an items file (`--items`), and how it opens."""

    @property
    def tools(self) -> Mapping[str, EpisodeTool]: ...

    @property
    def takes_items(self) -> bool: ...

    def open(self, spec: BenchmarkSpec, options: SuiteOptions) -> TaskSuite: ...


F = TypeVar("F", bound=SuiteFactory)

SUITES: PartRegistry[SuiteFactory] = PartRegistry("server suite", BUILTINS)


def register_suite(*, name: str | None = None, kind: str | None = None) -> Callable[[F], F]:
    """Class decorator: this class serves the benchmark `name`, or every benchmark of `kind` that registers none of
    its own. Registering the same class again is a no-op; another class under a taken key is an error."""

    def decorate(factory: F) -> F:
        SUITES.add(factory, name=name, kind=kind)
        return factory

    return decorate


def suite_factory(spec: BenchmarkSpec) -> SuiteFactory:
    """The suite class registered for this benchmark, else for its kind (LookupError when neither)."""
    return SUITES.find(spec)


def build_suites(
    benchmarks: list[str], options: SuiteOptions | None = None
) -> tuple[SuiteWorld | None, list[TaskSuite]]:
    """The suites for these registered benchmarks, served as `options` ask, and the world they are played in (opened
    from `options.world`, or the default world, when a suite needs one; else None). See
    `mcp_server.environment.open_environment`."""
    options = options or SuiteOptions()
    specs = [get_benchmark(name) for name in dict.fromkeys(benchmarks)]
    factories = [suite_factory(spec) for spec in specs]
    if options.items is not None and sum(factory.takes_items for factory in factories) != 1:
        raise BadInput("--items names the items of one question benchmark; give exactly one with it")
    suites = [factory.open(spec, options) for spec, factory in zip(specs, factories, strict=True)]
    return options.opened, suites


def listed_tools(suites: list[TaskSuite]) -> dict[str, EpisodeTool]:
    """The episode tools a server hosting these suites lists: the built-in suites' tools whatever it hosts (the seven
    that shopbench's clients have always been shown), then any other tool of a suite it hosts."""
    factories = SUITES.entries()
    tools: dict[str, EpisodeTool] = {}
    for module in BUILTINS:
        for factory in factories:
            if factory.__module__ == module:
                tools |= {name: tool for name, tool in factory.tools.items() if name not in tools}
    for suite in suites:
        for name, tool in suite.tools.items():
            tools.setdefault(name, tool)
    return tools


def known_tool(name: str) -> bool:
    """Whether any registered suite has a tool of this name (a call to it is "not available in this episode"
    rather than "unknown")."""
    return any(name in factory.tools for factory in SUITES.entries())


def user_source(name: str) -> UserSource:
    """The user source `--user NAME` chose; UnknownUser, in one line, for a name none registered."""
    SUITES.entries()  # the built-in suites' modules register their users (ShoppingBench's: the rules user)
    if name not in USER_SOURCES:
        raise UnknownUser(f"no user {name!r}: --user takes {', '.join(sorted(USER_SOURCES))}")
    return USER_SOURCES[name]()


def conversation_options(user: str | None, stated: int | None) -> dict[str, Any]:
    """open_environment's `user` and `stated` for `--user NAME --stated N`, the same on every face (run, serve, play,
    Inspect, Gym, verifiers); {} without a user: the task sets as they are. `--stated` alone, or below 0, is a
    ValueError in one line; an unknown user is UnknownUser."""
    if user is None:
        if stated is not None:
            raise BadInput("--stated sets how much a conversation's first message says: it needs --user (e.g. "
                             "--user rules)")
        return {}
    if stated is not None and stated < 0:
        raise BadInput(f"--stated must be 0 or more, not {stated}")
    return {"user": user_source(user), "stated": 1 if stated is None else stated}
