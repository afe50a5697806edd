"""The results app: scores every run in a worker and fills one scoreboard table as each run finishes."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, Static

from mcp_server.trajectory import read_manifest
from shopbench_tui.help import HelpScreen, current_keys
from shopbench_tui.results.board import BoardRow, board_rows, sort_rows
from shopbench_tui.scores import score_run

COLUMNS = ("benchmark", "group", "metric", "kind", "player", "run", "value", "95% interval", "n")


class ResultsApp(App):
    """`shopbench results RUN [RUN ...]`."""

    CSS_PATH = "results.tcss"
    TITLE = "shopbench results"
    BINDINGS = [
        Binding("a", "toggle_all", "all metrics / headline"),
        Binding("question_mark,f1", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, run_dirs: list[Path], *, world: Path | None = None) -> None:
        super().__init__()
        self.run_dirs, self.world = [Path(r) for r in run_dirs], world
        self.rows: list[BoardRow] = []
        self.notes: dict[Path, str] = {run_dir: "scoring…" for run_dir in self.run_dirs}
        self.show_all = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="notes")
        table: DataTable = DataTable(id="board", cursor_type="row", zebra_stripes=True)
        table.add_columns(*COLUMNS)
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_board()
        self.query_one("#board").focus()
        self.score_all()

    @work(thread=True, exclusive=True, group="scoring")
    def score_all(self) -> None:
        for run_dir in self.run_dirs:
            try:
                rows = board_rows(run_dir, read_manifest(run_dir), score_run(run_dir, self.world))
                note = f"{len(rows)} rows"
            except Exception as error:  # noqa: BLE001 - one bad run must not hide the others
                rows, note = [], f"not scored: {error}"
            self.call_from_thread(self._arrived, run_dir, rows, note)

    def _arrived(self, run_dir: Path, rows: list[BoardRow], note: str) -> None:
        self.rows.extend(rows)
        self.notes[run_dir] = note
        self.refresh_board()

    def refresh_board(self) -> None:
        self.query_one("#notes", Static).update(
            Text("\n".join(f"{run_dir.name}: {note}" for run_dir, note in self.notes.items()))
        )
        table = self.query_one("#board", DataTable)
        table.clear()
        for row in sort_rows([r for r in self.rows if self.show_all or r.primary]):
            kind = Text(row.kind, style="bold magenta" if row.kind == "human" else "")
            value = "–" if row.value is None else f"{row.value:.3f}"
            table.add_row(row.benchmark, row.group, row.metric, kind, row.player, row.run, value,
                          row.interval_text(), str(row.n))
        self.sub_title = "all metrics" if self.show_all else "headline metric (a: all)"

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.refresh_board()

    def action_help(self) -> None:
        self.push_screen(HelpScreen("results", current_keys(self), "Humans (kind human) and models share the table; "
                                    "intervals are 95% percentile bootstrap over tasks."))
