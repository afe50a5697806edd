"""`shopbench study create`: sample the tasks, seat the participants, pick the qualification, attention and practice
items, and write the study folder. Nothing is played here."""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from benchmarks.errors import BadInput
from benchmarks.gold import gold_answers
from benchmarks.jsonl import read_models, write_text_atomic
from benchmarks.registry import benchmark_names, question_benchmark
from benchmarks.session_intent.trees import GeneratedSessionItem
from evaluators.studies.annotation import (
    ANNOTATED,
    LabelItem,
    gold_quality_items,
    instruction_items,
    label_item,
)
from evaluators.studies.assignment import make_participants
from evaluators.studies.manifest import ITEMS, QualificationSpec, Study, StudyKind, StudyManifest


@dataclass
class StudySettings:
    """What every kind of study takes."""

    participants: int = 6
    raters: int = 3
    seed: int = 0
    sample: int | None = None
    """Tasks per intent (or task type); None: every selected task."""
    qualification: int = 20
    pass_mark: float = 0.75
    attention: int = 1
    time_limit_s: float = 600.0
    max_steps: int | None = None
    practice: bool = True
    """One practice task before the queue (drawn from the tasks not sampled)."""


def sample_per_group(tasks: Sequence[tuple[str, str]], per_group: int | None, seed: int) -> list[str]:
    """`per_group` (task id, group) pairs of each group, drawn with the study's seed, in the listing's order."""
    if per_group is None:
        return [task for task, _ in tasks]
    groups: dict[str, list[str]] = defaultdict(list)
    for task, group in tasks:
        groups[group].append(task)
    chosen: set[str] = set()
    for group, members in sorted(groups.items()):
        chosen.update(random.Random(f"{seed}:sample:{group}").sample(members, min(per_group, len(members))))
    return [task for task, _ in tasks if task in chosen]


def gold_items(benchmark: str, items: str | None, count: int, attention: int, seed: int,
               exclude: set[str]) -> tuple[list[str], list[str]]:
    """(qualification ids, attention ids): distinct gold items of a question benchmark, drawn with the seed."""
    golds = sorted(set(gold_answers(benchmark, items)) - exclude)
    if len(golds) < count + attention:
        raise BadInput(f"{benchmark} has {len(golds)} gold items besides the study's tasks; {count} qualification "
                         f"items and {attention} attention checks need {count + attention} (give fewer, or "
                         "--check-items FILE)")
    drawn = random.Random(f"{seed}:gold").sample(golds, count + attention)
    return drawn[:count], drawn[count:]


def default_check_benchmark(benchmark: str) -> str:
    """The benchmark itself when it asks questions (its own gold items), else the first question benchmark."""
    questions = benchmark_names("qa")
    return benchmark if benchmark in questions else questions[0]


def create_baseline(folder: Path, benchmark: str, settings: StudySettings, *, world: Path | None = None,
                    task_set: str | None = None, items: str | None = None, task_ids: list[str] | None = None,
                    practice: str | None = None, check_benchmark: str | None = None,
                    check_items: str | None = None) -> Study:
    """A baseline study: participants play `benchmark`'s tasks through the environment every player uses: the given
    `task_ids`, or `settings.sample` per intent; the practice task is `practice` or one of the rest."""
    from mcp_server.environment import open_environment

    environment = open_environment([benchmark], runs_dir=Path(folder), world=world, task_set=task_set, items=items)
    listed = [(listing.task_id, listing.intent or "") for _, listing in environment.selection()]
    known = dict(listed)
    unknown = [task for task in (task_ids or []) + ([practice] if practice else []) if task not in known]
    if unknown:
        raise BadInput(f"no task {unknown[0]!r} in {benchmark}'s selection")
    tasks = list(task_ids) if task_ids else sample_per_group(listed, settings.sample, settings.seed)
    rest = [task for task, _ in listed if task not in set(tasks)]
    if practice is None and rest and settings.practice:
        practice = random.Random(f"{settings.seed}:practice").choice(rest)
    checks = check_benchmark or default_check_benchmark(benchmark)
    qualification, attention = gold_items(checks, check_items, settings.qualification, settings.attention,
                                          settings.seed, exclude=set(tasks) | {practice or ""})
    manifest = _manifest(folder, "baseline", benchmark, settings, tasks, dict(listed), practice, qualification,
                         attention, checks, check_items, world=str(world) if world else None, task_set=task_set,
                         items=str(items) if items else None)
    return Study.write(folder, manifest)


