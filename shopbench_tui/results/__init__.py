"""`shopbench results`: the scoreboard of one or more runs, humans and models in one table."""

from shopbench_tui.results.app import ResultsApp
from shopbench_tui.results.board import BoardRow, board_rows

__all__ = ["BoardRow", "ResultsApp", "board_rows"]
