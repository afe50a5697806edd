"""`shopbench info [BENCHMARK]`: what is registered, layer by layer — for each benchmark, the part each layer
registered for it (under its name, or as its kind's default) and where it came from; the model providers with the
SDK each needs and whether it is installed; the baselines; the installed agents."""

from __future__ import annotations

import contextlib
import shutil
import textwrap
from collections.abc import Iterator
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from benchmarks.registry import BenchmarkSpec

DEFAULT_WIDTH = 80
"""Lines are wrapped at the terminal's width ($COLUMNS), this when the output is not a terminal."""


def load_layer_registries() -> None:
    """Import every layer's registries of a benchmark's parts and the modules that register the built-in defaults
    (the Inspect tasks only where Inspect AI is installed: their line then reads "-")."""
    import evaluators.harness.players  # noqa: F401
    import evaluators.integrations.verifiers.registry  # noqa: F401
    import evaluators.results.reports.readers  # noqa: F401
    import evaluators.results.scoring  # noqa: F401
    import mcp_server.suite_registry  # noqa: F401
    import shopbench_tui.play.screen_registry  # noqa: F401

    with contextlib.suppress(ImportError):  # the `inspect` extra is not installed
        import evaluators.integrations.inspect.tasks  # noqa: F401


def register(app: typer.Typer) -> None:
    @app.command("info")
    def info(
        benchmark: str | None = typer.Argument(None, help="Only this benchmark (default: every benchmark, then the "
                                               "model providers, baselines and installed agents)."),
    ) -> None:
        """What is registered: each benchmark's part in every layer (by name, or its kind's default) and where it
        came from; each model provider with its SDK and whether it is installed; the baselines and installed
        agents."""
        from benchmarks.registry import UnknownBenchmarkError, benchmarks, get_benchmark

        try:
            specs = [get_benchmark(benchmark)] if benchmark else benchmarks()
        except UnknownBenchmarkError as error:
            typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        for line in benchmark_lines(specs):
            typer.echo(line)
        if benchmark is None:
            for line in provider_lines():
                typer.echo(line)


def benchmark_lines(specs: list[BenchmarkSpec]) -> Iterator[str]:
    """Each benchmark, then one line per registry: its entry and whether it was registered by name or by kind."""
    from benchmarks.part_registry import REGISTRIES, entry_name

    load_layer_registries()
    width = max(len(registry.what) for registry in REGISTRIES)
    yield "Benchmarks"
    for spec in specs:
        yield from wrapped(f"  {spec.name} ({spec.kind}): ", spec.help)
        for registry in REGISTRIES:
            found = registry.which(spec)
            if found is None:
                shown = "-"
            else:
                module, _, name = entry_name(found[0]).partition(":")
                shown = f"{name} ({'its own' if found[1] == 'name' else f'{spec.kind} default'}) in {module}"
            yield from wrapped(f"    {registry.what:<{width}}  ", shown)


def wrapped(head: str, text: str) -> Iterator[str]:
    """`head` then `text`, wrapped at the terminal's width, the lines after the first indented under the text (a
    dotted module name is never broken)."""
    columns = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    yield from textwrap.wrap(text, width=max(columns, len(head) + 20), initial_indent=head,
                             subsequent_indent=" " * len(head), break_long_words=False, break_on_hyphens=False)


def provider_lines() -> Iterator[str]:
    """The model providers (SDK and installed version), the baselines and the installed agents."""
    from evaluators.models.registry import providers
    from evaluators.players.baselines import all_baselines
    from evaluators.players.installed import ADAPTERS
    from evaluators.players.installed.install import package_folder

    listed = providers()
    width = max(len(provider.name) for provider in listed)
    yield "Model providers"
    for provider in listed:
        if provider.sdk is None:
            sdk = "no SDK"
        else:
            sdk = f"{provider.sdk} {provider.sdk_version}" if provider.sdk_version else f"{provider.sdk} NOT INSTALLED"
        yield from wrapped(f"  {provider.name:<{width}}  ", f"{sdk}, from {provider.registered_by}: {provider.help}")
    yield "Baselines"
    baselines = all_baselines()
    width = max(len(baseline.name) for baseline in baselines)
    for baseline in baselines:
        yield from wrapped(f"  {baseline.name:<{width}}  ", f"({', '.join(baseline.policies)}): {baseline.help}")
    yield "Installed agents (--agent NAME, or command:TEMPLATE)"
    width = max(map(len, ADAPTERS))
    for name, load in ADAPTERS.items():
        adapter = load()
        installed = adapter.package is not None and (
            package_folder(adapter.package) / "node_modules" / ".bin" / adapter.executable).exists()
        state = "installed" if installed else "installed on first use"
        yield from wrapped(f"  {name:<{width}}  ", f"{adapter.package} ({state}), {adapter.__qualname__} from "
                           f"{adapter.__module__}")
