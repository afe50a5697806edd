"""`shopbench study`: human baselines and annotations run as studies (evaluators.studies; the participant's screens
in shopbench_tui.study)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from benchmarks.errors import BadInput, Refusal
from shopbench.commands import error_message
from shopbench.options import Items, MaxSteps, Seed, TaskSet, World

study_app = typer.Typer(help="Human studies: baselines and annotations, in the terminal or a browser.",
                        no_args_is_help=True)
STUDY = typer.Argument(..., metavar="STUDY", help="The study's folder.")


def _refuse(error: BaseException) -> typer.Exit:
    typer.echo(f"shopbench study: {error_message(error)}", err=True)
    return typer.Exit(2)


@study_app.command("create")
def create(
    study: Path = STUDY,
    kind: str = typer.Option("baseline", "--kind", help="baseline (participants play tasks), annotation "
                             "(participants label generated SessionIntentBench items: give --items) or rating "
                             "(they judge a question benchmark's gold, or ShoppingBench instructions)."),
    benchmark: str = typer.Option("shoppingbench", "--benchmark", help="What a baseline's participants play, or "
                                  "a rating study's participants judge."),
    participants: int = typer.Option(6, "--participants", min=1, help="Seats (pseudonymous ids and tokens)."),
    raters: int = typer.Option(3, "--raters", min=1, help="Distinct participants per task (3, as ShoppingBench)."),
    sample: int | None = typer.Option(None, "--sample", min=1, help="Tasks per intent or task type (default all)."),
    task: list[str] = typer.Option([], "--task", help="A task to include (repeat; instead of --sample)."),
    practice: str | None = typer.Option(None, "--practice", help="The practice task (default: one not sampled)."),
    no_practice: bool = typer.Option(False, "--no-practice", help="No practice task."),
    qualification: int = typer.Option(20, "--qualification", min=0, help="Gold items asked first."),
    pass_mark: float = typer.Option(0.75, "--pass-mark", min=0, max=1, help="Share of them needed to go on."),
    attention: int = typer.Option(1, "--attention", min=0, help="Hidden attention checks per participant."),
    check_benchmark: str | None = typer.Option(None, "--check-benchmark", help="Question benchmark of the gold "
                                               "items (default: the benchmark, or the first question benchmark)."),
    check_items: str | None = typer.Option(None, "--check-items", help="Its items file (default: bundled)."),
    time_limit: float = typer.Option(10.0, "--time-limit", min=0.1, help="Minutes per task."),
    seed: Seed = 0,
    world: World = None,
    tasks: TaskSet = None,
    items: Items = None,
    max_steps: MaxSteps = None,
) -> None:
    """Make a study folder: the sample, each participant's queue and token, qualification and attention items
    (--seed fixes the sample, the seats' queues and their order).

    Examples: shopbench study create s1 --sample 2 --participants 6 · shopbench study create a1 --kind annotation
    --items gen/items.jsonl --participants 3 --qualification 5 · shopbench study create r1 --kind rating --benchmark
    intentionqa --sample 10
    """
    from evaluators.studies.create import StudySettings, create_annotation, create_baseline, create_ratings

    if (study / "study.json").exists():
        raise _refuse(FileExistsError(f"{study} is already a study folder"))
    settings = StudySettings(participants=participants, raters=raters, seed=seed, sample=sample,
                             qualification=qualification, pass_mark=pass_mark, attention=attention,
                             time_limit_s=time_limit * 60, max_steps=max_steps, practice=not no_practice)
    try:
        if kind == "annotation":
            if items is None:
                raise BadInput("an annotation study labels the items of --items FILE")
            made = create_annotation(study, items, settings, check_items=check_items)
        elif kind == "rating":
            made = create_ratings(study, benchmark, settings, world=world, task_set=tasks,
                                  items=str(items) if items else None)
        elif kind == "baseline":
            made = create_baseline(study, benchmark, settings, world=world, task_set=tasks,
                                   items=str(items) if items else None, task_ids=task or None, practice=practice,
                                   check_benchmark=check_benchmark, check_items=check_items)
        else:
            raise BadInput(f"--kind is baseline, annotation or rating, not {kind!r}")
    except (Refusal, FileNotFoundError) as error:
        raise _refuse(error) from None
    manifest = made.manifest
    typer.echo(f"study {study}: {manifest.kind}, {len(manifest.tasks)} tasks × {manifest.raters} raters over "
               f"{len(manifest.participants)} participants")
    for seat in manifest.participants:
        typer.echo(f"  {seat.participant_id}  token {seat.token}  {len(seat.queue)} tasks")


@study_app.command("play")
def play(study: Path = STUDY, participant: str | None = typer.Option(
        None, "--participant", help="Participant id or token (default: asked on the first screen).")) -> None:
    """Take part in a study in this terminal (quit any time: you come back to the same task)."""
    from evaluators.studies.manifest import open_study
    from shopbench_tui.study.app import StudyApp

    try:
        opened = open_study(study)
    except (Refusal, FileNotFoundError) as error:
        raise _refuse(error) from None
    StudyApp(opened, participant=participant).run()


@study_app.command("status")
def status(study: Path = STUDY, as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Progress, qualification, time per task, flagged participants and agreement (Krippendorff's alpha)."""
    from evaluators.studies.manifest import open_study
    from evaluators.studies.quality import study_status

    try:
        report = study_status(open_study(study))
    except (Refusal, FileNotFoundError) as error:
        raise _refuse(error) from None
    if as_json:
        typer.echo(json.dumps(report.model_dump(), indent=2))
        return
    from shopbench_tui.study.status import print_status

    print_status(report)


@study_app.command("export")
def export(study: Path = STUDY, out: Path = typer.Option(..., "--out", help="Folder to write.")) -> None:
    """Baseline: a human run per participant and a pooled run; annotation: items with gold by majority."""
    from evaluators.studies.export import export_study
    from evaluators.studies.manifest import open_study

    try:
        opened = open_study(study)
        done = export_study(opened, out)
    except (Refusal, FileNotFoundError) as error:
        raise _refuse(error) from None
    for run in done.runs:
        typer.echo(f"run {run}: score it with shopbench score {run}")
    if opened.manifest.rates:
        typer.echo(f"{done.items} ratings with a majority, {done.ties} ties, in {out / 'ratings.jsonl'}")
    elif done.items or done.ties:
        typer.echo(f"{done.items} items with gold by majority in {out / 'items.jsonl'}; {done.ties} ties left "
                   f"unlabelled in {out / 'ties.jsonl'}")
    for participant, flags in done.left_out.items():
        typer.echo(f"left out {participant}: {'; '.join(flags)}")


@study_app.command("serve")
def serve(
    study: Path = STUDY,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default; on any other "
                             "address only invitation tokens open a seat)."),
    port: int = typer.Option(8000, "--port", help="Port."),
    max_participants: int = typer.Option(20, "--max-participants", min=1, help="App processes at once at most."),
    public_url: str | None = typer.Option(None, "--public-url", help="The address participants use, e.g. "
                                          "https://study.example.org behind a TLS reverse proxy (links use it)."),
) -> None:
    """Serve the study to web browsers (textual-serve): one link per participant, printed at start."""
    from evaluators.studies.manifest import open_study
    from shopbench_tui.study.serve import StudyServer

    try:
        opened = open_study(study)
    except (Refusal, FileNotFoundError) as error:
        raise _refuse(error) from None
    StudyServer(opened, host=host, port=port, max_participants=max_participants, public_url=public_url).serve()


def register(app: typer.Typer) -> None:
    app.add_typer(study_app, name="study")
