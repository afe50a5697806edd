"""`shopbench study play`: one participant's path through a study (evaluators.studies.path decides each step from
the log), with episodes played on the play app's own screens through the environment every player uses, and the
log line written only once the answer is recorded. Gold is looked up only after that, and shown only for the
qualification (a right/wrong after each item), never for the assigned tasks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

from mcp import Client
from textual import work
from textual.binding import Binding
from textual.screen import Screen

from benchmarks.gold import gold_answers, matches_gold
from benchmarks.jsonl import DataFileError
from evaluators.studies.annotation import label_items
from evaluators.studies.manifest import Participant, Study
from evaluators.studies.path import Step, next_step, qualification_score
from evaluators.studies.progress import EventName, StudyEvent, read_progress, record
from mcp_server.suites import NotPlayable
from mcp_server.trajectory import episode_path, read_trajectory
from shopbench_tui.play.host import PlayHost
from shopbench_tui.play.screens import ConfirmQuitScreen
from shopbench_tui.play.session import PlaySession
from shopbench_tui.play.widgets import StatusBar
from shopbench_tui.study.screens import EntryScreen, LabelScreen, MessageScreen, TextScreen

ServerFactory = Callable[[Participant, str], Any]
"""(seat, role "tasks" or "checks") → the MCP server that role's episodes are played on, recording under the
participant's run folder for that role."""


