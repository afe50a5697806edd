"""The model registry names no module above it: the built-in providers are typed stubs that check their SDK and
its version when chosen, and the scripted baselines register from their own package, which whatever resolves model
specs imports — so `--model oracle` works from every entry point, and a bare registry refuses it in one line
whatever happened to be imported before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from evaluators.models import ModelSpecError, get_model
from evaluators.models import registry as model_registry

REPO = Path(__file__).resolve().parent.parent


def _fresh(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                          check=True)
    return done.stdout.strip().splitlines()


def test_a_bare_registry_refuses_a_baseline_and_the_harness_entry_point_has_them():
    bare, built = _fresh(
        "from evaluators.models import get_model, ModelSpecError\n"
        "try:\n    get_model('oracle')\nexcept ModelSpecError as e:\n    print(e)\n"
        "from evaluators.harness.backend import prepare_model\n"
        "print(type(prepare_model('oracle').base).__name__)\n")
    assert bare.startswith("unknown model provider 'oracle' in 'oracle'.") and "Known: anthropic" in bare
    assert built == "OracleBaseline"


def test_a_stub_checks_its_sdk_when_chosen(monkeypatch: pytest.MonkeyPatch):
    stub = model_registry.PROVIDERS["anthropic"]
    monkeypatch.setattr(model_registry, "installed_version", lambda distribution: None)
    with pytest.raises(ModelSpecError, match=r"^anthropic needs the anthropic package, which is not installed: "
                       r"pip install 'anthropic>=0\.40'$"):
        get_model("anthropic:claude-sonnet-4-0")
    monkeypatch.setattr(model_registry, "installed_version", lambda distribution: "0.39.1")
    with pytest.raises(ModelSpecError, match=r"needs anthropic 0\.40 or newer; 0\.39\.1 is installed"):
        stub.factory()
    monkeypatch.undo()
    assert stub.factory().__module__ == "evaluators.models.anthropic"


def test_every_stub_names_an_installed_sdk_and_the_module_that_implements_it():
    shown = {provider.name: provider for provider in model_registry.providers()}
    for name, stub in model_registry.PROVIDERS.items():
        assert shown[name].sdk == stub.sdk and shown[name].sdk_version is not None, name
        assert shown[name].registered_by.startswith("evaluators.models."), name
