"""The play app: a human takes a task through the MCP server, as an agent would, and sees the score at the end."""

from __future__ import annotations

from typing import Any

from textual import work
from textual.binding import Binding

from shopbench_tui.help import show_help
from shopbench_tui.play.episode_screen import EpisodeScreen
from shopbench_tui.play.host import PlayHost
from shopbench_tui.play.options import parse_options, with_option
from shopbench_tui.play.screens import ConfirmQuitScreen, EndScreen, TaskPickerScreen
from shopbench_tui.scores import EpisodeScore, episode_scores, score_run

HELP_NOTES = (
    "Every action is one tool call of the episode (one step), recorded like an agent's. Search: fill the form, "
    "enter searches; enter or v on a result views it; a adds it to the basket; in the basket shift+up/down (u/d) "
    "reorders and x removes; ctrl+e recommends the basket in its order; ctrl+o asks the shopper (conversational "
    "tasks); ctrl+t ends the task. Questions: press the "
    "option's key (A–D or 0–9) or type an answer, then confirm it (enter or y; escape goes back). ctrl+q quits; "
    "while an episode runs it asks first (quitting leaves the episode recorded as abandoned)."
)


class PlayApp(PlayHost):
    """`shopbench play`: connects to `server` (a shopbench MCPServer) with the official in-memory MCP client and
    lets a person take tasks through it, each on the screen registered for its benchmark
    (shopbench_tui.play.screen_registry). Its screens ask through messages: a task chosen on the picker, another task
    wanted on the end screen (the `on_…` handlers below), a step taken (PlayHost)."""

    CSS_PATH = "play.tcss"
    TITLE = "shopbench play"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("f1", "help", "help", priority=True),
        Binding("question_mark", "help", "help", show=False),
        Binding("ctrl+q", "request_quit", "quit", priority=True),
    ]
    played: type[EpisodeScreen] | None = None
    """The screen of the current episode."""

    async def open_first_task(self) -> None:
        if self.task_id:
            await self.begin({"task_id": self.task_id, "benchmark": self.benchmark})
            return
        self.tasks = await self.session.list_tasks(self.benchmark)
        if not self.tasks:
            self.exit(message=f"no tasks for benchmark {self.benchmark!r}")
        elif self.random_task:
            await self.begin(self.rng.choice(self.tasks))
        else:
            await self.push_screen(TaskPickerScreen(self.tasks, self.rng))

    async def on_task_picker_screen_chosen(self, message: TaskPickerScreen.Chosen) -> None:
        await self.begin(message.task)

    async def begin(self, task: dict[str, Any]) -> None:
        """Start the task through start_task and show its screen (an error keeps the player where they are)."""
        try:
            started = await self.session.start(task["task_id"], benchmark=task.get("benchmark"),
                                               task_set=task.get("task_set"), episode_id=self.episode_id)
        except ValueError as error:
            if not self.screen_stack or len(self.screen_stack) <= 1:
                self.exit(message=f"cannot start {task['task_id']}: {error}")
            else:
                self.notify(str(error), severity="error", timeout=10)
            return
        self.episode_id = None  # a given id names the first episode only
        self.answer = None
        self.started_at = self.clock()
        screen = self.episode_screen(started["benchmark"])
        self.played = type(screen)
        await self.push_screen(screen)

    async def finish(self) -> None:
        task = self.session.task or {}
        while len(self.screen_stack) > 2:
            await self.pop_screen()
        minutes, seconds = divmod(int(self.elapsed()), 60)
        reason = {"terminated": "you terminated the task", "submitted": "you submitted an answer",
                  "step_limit": f"the step limit ({self.session.max_steps}) was reached"}.get(
            self.session.end_reason, f"the episode ended ({self.session.end_reason})")
        summary = (f"task {task.get('task_id')} ({task.get('benchmark')}, {task.get('intent') or ''}) · {reason} · "
                   f"{self.session.steps} steps · {minutes:02d}:{seconds:02d}\n"
                   f"episode {task.get('episode_id')} recorded in {self.runs_dir}")
        await self.switch_screen(EndScreen(summary))
        self.score_episode(task.get("episode_id", ""))
        if self.played is not None and self.played.reveals_answer:
            self.look_up_answer(task, self.answer)

    @work(thread=True, exclusive=True, group="answer")
    def look_up_answer(self, task: dict[str, Any], answer: str | None) -> None:
        """The item's correct answer from the benchmark's own items (never from the server), looked up only now
        that the episode has ended and the player's answer is recorded."""
        from benchmarks.gold import correct_answer

        options = parse_options(task.get("instruction", ""))
        try:
            gold = correct_answer(task["benchmark"], task.get("task_set"), task["task_id"])
            correct = with_option(gold, options) if gold is not None else "not found in the benchmark's items"
        except Exception as error:  # noqa: BLE001 - the end screen says why instead of crashing
            correct = f"could not be read: {error}"
        yours = with_option(answer, options) if answer is not None else "none (the episode ended without one)"
        self.call_from_thread(self._show_answer, yours, correct)

    def _show_answer(self, yours: str, correct: str) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.show_answer(yours, correct)

    @work(thread=True, exclusive=True, group="scoring")
    def score_episode(self, episode_id: str) -> None:
        """Score with the benchmark's scorer, exactly as `shopbench score` would (slow: a worker thread)."""
        try:
            score = episode_scores(score_run(self.runs_dir, self.world)).get(episode_id)
            note = "" if score else "this episode was not scored (see shopbench score)"
        except Exception as error:  # noqa: BLE001 - the end screen says why instead of crashing
            score, note = None, f"not scored: {error}"
        self.call_from_thread(self._show_score, score, note)

    def _show_score(self, score: EpisodeScore | None, note: str) -> None:
        if isinstance(self.screen, EndScreen):
            self.screen.show_score(score, note)

    def on_end_screen_another_task(self, _: EndScreen.AnotherTask) -> None:
        """Back to the tasks, or out when the task was given on the command line."""
        if self.tasks:
            self.switch_screen(TaskPickerScreen(self.tasks, self.rng))
        else:
            self.exit()

    def action_request_quit(self) -> None:
        """Quit at once when no episode runs; otherwise ask first (the episode would end as abandoned)."""
        if not self.episode_running:
            self.exit()
            return
        if isinstance(self.screen, ConfirmQuitScreen):
            return

        def chosen(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        self.push_screen(ConfirmQuitScreen(self.session.steps, self.session.max_steps), chosen)

    def action_help(self) -> None:
        show_help(self, "play", HELP_NOTES)
