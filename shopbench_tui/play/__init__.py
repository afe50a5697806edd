"""`shopbench play`: a person takes ShoppingBench tasks or question items through the MCP server."""

from shopbench_tui.play.app import PlayApp
from shopbench_tui.play.runner import play
from shopbench_tui.play.session import PlaySession

__all__ = ["PlayApp", "PlaySession", "play"]
