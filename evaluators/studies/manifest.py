"""A study's manifest (`STUDY/study.json`): everything fixed when the study is made, so that every participant's
path can be replayed from it: the kind, the benchmark and its selection, the seed, each participant's queue, the
qualification and attention items with their pass mark, the time limit and the texts shown before starting."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from benchmarks.jsonl import read_json_model, write_text_atomic
from mcp_server.trajectory import now

STUDY_VERSION = 1
MANIFEST = "study.json"
LOGS = "participants"
EPISODES = "episodes"
ITEMS = "items.jsonl"
"""Annotation studies: the items to label, each with the text and options shown (written at create)."""

StudyKind = Literal["baseline", "annotation"]

CONSENT = (
    "You are invited to take part in a study of online shopping tasks. Your answers and the actions you take are "
    "recorded under a pseudonymous id, never your name, and used only to compare people with language models. "
    "Taking part is voluntary: you may stop at any time, and what you have submitted is kept. Press y to agree and "
    "start, n to leave without taking part."
)
INSTRUCTIONS = (
    "First a short qualification: a few questions with known answers (you need {pass_percent}% to go on). Then one "
    "practice task, which does not count. Then your tasks, one at a time, with a clock at the top ({minutes} minutes "
    "per task is the limit). Between tasks you may take a break. Work as you would when shopping for yourself; "
    "you will not be told whether your answers are right. At the end you get a completion code."
)


class QualificationSpec(BaseModel):
    """Gold items asked before the first task; at least `pass_mark` of them right to go on (SessionIntentBench: above
    75% of at least 20)."""

    benchmark: str
    """The question benchmark the gold items come from."""
    items: str | None = None
    """Its items file (None: the bundled items)."""
    task_ids: list[str] = Field(default_factory=list)
    pass_mark: float = 0.75


class Participant(BaseModel):
    """One seat of the study: a pseudonymous id, the invitation token that opens it, and the fixed queue."""

    participant_id: str
    token: str
    queue: list[str]
    """Task ids in the order this participant gets them, attention checks mixed in."""


class StudyManifest(BaseModel):
    version: int = STUDY_VERSION
    name: str
    kind: StudyKind
    benchmark: str
    """baseline: what participants play; annotation: the benchmark whose generated items they label."""
    world: str | None = None
    task_set: str | None = None
    items: str | None = None
    """The main benchmark's items file (question baselines; the items to label in an annotation study)."""
    seed: int = 0
    raters: int = 3
    tasks: list[str]
    """The sampled tasks (or items) every one of which `raters` participants get."""
    groups: dict[str, str] = Field(default_factory=dict)
    """task id → its intent or task type (agreement and time are reported per group)."""
    practice: str | None = None
    """One task played first and never counted."""
    qualification: QualificationSpec
    attention: list[str] = Field(default_factory=list)
    """Gold items of the qualification benchmark hidden in every queue (answers checked, never counted)."""
    rates: bool = False
    """An annotation study of judgements about items (exported as ratings), not of items' gold labels."""
    time_limit_s: float = 600.0
    max_steps: int | None = None
    consent: str = CONSENT
    instructions: str = INSTRUCTIONS
    participants: list[Participant]
    secret: str
    """Key of the completion codes (a participant cannot work out another's code)."""
    created_at: datetime = Field(default_factory=now)

    def participant(self, id_or_token: str) -> Participant | None:
        """The seat named by its pseudonymous id or its invitation token (compared in constant time)."""
        given = id_or_token.strip()
        for seat in self.participants:
            if given == seat.participant_id or hmac.compare_digest(given.encode(), seat.token.encode()):
                return seat
        return None

    def completion_code(self, participant_id: str) -> str:
        digest = hmac.new(self.secret.encode(), participant_id.encode(), hashlib.sha256).hexdigest()
        return digest[:10].upper()

    def instructions_text(self) -> str:
        return self.instructions.format(pass_percent=round(self.qualification.pass_mark * 100),
                                        minutes=round(self.time_limit_s / 60))


class Study:
    """A study folder: the manifest and where each participant's log and episodes go."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.manifest = read_json_model(self.folder / MANIFEST, StudyManifest)

    @staticmethod
    def write(folder: Path, manifest: StudyManifest) -> Study:
        Path(folder).mkdir(parents=True, exist_ok=True)
        write_text_atomic(Path(folder) / MANIFEST, manifest.model_dump_json(indent=2))
        return Study(folder)

    def log_path(self, participant_id: str) -> Path:
        return self.folder / LOGS / f"{participant_id}.jsonl"

    def episodes_dir(self, participant_id: str, role: str) -> Path:
        """A participant's run folder for one role: "tasks" (the practice and the assigned tasks) or "checks" (the
        qualification items and attention checks, of another benchmark in a ShoppingBench baseline): each folder's
        manifest names its own benchmark."""
        return self.folder / EPISODES / participant_id / role


def open_study(folder: Path) -> Study:
    """The study in `folder`; FileNotFoundError (one line) when it is none."""
    if not (Path(folder) / MANIFEST).exists():
        raise FileNotFoundError(f"{folder} is not a study folder (no {MANIFEST}); make one with shopbench study create")
    return Study(folder)
