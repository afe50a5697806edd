"""Inspect AI's entry point (pyproject `[project.entry-points.inspect_ai] shopbench = "evaluators.inspect._registry"`):
importing it registers the shopbench/* tasks."""

from evaluators.inspect.tasks import intentionqa, session_intent, shopping_mmlu, shoppingbench

__all__ = ["intentionqa", "session_intent", "shopping_mmlu", "shoppingbench"]
