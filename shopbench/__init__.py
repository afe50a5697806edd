"""The `shopbench` command (composition root only)."""
