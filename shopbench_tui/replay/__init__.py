"""`shopbench replay`: browse a run's episodes, read each step, compare two episodes of one task."""

from shopbench_tui.replay.app import ReplayApp

__all__ = ["ReplayApp"]
