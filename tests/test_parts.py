"""The evaluators' parts registry (evaluators/parts.py): a benchmark's own parts first, its kind's default for the
rest, and a clear error when neither exists."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.registry import get_benchmark
from evaluators import parts
from evaluators.parts import MissingPartsError, parts_for, register_parts


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test registers into copies: nothing it adds outlives it."""
    monkeypatch.setattr(parts, "_BY_NAME", {name: dict(own) for name, own in parts._BY_NAME.items()})
    monkeypatch.setattr(parts, "_BY_KIND", dict(parts._BY_KIND))


def test_a_name_registration_overrides_only_what_it_gives() -> None:
    spec = replace(get_benchmark("intentionqa"), name="my-questions")

    def scorer(spec: object) -> str:
        return "mine"

    register_parts("my-questions", scorer=scorer)
    found = parts_for(spec)
    assert found.load("scorer") is scorer
    assert found.inspect_task == parts_for(get_benchmark("intentionqa")).inspect_task  # the kind's default
    assert parts_for(get_benchmark("intentionqa")).scorer != scorer  # the others keep theirs


def test_a_benchmark_without_parts_is_named() -> None:
    spec = replace(get_benchmark("intentionqa"), name="lonely", kind="other")  # type: ignore[arg-type]
    register_parts("lonely", scorer=print)
    with pytest.raises(MissingPartsError, match="'lonely' .* has no player, results_reader, inspect_task"):
        parts_for(spec)
    with pytest.raises(ValueError, match="missing: scorer"):
        register_parts(kind="other", player=print, results_reader=print, inspect_task=print)  # type: ignore[arg-type]
