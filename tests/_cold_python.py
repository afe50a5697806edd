"""A fresh Python process with a bare environment (no inherited PYTHONPATH, caches or thread settings), as a cold
`shopbench score` starts: the tests of what scoring imports run their code in one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run_python(code: str, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """`python -c code args...` from the repository root, with $SHOPBENCH_HOME at `home`."""
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "SHOPBENCH_HOME": str(home)})
