"""The replay app: loads run indexes (first and last lines only), scores runs in a worker, opens episodes on demand."""

from __future__ import annotations

from shopbench_tui.help import HELP_AND_QUIT, show_help
from shopbench_tui.replay.browser import RunBrowser
from shopbench_tui.replay.screens import EpisodeListScreen, EpisodeScreen
from shopbench_tui.runindex import EpisodeSummary

HELP_NOTES = ("Arrows move in lists; enter opens the highlighted episode. In an episode the score breakdown names the "
              "failed constraints; c compares it with another episode of the same task (from any loaded run).")


class ReplayApp(RunBrowser):
    """`shopbench replay RUN [RUN ...] [--task ID]`: the episode list, one episode, two side by side."""

    CSS_PATH = "replay.tcss"
    TITLE = "shopbench replay"
    BINDINGS = [*HELP_AND_QUIT]

    def on_mount(self) -> None:
        task = self.task_filter
        self.push_screen(EpisodeListScreen(initial_filter=f"task:{task}" if task else ""))
        if task:
            chosen = [e for e in self.episodes if e.task_id == task]
            if len(chosen) == 1:
                self.open_episode(chosen[0])
        if self.scoring:
            self.score_runs()

    def open_episode(self, episode: EpisodeSummary) -> None:
        if self.readable(episode):
            self.push_screen(EpisodeScreen(episode))

    def action_help(self) -> None:
        show_help(self, "replay", HELP_NOTES)
