"""`shopbench play --as-user`: a person sits in the shopper's seat while an agent (a model spec, a baseline or an
installed agent) plays one conversational task.

The agent is played by the run harness exactly as `shopbench run` plays it (`run_benchmark`, in a worker thread
with its own event loop), with a `PersonUserSource` as the user: when the agent calls `ask_user`, the server's
worker thread waits on the person's answer. The app shows the agent's steps as the server writes them to the
episode's trajectory file (read as it grows), the question when one waits, and the score once the episode is over.
The recorded run is an ordinary run folder: the person's answers are the user turns of its trajectory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App
from textual.binding import Binding
from textual.message import Message

from evaluators.harness.run import default_run_dir, episode_id_for, run_benchmark
from evaluators.users.person import PersonUserSource, Question
from mcp_server.trajectory import episode_path
from mcp_server.users import register_user_source
from shopbench_tui.play.as_user_screen import AsUserScreen
from shopbench_tui.scores import EpisodeScore, episode_scores, score_run

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import UserProfile
    from evaluators.harness.config import RunConfig

POLL_S = 0.2
"""How often the trajectory file is read for new steps."""


@dataclass(frozen=True)
class Ending:
    """How the run went: its summary line, whether the episode was played to its end and recorded, and its score
    (None: not scored, `note` says why)."""

    summary: str
    recorded: bool
    score: EpisodeScore | None = None
    note: str = "not scored"


class AsUserApp(App[None]):
    """The agent plays `config`'s one task; the person answers its questions."""

    TITLE = "shopbench play --as-user"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "request_quit", "quit", priority=True)]

    class ProfileShown(Message):
        def __init__(self, profile: UserProfile) -> None:
            super().__init__()
            self.profile = profile

    class QuestionWaiting(Message):
        def __init__(self, question: Question) -> None:
            super().__init__()
            self.question = question

    class RunOver(Message):
        def __init__(self, ending: Ending) -> None:
            super().__init__()
            self.ending = ending

    def __init__(self, config: RunConfig, task_id: str, world: Path | None = None, person: str | None = None) -> None:
        """`config` plays one task (`task_id`) into `config.execution.out`; its user is set here: the person (their
        name, when given, recorded in the manifest)."""
        super().__init__()
        self.config, self.task_id, self.world = config, task_id, world
        if config.execution.out is None:
            agent = config.execution.agent or config.model
            config.execution.out = default_run_dir(config.benchmark, f"as-user-{agent}")
        self.run_dir = Path(config.execution.out)
        self.source = PersonUserSource(on_question=lambda question: self.post_message(self.QuestionWaiting(question)),
                                       on_profile=lambda profile: self.post_message(self.ProfileShown(profile)),
                                       person=person)
        register_user_source(self.source.name, lambda: self.source)
        config.options.user, config.options.user_model = self.source.name, None
        self.trajectory = episode_path(self.run_dir, episode_id_for(task_id))
        self._read = 0
        self._run_loop: asyncio.AbstractEventLoop | None = None
        self._agent_run: asyncio.Task[Any] | None = None
        self.ending: Ending | None = None
        """How the run went, once it is over."""

    @property
    def seat(self) -> AsUserScreen:
        screen = self.screen_stack[-1] if self.screen_stack else None
        if not isinstance(screen, AsUserScreen):
            raise RuntimeError("the shopper's screen is not shown")
        return screen

    def on_mount(self) -> None:
        agent = self.config.execution.agent
        self.push_screen(AsUserScreen(f"{agent} ({self.config.model})" if agent else self.config.model))
        self.set_interval(POLL_S, self.read_steps)
        self.play()

    @work(thread=True, exclusive=True, group="agent")
    def play(self) -> None:
        """The agent's run, in this thread's own event loop; its end (or failure) is posted to the app."""
        loop = self._run_loop = asyncio.new_event_loop()
        try:
            self._agent_run = loop.create_task(run_benchmark(self.config))
            result = loop.run_until_complete(self._agent_run)
            summary = result.summary
            if summary is not None and summary.failed:
                ending = Ending(f"the agent's episode failed: {'; '.join(summary.causes)}", recorded=False)
            else:
                ending = self.scored()
        except asyncio.CancelledError:
            ending = Ending("stopped", recorded=False)
        except Exception as error:  # noqa: BLE001 - said on screen, in one line, instead of a traceback
            ending = Ending(f"the run stopped: {type(error).__name__}: {error}", recorded=False)
        finally:
            loop.close()
        self.post_message(self.RunOver(ending))

    def scored(self) -> Ending:
        """Score the episode with the benchmark's scorer, as `shopbench score` would."""
        episode_id = episode_id_for(self.task_id)
        try:
            score = episode_scores(score_run(self.run_dir, self.world)).get(episode_id)
        except Exception as error:  # noqa: BLE001 - the end says why instead of crashing
            return Ending(f"recorded in {self.run_dir}", True, None, f"not scored: {error}")
        return Ending(f"recorded in {self.run_dir}", True, score, "" if score else "this episode was not scored")

    def read_steps(self) -> None:
        """Show the steps the server has written since the last look (whole lines only)."""
        try:
            with self.trajectory.open("rb") as file:
                file.seek(self._read)
                data = file.read()
        except FileNotFoundError:
            return
        whole = data[: data.rfind(b"\n") + 1]
        self._read += len(whole)
        for line in whole.splitlines():
            event = json.loads(line)
            if event.get("event") == "step" and isinstance(self.screen, AsUserScreen):
                self.seat.show_step(event)

    def on_as_user_app_profile_shown(self, message: ProfileShown) -> None:
        self.seat.show_profile(message.profile)

    def on_as_user_app_question_waiting(self, message: QuestionWaiting) -> None:
        self.read_steps()
        self.seat.ask(message.question.text)

    def on_as_user_screen_answered(self, message: AsUserScreen.Answered) -> None:
        self.source.reply(message.text)

    def on_as_user_app_run_over(self, message: RunOver) -> None:
        self.ending = ending = message.ending
        self.read_steps()
        self.seat.show_end(ending.summary, ending.score, ending.note)

    def action_request_quit(self) -> None:
        """Quit: a question waiting is left unanswered (the episode ends as abandoned) and the run is stopped."""
        self.source.leave()
        if self._run_loop is not None and self._agent_run is not None and not self._agent_run.done():
            with contextlib.suppress(RuntimeError):  # its loop closed meanwhile: the run is over anyway
                self._run_loop.call_soon_threadsafe(self._agent_run.cancel)
        self.exit()
