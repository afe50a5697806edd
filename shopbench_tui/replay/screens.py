"""The views of replay: the episode list, one episode, two episodes side by side, and the compare picker. Each is
handed the loaded runs when it is built and reads them; what it wants opened goes up to the app as a message."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from shopbench_tui.replay.runs import LoadedRuns
from shopbench_tui.runindex import EpisodeSummary
from shopbench_tui.widgets import EpisodePane, EpisodeTable
from shopbench_tui.widgets.episodes import matches
from shopbench_tui.widgets.keyhints import KeyHints


class ReplayScreen(Screen):
    """A view of the loaded runs. `app_keys`: the app's class, whose keys the key line lists after the screen's."""

    def __init__(self, loaded: LoadedRuns, app_keys: type) -> None:
        super().__init__()
        self.loaded, self.app_keys = loaded, app_keys

    def key_hints(self) -> KeyHints:
        return KeyHints(type(self), self.app_keys)

    def scores_changed(self) -> None:
        """Scores arrived (the app scores the runs in a worker): show them."""


class EpisodeListScreen(ReplayScreen):
    """Every episode of the loaded runs; type in the filter, Enter opens one."""

    BINDINGS = [
        Binding("slash", "focus_filter", "filter"),
        Binding("escape", "focus_table", "to list", show=False),
    ]

    class Chosen(Message):
        """The reader chose this episode: the app opens it."""

        def __init__(self, episode: EpisodeSummary) -> None:
            super().__init__()
            self.episode = episode

    def __init__(self, loaded: LoadedRuns, app_keys: type, initial_filter: str = "") -> None:
        super().__init__(loaded, app_keys)
        self.initial_filter = initial_filter
        self.shown: list[EpisodeSummary] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="run-summary")
        yield Input(self.initial_filter, placeholder="filter: words, or intent:shop status:terminated success:no "
                    "task:… player:… run:…", id="filter")
        yield EpisodeTable(id="episodes")
        yield self.key_hints()

    def on_mount(self) -> None:
        self.query_one("#run-summary", Static).update(self.loaded.summary())
        self.apply_filter(self.initial_filter)
        self.query_one(EpisodeTable).focus()

    def apply_filter(self, query: str) -> None:
        scores = self.loaded.scores
        self.shown = [e for e in self.loaded.episodes if matches(e, query, scores.get(e.key))]
        self.query_one(EpisodeTable).show(self.shown, scores, self.loaded.pending_runs())
        self.sub_title = f"{len(self.shown)} of {len(self.loaded.episodes)} episodes"

    def scores_changed(self) -> None:
        self.query_one("#run-summary", Static).update(self.loaded.summary())
        self.apply_filter(self.query_one("#filter", Input).value)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.apply_filter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one(EpisodeTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is None:  # never: EpisodeTable.show keys every row by its index
            raise ValueError("an episode row without a key")
        self.post_message(self.Chosen(self.shown[int(key)]))

    def action_focus_filter(self) -> None:
        self.query_one("#filter", Input).focus()

    def action_focus_table(self) -> None:
        self.query_one(EpisodeTable).focus()


class EpisodeScreen(ReplayScreen):
    """One episode: its steps on the left, the selected step on the right, the score breakdown above."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "back"),
        Binding("c", "compare", "compare"),
        Binding("n", "step(1)", "next step"),
        Binding("p", "step(-1)", "previous step"),
    ]

    class Compare(Message):
        """The reader wants these two episodes of one task side by side: the app opens them."""

        def __init__(self, left: EpisodeSummary, right: EpisodeSummary) -> None:
            super().__init__()
            self.left, self.right = left, right

    def __init__(self, loaded: LoadedRuns, app_keys: type, episode: EpisodeSummary) -> None:
        super().__init__(loaded, app_keys)
        self.episode = episode

    def compose(self) -> ComposeResult:
        yield Header()
        yield EpisodePane(self.episode)
        yield self.key_hints()

    def on_mount(self) -> None:
        self.sub_title = self.episode.episode_id
        self.scores_changed()

    def scores_changed(self) -> None:
        self.query_one(EpisodePane).show_score(*self.loaded.score_of(self.episode))

    def action_step(self, delta: int) -> None:
        self.query_one(EpisodePane).move_step(delta)

    def action_compare(self) -> None:
        """With the only other episode of the task, or the one picked from them."""
        others = self.loaded.same_task(self.episode)
        if not others:
            self.notify(f"No other episode of task {self.episode.task_id} in the loaded runs; give a second run: "
                        "shopbench replay RUN1 RUN2", severity="warning")
            return
        if len(others) == 1:
            self.post_message(self.Compare(self.episode, others[0]))
            return

        def chosen(other: EpisodeSummary | None) -> None:
            if other is not None:
                self.post_message(self.Compare(self.episode, other))

        self.app.push_screen(ComparePicker(self.episode, others), chosen)


class ComparePicker(ModalScreen[EpisodeSummary | None]):
    """Pick the episode to compare with (other episodes of the same task, from every loaded run)."""

    DEFAULT_CSS = """
    ComparePicker { align: center middle; }
    ComparePicker > Vertical { width: 90; height: auto; max-height: 80%; border: thick $primary;
                               background: $surface; }
    """
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, episode: EpisodeSummary, others: list[EpisodeSummary]) -> None:
        super().__init__()
        self.episode, self.others = episode, others

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Compare {self.episode.episode_id} with:")
            yield OptionList(*(Option(Text(f"{o.run_dir.name} · {o.episode_id} · {o.player} · {o.status}"), id=str(i))
                               for i, o in enumerate(self.others)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.others[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)


class CompareScreen(ReplayScreen):
    """Two episodes of the same task side by side; n/p move both step lists together."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "back"),
        Binding("n", "step(1)", "both: next step"),
        Binding("p", "step(-1)", "both: previous step"),
    ]

    def __init__(self, loaded: LoadedRuns, app_keys: type, left: EpisodeSummary, right: EpisodeSummary) -> None:
        super().__init__(loaded, app_keys)
        self.left, self.right = left, right

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield EpisodePane(self.left, label="A · ", classes="compact", id="left")
            yield EpisodePane(self.right, label="B · ", classes="compact", id="right")
        yield self.key_hints()

    def on_mount(self) -> None:
        self.sub_title = f"task {self.left.task_id}"
        self.scores_changed()

    def scores_changed(self) -> None:
        self.query_one("#left", EpisodePane).show_score(*self.loaded.score_of(self.left))
        self.query_one("#right", EpisodePane).show_score(*self.loaded.score_of(self.right))

    def action_step(self, delta: int) -> None:
        for pane in self.query(EpisodePane):
            pane.move_step(delta)