def create_annotation(folder: Path, items: Path, settings: StudySettings, *, check_items: str | None = None) -> Study:
    """An annotation study: participants label generated SessionIntentBench items (gold left empty by `shopbench
    generate session-intent`) on the benchmark's own four-point question; the gold items of its bundled samples (or
    `check_items`) qualify them and hide among the items as attention checks."""
    generated = read_models(items, GeneratedSessionItem, empty_ok=False, key=lambda item: item.id)
    listed = [(item.id, item.task_name) for item in generated]
    tasks = sample_per_group(listed, settings.sample, settings.seed)
    rest = [task for task, _ in listed if task not in set(tasks)]
    practice = random.Random(f"{settings.seed}:practice").choice(rest) if rest and settings.practice else None
    questions = question_benchmark(ANNOTATED)
    golds = questions.load(check_items)
    qualification, attention = gold_items(ANNOTATED, check_items, settings.qualification, settings.attention,
                                          settings.seed, exclude=set(tasks))
    wanted = set(tasks) | set(qualification) | set(attention) | {practice}
    shown: list[LabelItem] = [label_item(item) for item in [*generated, *golds] if item.id in wanted]
    manifest = _manifest(folder, "annotation", ANNOTATED, settings, tasks, dict(listed), practice, qualification,
                         attention, ANNOTATED, check_items, items=str(items))
    study = Study.write(folder, manifest)
    write_text_atomic(Path(folder) / ITEMS, "".join(item.model_dump_json() + "\n" for item in shown))
    return study


def create_ratings(folder: Path, benchmark: str, settings: StudySettings, *, world: Path | None = None,
                   task_set: str | None = None, items: str | None = None) -> Study:
    """An annotation study of judgements about items rather than answers to them: a question benchmark's gold
    (IntentionQA's human evaluation: is the marked answer right, is another option also right), or a ShoppingBench
    instruction (does it state exactly what the target needs; how natural is it, 1-5). There is no gold to qualify
    raters on or to hide among the items: a rating study has no qualification and no attention checks."""
    if benchmark in benchmark_names("qa"):
        questions = question_benchmark(benchmark)
        golds = gold_answers(benchmark, items)
        loaded = [item for item in questions.load(items) if questions.item_id(item) in golds]
        chosen = set(sample_per_group([(questions.item_id(i), questions.task_of(i)) for i in loaded],
                                      settings.sample, settings.seed))
        shown = [unit for item in loaded if questions.item_id(item) in chosen
                 for unit in gold_quality_items(benchmark, item, golds[questions.item_id(item)])]
    else:
        from mcp_server.environment import open_environment
        from mcp_server.shopping.world import World

        environment = open_environment([benchmark], runs_dir=Path(folder), world=world, task_set=task_set)
        if not isinstance(environment.world, World):
            raise BadInput(f"{benchmark} has no instructions written for target products to rate")
        tasks = environment.world.tasks(environment.suites[0].task_set)
        chosen = set(sample_per_group([(t.task_id, t.intent) for t in tasks], settings.sample, settings.seed))
        shown = [unit for task in tasks if task.task_id in chosen
                 for unit in instruction_items(task.task_id, task.query, [t.title[0] for t in task.targets])]
    rated = replace(settings, qualification=0, attention=0)
    manifest = _manifest(folder, "annotation", benchmark, rated, [unit.item_id for unit in shown],
                         {unit.item_id: unit.group for unit in shown}, None, [], [], benchmark, None,
                         world=str(world) if world else None, task_set=task_set, items=str(items) if items else None)
    study = Study.write(folder, manifest.model_copy(update={"rates": True}))
    write_text_atomic(Path(folder) / ITEMS, "".join(unit.model_dump_json() + "\n" for unit in shown))
    return study


def _manifest(folder: Path, kind: StudyKind, benchmark: str, settings: StudySettings, tasks: list[str],
              groups: dict[str, str], practice: str | None, qualification: list[str], attention: list[str],
              checks: str, check_items: str | None, *, world: str | None = None, task_set: str | None = None,
              items: str | None = None) -> StudyManifest:
    if not tasks:
        raise BadInput("the selection holds no task")
    return StudyManifest(
        name=Path(folder).name, kind=kind, benchmark=benchmark, seed=settings.seed, raters=settings.raters,
        tasks=tasks, groups={task: groups[task] for task in tasks}, practice=practice,
        qualification=QualificationSpec(benchmark=checks, items=check_items, task_ids=qualification,
                                        pass_mark=settings.pass_mark),
        attention=attention, time_limit_s=settings.time_limit_s, max_steps=settings.max_steps,
        participants=make_participants(tasks, settings.participants, settings.raters, settings.seed, attention),
        secret=secrets.token_hex(16), world=world, task_set=task_set, items=items)
