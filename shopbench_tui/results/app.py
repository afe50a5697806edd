"""The results app: scores every run in a worker and fills one scoreboard table as each run finishes.

Once every run is scored, a leaderboard per benchmark sits on top (evaluators.results.reports.leaderboard: one row
per run, ranked by the primary metric, its groups, overall when covered, tokens and cost). With two or more runs of a
benchmark it also pairs each with the baseline, the best-covered model run (evaluators.results.reports.baseline): per
group and overall, A − B on the tasks both played with a paired bootstrap interval and the exact McNemar test, and
the notes say which run is the baseline, how many tasks each run left out and which runs cover only part of their
task set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Header, Static

from evaluators.results.reports import label_runs
from evaluators.results.reports.baseline import against_baseline, choose_baselines
from evaluators.results.reports.leaderboard import Leaderboard, leaderboards
from evaluators.results.reports.tables import ScoredRun, assess_coverage
from mcp_server.trajectory import read_manifest
from shopbench_tui.help import HELP_AND_QUIT, show_help
from shopbench_tui.results.board import BoardRow, board_rows, sort_rows
from shopbench_tui.scores import score_run

COLUMNS = ("benchmark", "group", "metric", "player", "value", "95% interval", "n", "kind", "run")
"""Who and how well first (an 80-column terminal shows them, a partial run's coverage whole), then kind and folder."""
KIND_STYLES = {"human": "bold magenta", "baseline": "dim"}
"""Humans stand out and baselines recede, in the leaderboard and the scoreboard alike."""
PAIRED_COLUMNS = ("benchmark", "A", "B", "metric", "group", "n (paired)", "A − B [95% paired bootstrap]",
                  "McNemar (exact)")


class ResultsApp(App):
    """`shopbench results RUN [RUN ...]`."""

    CSS_PATH = "results.tcss"
    TITLE = "shopbench results"
    BINDINGS = [
        Binding("a", "toggle_all", "all metrics / headline"),
        *HELP_AND_QUIT,
    ]

    def __init__(self, run_dirs: list[Path], *, world: Path | None = None, baseline: str | None = None) -> None:
        super().__init__()
        self.run_dirs, self.world = [Path(r) for r in run_dirs], world
        self.baseline = baseline
        """The run each other is paired against (`--baseline`); None: the best-covered model run."""
        self.rows: list[BoardRow] = []
        self.notes: dict[Path, str] = {run_dir: "scoring…" for run_dir in self.run_dirs}
        self.show_all = False
        self.scored: list[Any] = []
        self.comparisons: list[Any] = []
        self.pair_notes: list[str] = []
        self.partial: dict[str, str] = {}
        """Run folder name → its coverage text, for runs that played only part of their task set."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="notes")
        yield Vertical(id="leaderboards")
        table: DataTable = DataTable(id="board", cursor_type="row", zebra_stripes=True)
        table.add_columns(*COLUMNS)
        yield table
        paired: DataTable = DataTable(id="paired", cursor_type="row", zebra_stripes=True)
        paired.add_columns(*PAIRED_COLUMNS)
        paired.display = False
        yield paired
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_board()
        self.query_one("#board").focus()
        self.score_all()

    @work(thread=True, exclusive=True, group="scoring")
    def score_all(self) -> None:
        for run_dir in self.run_dirs:
            try:
                manifest = read_manifest(run_dir)
                result = score_run(run_dir, self.world)
                scored = ScoredRun(run_dir, manifest, result)
                rows = board_rows(scored)
                note = f"{len(rows)} rows"
                self.scored.append(scored)
            except Exception as error:  # noqa: BLE001 - one bad run must not hide the others
                rows, note = [], f"not scored: {error}"
            self.call_from_thread(self._arrived, run_dir, rows, note)
        if not self.scored:
            return
        label_runs(self.scored)
        try:
            assess_coverage(self.scored)
            boards = leaderboards(self.scored)
        except Exception as error:  # noqa: BLE001 - the scoreboard stays useful without the leaderboard
            self.call_from_thread(self._paired, [], f"not ranked: {error}")
            return
        self.call_from_thread(self._ranked, boards)
        if len(self.scored) >= 2:
            try:
                baselines = choose_baselines(self.scored, self.baseline)
                comparisons = against_baseline(self.scored, baselines)
            except Exception as error:  # noqa: BLE001 - the scoreboard stays useful without the pairing
                self.call_from_thread(self._paired, [], f"not paired: {error}")
                return
            self.call_from_thread(self._paired, comparisons, "", [baseline.text() for baseline in baselines.values()])

    def _ranked(self, boards: list[Leaderboard]) -> None:
        """One leaderboard table per benchmark, above the scoreboard."""
        holder = self.query_one("#leaderboards", Vertical)
        holder.remove_children()
        for number, board in enumerate(boards):
            table: DataTable = DataTable(id=f"leaderboard-{number}", classes="leaderboard", cursor_type="row",
                                         zebra_stripes=True)
            order = column_order(board.headers())
            table.add_columns(*(board.headers()[index] for index in order))
            for row, run in zip(board.rows(compact=True), board.runs, strict=True):
                cells: list[str | Text] = [row[index] for index in order]
                cells[2] = Text(row[2], style=KIND_STYLES.get(run.kind, ""))
                table.add_row(*cells)
            holder.mount(Static(Text(f"Leaderboard · {board.benchmark} · {board.ranking_text()}", style="bold"),
                                classes="leaderboard-title"), table)

    def _arrived(self, run_dir: Path, rows: list[BoardRow], note: str) -> None:
        self.rows.extend(rows)
        self.notes[run_dir] = note
        self.refresh_board()

    def _paired(self, comparisons: list[Any], problem: str, baseline_notes: list[str] | None = None) -> None:
        self.comparisons = comparisons
        coverage = {run.run_dir: run.coverage for run in self.scored}
        for run_dir, found in coverage.items():
            if found is not None and not found.complete:
                self.notes[run_dir] = f"{self.notes.get(run_dir, '')} · {found.text()} (no overall)"
                self.partial[run_dir.name] = f"partial {found.played}/{found.total}"
        self.pair_notes = [problem] if problem else [*(baseline_notes or []), *(
            f"{c.a} vs {c.b}: {c.coverage_text()}" for c in comparisons)]
        paired = self.query_one("#paired", DataTable)
        paired.clear()
        for comparison in comparisons:
            for metric in comparison.metrics:
                for group in [*metric.groups, metric.overall]:
                    cells = group.row()
                    paired.add_row(comparison.benchmark, comparison.a, comparison.b, metric.metric, cells[0],
                                   cells[1], cells[4], cells[5])
        paired.display = bool(comparisons)
        self.refresh_board()

    def refresh_board(self) -> None:
        lines = [f"{run_dir.name}: {note}" for run_dir, note in self.notes.items()]
        lines += self.pair_notes
        self.query_one("#notes", Static).update(Text("\n".join(lines)))
        table = self.query_one("#board", DataTable)
        table.clear()
        for row in sort_rows([r for r in self.rows if self.show_all or r.primary]):
            kind = Text(row.kind, style=KIND_STYLES.get(row.kind, ""))
            value = "–" if row.value is None else f"{row.value:.3f}"
            interval = row.interval_text()
            if row.group == "overall" and row.run in self.partial:
                value, interval = self.partial[row.run], ""
            table.add_row(row.benchmark, row.group, row.metric, row.player, value, interval, str(row.n), kind,
                          row.run)
        self.sub_title = "all metrics" if self.show_all else "headline metric (a: all)"

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.refresh_board()

    def action_help(self) -> None:
        show_help(self, "results", "The leaderboard on top ranks the runs of each "
                  "benchmark by its primary metric (on the tasks every run played when they cover different "
                  "tasks). Humans (kind human) and models share the tables; intervals are 95% percentile bootstrap "
                  "over tasks. With two or more runs, the lower table pairs each with the baseline on the tasks both "
                  "played (A − B, exact McNemar).")


def column_order(headers: list[str]) -> list[int]:
    """The leaderboard's columns in the terminal: rank, run, kind and score, then a partial run's coverage ("overall":
    "partial 4/400"), which an 80-column terminal must show whole, then the groups and the rest."""
    order = list(range(len(headers)))
    if "overall" in headers[4:]:
        order.remove(headers.index("overall"))
        order.insert(4, headers.index("overall"))
    return order

