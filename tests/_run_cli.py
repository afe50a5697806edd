"""The `shopbench run` command line that the crash and interrupt tests start as a child process, and the episodes
it plays (three tasks of each of two intents, one epoch)."""

from __future__ import annotations

import sys
from pathlib import Path

EXPECTED = {f"{intent}-{i:04d}-e0" for intent in ("product", "shop") for i in range(3)}


def run_command(spec: str, world: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", "--model", spec, "--world", str(world),
            "--intent", "product", "--intent", "shop", "--limit", "3", "--out", str(out), "--no-cache", *extra]
