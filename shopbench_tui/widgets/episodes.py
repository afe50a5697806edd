"""The episode list of one or more runs, with a filter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from shopbench_tui.runindex import EpisodeSummary
from shopbench_tui.scores import EpisodeScore

COLUMNS = ("run", "episode", "task", "intent", "player", "status", "steps", "success", "score")


def matches(episode: EpisodeSummary, query: str, score: EpisodeScore | None) -> bool:
    """Filter words: `key:value` tests one column (intent, status, task, player, run, success=yes/no), other words
    must appear in the episode id, task id, intent, player or instruction (case-insensitive)."""
    fields = {
        "intent": episode.start.intent or "",
        "status": episode.status,
        "task": episode.task_id,
        "player": episode.player,
        "run": episode.run_dir.name,
        "success": "" if score is None else ("yes" if score.success else "no"),
    }
    haystack = " ".join([episode.episode_id, episode.task_id, episode.player, episode.start.intent or "",
                         episode.start.instruction]).lower()
    for word in query.lower().split():
        key, sep, value = word.partition(":")
        if sep and key in fields:
            if value not in fields[key].lower():
                return False
        elif word not in haystack:
            return False
    return True


class EpisodeTable(DataTable):
    """One row per episode; the row key indexes the list given to `show`."""

    DEFAULT_CSS = """
    EpisodeTable { height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.add_columns(*COLUMNS)

    def show(self, episodes: list[EpisodeSummary], scores: dict[str, EpisodeScore],
             pending: frozenset[Path] = frozenset()) -> None:
        """`pending`: run directories still being scored (their rows show … until the scores arrive)."""
        cursor = self.cursor_row
        self.clear()
        for number, episode in enumerate(episodes):
            score = scores.get(episode.key)
            self.add_row(*_cells(episode, score, episode.run_dir in pending), key=str(number))
        if episodes:
            self.move_cursor(row=min(cursor, len(episodes) - 1))


def _cells(episode: EpisodeSummary, score: EpisodeScore | None, pending: bool) -> tuple:
    if score is None:
        success, value = Text("…" if pending and episode.end else "–", style="dim"), Text("")
    else:
        success = Text("yes", style="green") if score.success else Text("no", style="red")
        value = Text("" if score.value is None else f"{score.value:.2f}")
    steps = "" if episode.steps is None else str(episode.steps)
    return (episode.run_dir.name, episode.episode_id, episode.task_id, episode.start.intent or "", episode.player,
            episode.status, steps, success, value)
