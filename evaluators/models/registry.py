"""Backends chosen by spec string ("provider:rest"), with "did you mean" errors for unknown providers.

Providers are found the way Inspect AI finds its model APIs: `PROVIDERS` names, for each built-in provider, the
module that registers it (a stub), and that module is imported only when its provider is chosen or the list of
providers is asked for. A provider module imports this registry's types and registers its factory with
`register_backend`; the registry never imports a provider (importlib takes the module's name), so no import loop
runs through here. Factories import their SDK only when called, so choosing `openai:` never loads llama.cpp and
`shopbench --help` loads no SDK at all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from benchmarks.names import did_you_mean
from evaluators.models.base import ModelAPI, ModelSpecError
from evaluators.models.context import ContextHints


@dataclass(frozen=True)
class ModelOptions:
    """Backend options that are not part of the spec string (CLI flags, test settings)."""

    n_gpu_layers: int = 0
    """llama.cpp: layers offloaded to the GPU (needs a CUDA build of llama-cpp-python; -1 = all)."""
    n_ctx: int = 8192
    """llama.cpp: context window in tokens."""
    timeout_s: float = 120.0
    """HTTP backends: seconds before a request counts as timed out (a transient error)."""
    seed: int = 0
    """Baselines: the seed their choices derive from."""
    hints: ContextHints = field(default_factory=ContextHints)
    """Backends that must fit a chat into a small context: how tool results may be shown and shortened (the agent
    protocol that writes them knows; the default knows nothing of any benchmark)."""
    extra: dict[str, Any] = field(default_factory=dict)


Factory = Callable[[str, ModelOptions], ModelAPI]
_FACTORIES: dict[str, tuple[Factory, bool, str]] = {}
_FREE: set[str] = set()
_SDKS: dict[str, str] = {}

BASELINES = "evaluators.players.baselines"
"""The baseline namespace, which registers the baselines that play agentic episodes as model specs."""
PROVIDERS: dict[str, str] = {
    "openai": "evaluators.models.openai",
    "openai-compatible": "evaluators.models.openai",
    "anthropic": "evaluators.models.anthropic",
    "llama-cpp": "evaluators.models.llama_cpp.model",
    "random": BASELINES,
    "oracle": BASELINES,
    "naive": BASELINES,
    "heuristic": BASELINES,
}
"""Built-in provider → the module that registers it (imported when the provider is chosen)."""


def register_backend(
    name: str, *, needs_argument: bool, help: str, free: bool = False, sdk: str | None = None
) -> Callable[[Factory], Factory]:
    """Register a factory for specs `name` (baselines) or `name:<argument>` (everything else); `free`: its calls
    cost nothing (it runs here: llama.cpp, the scripted baselines), whatever the price table holds; `sdk`: the
    distribution its factory imports when called (shown by `shopbench info` with its installed version)."""

    def decorate(factory: Factory) -> Factory:
        _FACTORIES[name] = (factory, needs_argument, help)
        if free:
            _FREE.add(name)
        if sdk is not None:
            _SDKS[name] = sdk
        return factory

    return decorate


def runs_free(provider: str) -> bool:
    """Whether calls to `provider`'s models cost nothing (registered with `free=True`)."""
    _load(provider)
    return provider in _FREE


def _load(provider: str) -> None:
    """Import the module that registers a built-in provider, the first time it is asked for."""
    if provider not in _FACTORIES and provider in PROVIDERS:
        importlib.import_module(PROVIDERS[provider])


def backends() -> dict[str, str]:
    """Provider name → one-line help, for `--help` texts and error messages."""
    for module in dict.fromkeys(PROVIDERS.values()):
        importlib.import_module(module)
    return {name: entry[2] for name, entry in sorted(_FACTORIES.items())}


@dataclass(frozen=True)
class ProviderInfo:
    """One registered provider as `shopbench info` shows it: the SDK it needs and whether that is installed."""

    name: str
    help: str
    registered_by: str
    sdk: str | None
    sdk_version: str | None
    """The installed version of `sdk`; None when it is not installed (or the provider needs none)."""


def providers() -> list[ProviderInfo]:
    """Every registered provider (the built-ins loaded), with its SDK and the version installed here."""
    backends()
    return [
        ProviderInfo(name, entry[2], entry[0].__module__, _SDKS.get(name), _installed(_SDKS.get(name)))
        for name, entry in sorted(_FACTORIES.items())
    ]


def _installed(distribution: str | None) -> str | None:
    if distribution is None:
        return None
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def split_spec(spec: str) -> tuple[str, str]:
    provider, _, rest = spec.partition(":")
    return provider.strip(), rest.strip()


def get_model(spec: str, options: ModelOptions | None = None) -> ModelAPI:
    """Build the backend a spec string names, e.g. "llama-cpp:smollm2", "openai:gpt-4.1", "oracle"."""
    provider, rest = split_spec(spec)
    _load(provider)
    if provider not in _FACTORIES:
        known = backends()
        raise ModelSpecError(f"unknown model provider {provider!r} in {spec!r}.{did_you_mean(provider, known, n=1)} "
                             f"Known: {', '.join(known)}")
    factory, needs_argument, help_text = _FACTORIES[provider]
    if needs_argument and not rest:
        raise ModelSpecError(f"{provider!r} needs an argument: {help_text}")
    if not needs_argument and rest:
        raise ModelSpecError(f"{provider!r} takes no argument (got {spec!r})")
    return factory(rest, options or ModelOptions())
