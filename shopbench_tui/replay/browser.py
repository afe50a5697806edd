"""The loaded runs as replay's screens see them: episodes, scores (computed in a worker), and what can be opened or
compared. `ReplayApp` (replay/app.py) adds the screens; the screens import this module, not the app, so neither
imports the other."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import App

from benchmarks.jsonl import DataFileError
from shopbench_tui.runindex import EpisodeSummary, RunIndex, episode_key, load_run
from shopbench_tui.scores import EpisodeScore, episode_scores, score_run

SCORING = "scoring…"


class RunBrowser(App[None]):
    """Run indexes (first and last lines of each episode), scored in a worker; episodes are read in full on demand."""

    def __init__(
        self, run_dirs: list[Path], *, task: str | None = None, score: bool = True, world: Path | None = None
    ) -> None:
        super().__init__()
        self.runs: list[RunIndex] = [load_run(run_dir) for run_dir in run_dirs]
        self.episodes: list[EpisodeSummary] = [e for run in self.runs for e in run.episodes]
        self.task_filter, self.scoring, self.world = task, score, world
        self.scores: dict[str, EpisodeScore] = {}
        self.score_notes: dict[Path, str] = {run.run_dir: SCORING if score else "not scored" for run in self.runs}

    def open_episode(self, episode: EpisodeSummary) -> None:
        """Show one episode."""
        raise NotImplementedError

    def readable(self, *episodes: EpisodeSummary) -> bool:
        """Whether every one of these episodes parses in full (the list read only its first and last lines); a bad
        line is shown as a notification naming the file and line, and the episode is not opened."""
        for episode in episodes:
            try:
                episode.load()
            except (DataFileError, OSError) as error:
                self.notify(str(error), title="cannot open the episode", severity="error")
                return False
        return True

    def same_task(self, episode: EpisodeSummary) -> list[EpisodeSummary]:
        """Other episodes of the episode's task (other epochs, other runs): what it can be compared with."""
        return [e for e in self.episodes if e.task_id == episode.task_id and e.path != episode.path]

    def score_of(self, episode: EpisodeSummary) -> tuple[EpisodeScore | None, str]:
        """The episode's score, or a note saying why there is none."""
        if episode.end is None:
            return None, "unfinished episode: not scored"
        score = self.scores.get(episode.key)
        return score, "" if score else self.score_notes.get(episode.run_dir, "not scored")

    def pending_runs(self) -> frozenset[Path]:
        return frozenset(run_dir for run_dir, note in self.score_notes.items() if note == SCORING)

    def run_summary(self) -> str:
        lines = []
        for run in self.runs:
            finished = sum(1 for e in run.episodes if e.end is not None)
            line = f"{run.label}: {len(run.episodes)} episodes, {finished} finished"
            note = self.score_notes.get(run.run_dir)
            if note:
                line += f" · {note}"
            if run.problems:
                line += f" · {len(run.problems)} unreadable: {run.problems[0]}"
            lines.append(line)
        return "\n".join(lines)

    @work(thread=True, exclusive=True, group="scoring")
    def score_runs(self) -> None:
        """Score each run in the background; the lists and open episodes fill in as results arrive."""
        for run in self.runs:
            try:
                scores = episode_scores(score_run(run.run_dir, self.world))
                note = ""
            except Exception as error:  # noqa: BLE001 - any scoring failure is shown, the replay goes on
                scores, note = {}, f"not scored: {error}"
            self.call_from_thread(self._scores_arrived, run, scores, note)

    def _scores_arrived(self, run: RunIndex, scores: dict[str, EpisodeScore], note: str) -> None:
        self.scores.update({episode_key(run.run_dir, episode_id): score for episode_id, score in scores.items()})
        self.score_notes[run.run_dir] = note
        for screen in self.screen_stack:
            if hasattr(screen, "scores_changed"):
                screen.scores_changed()
