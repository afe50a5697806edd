"""A native crash (llama.cpp, the JVM) in one test fails that test and the suite runs on: the project's pytest
configuration runs tests in a worker process (pytest-xdist) that is replaced when it dies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CRASHING = '''
import ctypes
import os


def test_a_segfault():
    ctypes.string_at(0)


def test_an_abort():
    os.abort()


def test_one_that_passes():
    assert True
'''


def test_a_crashing_test_fails_alone_and_the_rest_still_run(tmp_path: Path):
    (tmp_path / "test_crashing.py").write_text(CRASHING, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-rf", str(tmp_path / "test_crashing.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1, output  # tests failed; not a crashed or interrupted session
    assert "crashed while running 'test_crashing.py::test_a_segfault'" in output, output
    assert "crashed while running 'test_crashing.py::test_an_abort'" in output, output
    assert run.stdout.splitlines()[-1].strip("= ").startswith("2 failed, 1 passed in "), output
