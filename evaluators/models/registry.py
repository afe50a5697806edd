"""Backends chosen by spec string ("provider:rest"), with "did you mean" errors for unknown providers.

The built-in providers are typed stubs, the way Inspect AI knows its model APIs: `PROVIDERS` holds, for each, its
help line, the SDK it needs (and the oldest version that works) and a loader that imports its implementation from
its own module only when the provider is used. So choosing `openai:` never loads llama.cpp, `shopbench --help` loads
no SDK, and a missing or too-old SDK is reported for the provider chosen, in one line. A provider module imports
only `options` (never this registry), so the loaders close no import loop.

Everything else registers itself with `register_backend` when its package is imported: the scripted baselines
(evaluators.players.baselines, imported by whatever resolves model specs — the harness's `prepare_model`, the
commands), a test's fake model, a plugin's backend. This registry names nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from packaging.version import InvalidVersion, Version

from benchmarks.names import did_you_mean
from evaluators.models.base import ModelAPI, ModelSpecError
from evaluators.models.options import Factory, ModelOptions

__all__ = ["Factory", "ModelOptions", "ProviderInfo", "ProviderStub", "backends", "get_model", "providers",
           "register_backend", "runs_free", "split_spec"]


@dataclass(frozen=True)
class Registered:
    """A provider registered by its own module (`register_backend`)."""

    factory: Factory
    needs_argument: bool
    help: str
    free: bool = False
    sdk: str | None = None


_REGISTERED: dict[str, Registered] = {}


@dataclass(frozen=True)
class ProviderStub:
    """A built-in provider known before its module is imported: what it is for, the SDK its factory imports and the
    oldest version of it that works; `load` imports the factory from the provider's own module."""

    name: str
    help: str
    load: Callable[[], Factory]
    sdk: str
    min_version: str
    free: bool = False
    """Its calls cost nothing (it runs here), whatever the price table holds."""

    def factory(self) -> Factory:
        """The factory, once the SDK is known to be installed and new enough (ModelSpecError in one line if not)."""
        installed = installed_version(self.sdk)
        needed = f"pip install '{self.sdk}>={self.min_version}'"
        if installed is None:
            raise ModelSpecError(f"{self.name} needs the {self.sdk} package, which is not installed: {needed}")
        try:
            too_old = Version(installed) < Version(self.min_version)
        except InvalidVersion:
            too_old = False  # a local build with a version string of its own: let the SDK say what it lacks
        if too_old:
            raise ModelSpecError(f"{self.name} needs {self.sdk} {self.min_version} or newer; {installed} is "
                                 f"installed: {needed}")
        return self.load()


def _openai() -> Factory:
    from evaluators.models.openai import openai_model

    return openai_model


def _openai_compatible() -> Factory:
    from evaluators.models.openai import openai_compatible_model

    return openai_compatible_model


def _anthropic() -> Factory:
    from evaluators.models.anthropic import anthropic_model

    return anthropic_model


def _llama_cpp() -> Factory:
    from evaluators.models.llama_cpp.model import llama_cpp_model

    return llama_cpp_model


PROVIDERS: dict[str, ProviderStub] = {stub.name: stub for stub in (
    ProviderStub("openai", "openai:<model> (OPENAI_API_KEY; OPENAI_BASE_URL overrides)", _openai, "openai", "1.40"),
    ProviderStub("openai-compatible", "openai-compatible:<base url>#<model> (vLLM, llama.cpp server, ...; "
                 "OPENAI_API_KEY optional)", _openai_compatible, "openai", "1.40"),
    ProviderStub("anthropic", "anthropic:<model> (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL)", _anthropic, "anthropic",
                 "0.40"),
    ProviderStub("llama-cpp", "llama-cpp:<model.gguf | smollm2> (local, llama.cpp)", _llama_cpp, "llama-cpp-python",
                 "0.3.7", free=True),
)}
"""The built-in providers (versions as pyproject.toml requires them), each loaded only when used."""


def register_backend(
    name: str, *, needs_argument: bool, help: str, free: bool = False, sdk: str | None = None
) -> Callable[[Factory], Factory]:
    """Register a factory for specs `name` (baselines) or `name:<argument>` (everything else); `free`: its calls
    cost nothing (it runs here: the scripted baselines), whatever the price table holds; `sdk`: the distribution its
    factory imports when called (shown by `shopbench info` with its installed version)."""

    def decorate(factory: Factory) -> Factory:
        _REGISTERED[name] = Registered(factory, needs_argument, help, free, sdk)
        return factory

    return decorate


def runs_free(provider: str) -> bool:
    """Whether calls to `provider`'s models cost nothing (a free stub, or registered with `free=True`)."""
    if provider in _REGISTERED:
        return _REGISTERED[provider].free
    return provider in PROVIDERS and PROVIDERS[provider].free


def backends() -> dict[str, str]:
    """Provider name → one-line help, for `--help` texts and error messages (what is registered now)."""
    helps = {name: stub.help for name, stub in PROVIDERS.items()}
    helps |= {name: entry.help for name, entry in _REGISTERED.items()}
    return dict(sorted(helps.items()))


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
    """Every provider known now, with the module that implements it, its SDK and the version installed here (the
    built-ins' modules are imported; their SDKs are not)."""
    found = [ProviderInfo(name, stub.help, stub.load().__module__, stub.sdk, installed_version(stub.sdk))
             for name, stub in PROVIDERS.items() if name not in _REGISTERED]
    found += [ProviderInfo(name, entry.help, entry.factory.__module__, entry.sdk, installed_version(entry.sdk))
              for name, entry in _REGISTERED.items()]
    return sorted(found, key=lambda provider: provider.name)


def installed_version(distribution: str | None) -> str | None:
    """The version of `distribution` installed here; None when it is not (or none is named)."""
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
    """Build the backend a spec string names, e.g. "llama-cpp:smollm2", "openai:gpt-4.1", "oracle" (the baselines
    once their package is imported)."""
    provider, rest = split_spec(spec)
    if provider in _REGISTERED:
        entry = _REGISTERED[provider]
        factory, needs_argument, help_text = entry.factory, entry.needs_argument, entry.help
    elif provider in PROVIDERS:
        stub = PROVIDERS[provider]
        factory, needs_argument, help_text = stub.factory(), True, stub.help
    else:
        known = backends()
        raise ModelSpecError(f"unknown model provider {provider!r} in {spec!r}.{did_you_mean(provider, known, n=1)} "
                             f"Known: {', '.join(known)}")
    if needs_argument and not rest:
        raise ModelSpecError(f"{provider!r} needs an argument: {help_text}")
    if not needs_argument and rest:
        raise ModelSpecError(f"{provider!r} takes no argument (got {spec!r})")
    return factory(rest, options or ModelOptions())