class StudyApp(PlayHost):
    CSS_PATH = "../play/play.tcss"
    TITLE = "shopbench study"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "request_quit", "quit (you can come back to the same task)", priority=True)]

    def __init__(self, study: Study, servers: ServerFactory | None = None, *, participant: str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(None, study.folder, player="", clock=clock)
        self.study, self.manifest = study, study.manifest
        self.servers = servers or study_servers(study)
        self.given = participant
        self.seat: Participant | None = None
        self.sessions: dict[str, PlaySession] = {}
        self.step: Step | None = None
        self.over_time = False

    def on_mount(self) -> None:
        self.sub_title = self.manifest.name
        self.set_interval(1.0, self.watch_clock)
        if self.given:
            self.identify(self.given)
        else:
            self.push_screen(EntryScreen(), self.identify)

    def identify(self, given: str | None) -> None:
        seat = self.manifest.participant(given or "")
        if seat is None:
            self.notify("no participant with this id or token in this study", severity="error")
            if self.given:
                self.exit(message="no participant with this id or token in this study")
            else:
                self.push_screen(EntryScreen(), self.identify)
            return
        self.seat, self.player = seat, seat.participant_id
        self.connect()

    @work(exclusive=True, group="connection")
    async def connect(self) -> None:
        """Baseline: hold one MCP connection per role (tasks, checks) for the app's lifetime; annotation: none.
        Nothing before the participant is known (PlayHost's mount calls this too)."""
        if self.seat is None:
            return
        async with AsyncExitStack() as stack:
            if self.manifest.kind == "baseline":
                details = {"interface": "shopbench study", "study": self.manifest.name,
                           "participant": self.seat.participant_id}
                for role in ("tasks", "checks"):
                    try:
                        server = self.servers(self.seat, role)
                    except (NotPlayable, DataFileError, FileNotFoundError, KeyError, ValueError) as error:
                        await self.show(MessageScreen("The study cannot start here", f"{error}\n\nPlease tell the "
                                                      "study's organiser (nothing was recorded)."))
                        return
                    client = await stack.enter_async_context(Client(server, mode="legacy"))
                    self.sessions[role] = PlaySession(client, self.seat.participant_id, details)
            self.call_later(self.advance)
            await asyncio.Event().wait()

    async def advance(self) -> None:
        """Show the next step of the path."""
        assert self.seat is not None
        progress = read_progress(self.study, self.seat.participant_id)
        step = self.step = next_step(self.manifest, self.seat, progress)
        if step.kind == "consent":
            await self.show(TextScreen("Consent", self.manifest.consent, "I agree", "I do not agree"), self.consent)
        elif step.kind == "declined":
            await self.show(MessageScreen("Thank you", "You chose not to take part; nothing more is recorded."))
        elif step.kind == "score_qualification":
            score, passed = qualification_score(self.manifest, progress)
            self.write(StudyEvent(event="qualified", score=score, passed=passed))
            await self.advance()
        elif step.kind == "failed":
            share = (progress.qualified.score if progress.qualified else None) or 0.0
            await self.show(MessageScreen("Thank you", f"Thank you for your time. Your qualification score "
                                          f"({share:.0%}) is below the study's pass mark, so the study ends "
                                          "here for you. Your answers are recorded."))
        elif step.kind in ("complete", "completed"):
            code = self.manifest.completion_code(self.seat.participant_id)
            if step.kind == "complete":
                self.write(StudyEvent(event="completed", code=code))
            await self.show(MessageScreen("Done: thank you", f"You have finished every task.\n\nYour completion "
                                          f"code: {code}\n\nPaste it where the study asks for it; q leaves."))
        else:
            await self.show(TextScreen(*self.before(step), "Start"), self.go)

    def before(self, step: Step) -> tuple[str, str]:
        """The break before a task: which part and place it is, in words."""
        if step.kind == "qualification":
            return f"Qualification {step.number} of {step.total}", "A question with a known answer. Press enter."
        if step.kind == "practice":
            return "Practice", "One practice task, to learn the screens; it does not count. Press enter."
        return (f"Task {step.number} of {step.total}", "Take a break if you like; the clock starts when you press "
                f"enter ({self.manifest.time_limit_s / 60:.0f} minutes per task).")

    async def show(self, screen: Screen[Any], callback: Callable[[Any], Any] | None = None) -> None:
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(screen, callback)

    def consent(self, agreed: bool | None) -> None:
        """Agreed: the instructions follow (once; a participant who comes back goes on where they were)."""
        self.write(StudyEvent(event="consented" if agreed else "declined"))
        if agreed:
            self.push_screen(TextScreen("Instructions", self.manifest.instructions_text(), "Start"), self.then_advance)
        else:
            self.call_later(self.advance)

    def then_advance(self, _: bool | None = None) -> None:
        self.call_later(self.advance)

    def go(self, _: bool | None = None) -> None:
        self.call_later(self.play)

    async def play(self) -> None:
        step = self.step
        assert step is not None and step.task_id is not None and self.seat is not None
        self.started_at, self.over_time, self.answer = self.clock(), False, None
        if self.manifest.kind == "annotation":
            item = label_items(self.study)[step.task_id]
            status = StatusBar(lambda: (0, 1), self.elapsed, self.seat.participant_id)
            await self.show(LabelScreen(item, self.before(step)[0], status), self.labelled)
            return
        role = role_of(step)
        self._session = self.sessions[role]
        benchmark = self.manifest.qualification.benchmark if role == "checks" else self.manifest.benchmark
        try:
            started = await self.session.start(step.task_id, benchmark=benchmark)
        except ValueError as error:
            await self.show(MessageScreen("Cannot start this task", f"{error}\n\nPlease tell the study's organiser."))
            return
        await self.show(self.episode_screen(started["benchmark"]))

    def labelled(self, answer: str | None) -> None:
        self.answer = answer
        self.call_later(self.finish)

    async def finish(self) -> None:
        """The episode (or label) is recorded: write its line, say right or wrong for a qualification item, go on."""
        step = self.step
        assert step is not None and self.seat is not None
        task = (self._session.task or {}) if self._session is not None else {}
        if self.answer is None and task.get("episode_id"):  # a shopping episode's answer is its recommendation
            end = read_trajectory(episode_path(self.study.episodes_dir(self.seat.participant_id, role_of(step)),
                                               task["episode_id"])).end
            self.answer = end.answer or end.recommended if end is not None else None
        name: EventName = "qualification" if step.kind == "qualification" else \
            "practice" if step.kind == "practice" else "task"
        event = StudyEvent(event=name, task_id=step.task_id, episode_id=task.get("episode_id"),
                           benchmark=task.get("benchmark") or self.manifest.benchmark, answer=self.answer,
                           active_s=round(self.elapsed(), 3), over_time=self.over_time, attention=step.attention)
        feedback = ""
        if step.kind == "qualification" or step.attention:
            gold = gold_answers(self.manifest.qualification.benchmark, self.manifest.qualification.items)
            event.correct = matches_gold(self.answer, gold.get(step.task_id or "", ""))
            if step.kind == "qualification":
                feedback = f"Your answer {self.answer or '(none)'} was {'right' if event.correct else 'wrong'}" + (
                    "" if event.correct else f"; the answer is {gold.get(step.task_id or '')}") + "."
        self.write(event)
        if feedback:
            await self.show(TextScreen("Qualification", feedback), self.then_advance)
        else:
            await self.advance()

    def write(self, event: StudyEvent) -> None:
        assert self.seat is not None
        record(self.study, self.seat.participant_id, event)

    def watch_clock(self) -> None:
        """The time left in the header while a task runs (the status line counts up); past the limit it is said
        once, the task goes on, and its line says it ran over."""
        running = self.episode_running or isinstance(self.screen, LabelScreen)
        left = self.manifest.time_limit_s - self.elapsed()
        minutes, seconds = divmod(int(abs(left)), 60)
        self.title = f"{self.TITLE} · {'time left' if left >= 0 else 'over time'} {minutes:02d}:{seconds:02d}" \
            if running else self.TITLE
        if running and not self.over_time and left < 0:
            self.over_time = True
            self.notify("The time for this task is up: please finish it now.", severity="warning", timeout=30)

    def action_request_quit(self) -> None:
        """Leave at once when nothing runs; ask first in an episode (it would be played again on return)."""
        if not self.episode_running:
            self.exit()
            return
        if not isinstance(self.screen, ConfirmQuitScreen):
            self.push_screen(ConfirmQuitScreen(self.session.steps, self.session.max_steps),
                             lambda quit_now: self.exit() if quit_now else None)

    async def open_first_task(self) -> None:  # the path decides what comes first
        await self.advance()


def role_of(step: Step) -> str:
    """Which connection plays the step: "checks" (qualification items, attention checks) or "tasks"."""
    return "checks" if step.kind == "qualification" or step.attention else "tasks"


def study_servers(study: Study) -> ServerFactory:
    """The MCP servers of `shopbench play`, one per role, over the benchmarks and selections the manifest names."""
    from pathlib import Path

    from shopbench_tui.play.runner import build_play_server

    manifest = study.manifest

    def build(seat: Participant, role: str) -> Any:
        runs = study.episodes_dir(seat.participant_id, role)
        if role == "checks":
            return build_play_server(manifest.qualification.benchmark, runs, items=_path(manifest.qualification.items))
        return build_play_server(manifest.benchmark, runs, world=_path(manifest.world), task_set=manifest.task_set,
                                 items=_path(manifest.items), max_steps=manifest.max_steps)

    def _path(value: str | None) -> Path | None:
        return Path(value) if value else None

    return build
