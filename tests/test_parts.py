"""The evaluators' parts registry (evaluators/parts.py): a benchmark's own parts first, its kind's default for the
rest, and a clear error when neither exists."""

from __future__ import annotations

from dataclasses import replace

import pytest

import evaluators.harness.players  # noqa: F401 - registers the kinds' default players
import evaluators.integrations.inspect.tasks  # noqa: F401 - and Task builders
import evaluators.results.scoring  # noqa: F401 - and scorers
import examples.tiny_bench  # noqa: F401 - registers "tiny-bench"
from benchmarks.qa import ItemScore
from benchmarks.registry import benchmarks, get_benchmark
from evaluators import parts
from evaluators.parts import MissingPartsError, parts_for, register_parts
from evaluators.results.questions import QAScoreResult
from evaluators.results.reports.compare import compare, left_out, outcomes
from evaluators.results.reports.readers import QuestionReader
from evaluators.results.reports.reading import ItemScoresReader, Outcome


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test registers into copies: nothing it adds outlives it."""
    for registry in parts.REGISTRIES.values():
        monkeypatch.setattr(registry, "by_name", dict(registry.by_name))
        monkeypatch.setattr(registry, "by_kind", dict(registry.by_kind))


def test_every_builtin_benchmark_has_every_part() -> None:
    for spec in benchmarks():
        found = parts_for(spec)
        for part in parts.PARTS:
            assert callable(found.load(part)), (spec.name, part)
        assert found.load("scorer")(spec).benchmark == spec.name



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
    assert parts_for(spec).load("scorer") is print
    with pytest.raises(MissingPartsError, match="'lonely' \\(kind 'other'\\) has no player registered"):
        parts_for(spec).load("player")
    with pytest.raises(ValueError, match="a benchmark name or a kind, not both"):
        register_parts("lonely", kind="qa", player=print)


def _tiny_result(answers: dict[str, float | None]) -> QAScoreResult:
    scores = {item_id: ItemScore(score=value, task=item_id.split(":")[0]) for item_id, value in answers.items()}
    return QAScoreResult("tiny-bench", "zero-shot", scores, {"overall": None, "tasks": {}}, "accuracy")


def test_reports_read_a_result_through_its_benchmark_s_reader() -> None:
    result = _tiny_result({"colour:1": 1.0, "colour:2": 0.0, "count:1": None})
    assert outcomes(result) == [Outcome("colour", "colour:1", 0, 1.0, True),
                                Outcome("colour", "colour:2", 0, 0.0, True)]
    assert left_out(result) == 1

    class EveryItemTwice(QuestionReader):
        """A benchmark's own reader: reports ask it, never the kind."""

        def outcomes(self, result: QAScoreResult, metric: str) -> list[Outcome]:
            return [replace(o, epoch=epoch) for o in super().outcomes(result, metric) for epoch in (0, 1)]

        def left_out(self, result: QAScoreResult) -> int:
            return 0

    register_parts("tiny-bench", results_reader=EveryItemTwice)
    assert [o.epoch for o in outcomes(result)] == [0, 1, 0, 1] and left_out(result) == 0
    paired = compare(result, _tiny_result({"colour:1": 0.0, "colour:2": 0.0}))
    assert paired.epochs_a == 2 and paired.unpaired_a == 0


def test_a_result_of_an_unregistered_benchmark_is_read_as_item_scores() -> None:
    result = _tiny_result({"a:1": 1.0})
    result.benchmark = "nowhere"
    assert outcomes(result) == [Outcome("a", "a:1", 0, 1.0, True)]
    assert ItemScoresReader(None).task_keys(result) == {"a:1"}
