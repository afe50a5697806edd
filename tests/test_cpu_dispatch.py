"""Scores agree across CPUs: the embedder run with the CPU dispatch restricted (OpenBLAS's SSE3 kernels, NumPy
without its AVX2/AVX-512 loops) stands in for another host. Its sentence-similarity score differs in the last bits
from this host's, so an exact pin fails somewhere, and agrees within tests._float_scores.SCORE_TOLERANCE."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from tests._float_scores import SCORE_TOLERANCE

REPO = Path(__file__).resolve().parent.parent
RESTRICTED = {"OPENBLAS_CORETYPE": "Prescott", "NPY_DISABLE_CPU_FEATURES": "X86_V3,X86_V4,AVX512_ICL,AVX512_SPR"}
"""Prescott: OpenBLAS's SSE3 kernels, which every x86-64 CPU runs (a newer CPU's kernel would fault on an older one).
The NumPy names are its dispatch targets above the X86_V2 baseline (numpy.show_runtime() lists what this CPU has)."""

PLAY_AND_SCORE = """
import asyncio, sys
from pathlib import Path
from evaluators.harness.run import RunConfig, run_benchmark
from evaluators.results.scoring import score_run
out = Path(sys.argv[1])
asyncio.run(run_benchmark(RunConfig(benchmark="shopping-mmlu", model="random", out=out, cache=False, limit=2)))
print(repr(score_run(out).to_json()["overall"]))
"""


def _score(tmp_path: Path, name: str, extra: dict[str, str]) -> float:
    """Shopping MMLU's random baseline played and scored in a fresh process with an empty embedding cache (a cached
    vector would hide how this process computes it)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1",
           "SHOPBENCH_HOME": str(tmp_path / name / "home"), **extra}
    done = subprocess.run([sys.executable, "-c", PLAY_AND_SCORE, str(tmp_path / name / "run")], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS's x86 kernel names")
def test_scores_agree_within_the_tolerance_when_the_cpu_dispatch_is_restricted(tmp_path):
    native = _score(tmp_path, "native", {})
    restricted = _score(tmp_path, "restricted", RESTRICTED)
    assert restricted != native, "the restricted dispatch computed the same bits: it no longer stands in for a host"
    assert restricted == pytest.approx(native, abs=SCORE_TOLERANCE)
