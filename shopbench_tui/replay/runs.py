"""The runs a replay shows: episodes (first and last lines of each), their scores as they arrive, and what can be
opened or compared. `ReplayApp` (replay/app.py) holds one, scores it in a worker and hands it to each screen it
builds; the screens read it and post messages up, so they import this module, not the app."""

from __future__ import annotations

from pathlib import Path

from benchmarks.jsonl import DataFileError
from shopbench_tui.runindex import EpisodeSummary, RunIndex, episode_key, load_run
from shopbench_tui.scores import EpisodeScore

SCORING = "scoring…"


class LoadedRuns:
    """Run indexes (first and last lines of each episode); episodes are read in full on demand."""

    def __init__(self, run_dirs: list[Path], *, scoring: bool) -> None:
        """`scoring`: the runs are being scored (their notes say so until `scored`)."""
        self.runs: list[RunIndex] = [load_run(run_dir) for run_dir in run_dirs]
        self.episodes: list[EpisodeSummary] = [e for run in self.runs for e in run.episodes]
        self.scores: dict[str, EpisodeScore] = {}
        self.score_notes: dict[Path, str] = {run.run_dir: SCORING if scoring else "not scored" for run in self.runs}

    def scored(self, run: RunIndex, scores: dict[str, EpisodeScore], note: str) -> None:
        """A run's scores (episode id → score) arrived, or `note` says why there are none."""
        self.scores.update({episode_key(run.run_dir, episode_id): score for episode_id, score in scores.items()})
        self.score_notes[run.run_dir] = note

    @staticmethod
    def unreadable(*episodes: EpisodeSummary) -> str | None:
        """Why one of these episodes does not parse in full (naming the file and line; the list read only their
        first and last lines), or None when every one does."""
        for episode in episodes:
            try:
                episode.load()
            except (DataFileError, OSError) as error:
                return str(error)
        return None

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

    def summary(self) -> str:
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
