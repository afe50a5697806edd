"""shopbench."""
