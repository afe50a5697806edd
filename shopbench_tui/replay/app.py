"""The replay app: loads run indexes (first and last lines only), scores runs in a worker, opens episodes on demand."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import App

from shopbench_tui.help import HELP_AND_QUIT, show_help
from shopbench_tui.replay.runs import LoadedRuns
from shopbench_tui.replay.screens import CompareScreen, EpisodeListScreen, EpisodeScreen, ReplayScreen
from shopbench_tui.runindex import EpisodeSummary, RunIndex
from shopbench_tui.scores import EpisodeScore, episode_scores, score_run

HELP_NOTES = ("Arrows move in lists; enter opens the highlighted episode. In an episode the score breakdown names the "
              "failed constraints; c compares it with another episode of the same task (from any loaded run).")


class ReplayApp(App[None]):
    """`shopbench replay RUN [RUN ...] [--task ID]`: the episode list, one episode, two side by side. Each screen is
    handed the loaded runs; it asks for another through a message (an episode chosen in the list, two episodes to
    compare), and the app opens it once the episodes read in full."""

    CSS_PATH = "replay.tcss"
    TITLE = "shopbench replay"
    BINDINGS = [*HELP_AND_QUIT]

    def __init__(
        self, run_dirs: list[Path], *, task: str | None = None, score: bool = True, world: Path | None = None
    ) -> None:
        super().__init__()
        self.loaded = LoadedRuns(run_dirs, scoring=score)
        self.task_filter, self.scoring, self.world = task, score, world

    def on_mount(self) -> None:
        task = self.task_filter
        self.push_screen(EpisodeListScreen(self.loaded, type(self), initial_filter=f"task:{task}" if task else ""))
        if task:
            chosen = [e for e in self.loaded.episodes if e.task_id == task]
            if len(chosen) == 1:
                self.open_episode(chosen[0])
        if self.scoring:
            self.score_runs()

    def readable(self, *episodes: EpisodeSummary) -> bool:
        """Whether every one of these episodes parses in full; a bad line is shown as a notification naming the file
        and line, and the episode is not opened."""
        problem = self.loaded.unreadable(*episodes)
        if problem is not None:
            self.notify(problem, title="cannot open the episode", severity="error")
        return problem is None

    def open_episode(self, episode: EpisodeSummary) -> None:
        if self.readable(episode):
            self.push_screen(EpisodeScreen(self.loaded, type(self), episode))

    def on_episode_list_screen_chosen(self, message: EpisodeListScreen.Chosen) -> None:
        self.open_episode(message.episode)

    def on_episode_screen_compare(self, message: EpisodeScreen.Compare) -> None:
        if self.readable(message.left, message.right):
            self.push_screen(CompareScreen(self.loaded, type(self), message.left, message.right))

    @work(thread=True, exclusive=True, group="scoring")
    def score_runs(self) -> None:
        """Score each run in the background; the lists and open episodes fill in as results arrive."""
        for run in self.loaded.runs:
            try:
                scores = episode_scores(score_run(run.run_dir, self.world))
                note = ""
            except Exception as error:  # noqa: BLE001 - any scoring failure is shown, the replay goes on
                scores, note = {}, f"not scored: {error}"
            self.call_from_thread(self._scores_arrived, run, scores, note)

    def _scores_arrived(self, run: RunIndex, scores: dict[str, EpisodeScore], note: str) -> None:
        self.loaded.scored(run, scores, note)
        for screen in self.screen_stack:
            if isinstance(screen, ReplayScreen):
                screen.scores_changed()

    def action_help(self) -> None:
        show_help(self, "replay", HELP_NOTES)
