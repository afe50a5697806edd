"""What an agent that writes without end costs the harness: shopbench's peak memory and the transcript's size.

Run: .venv/bin/python perf/bench_agent_output.py [--mib 200] [--repo PATH]
One episode is played twice by a `command:` agent (tests/_mcp_agent.py, `--model heuristic`): once quietly, once
after writing MIB MiB of JSON lines to stdout. Each `shopbench run` is its own process; its peak resident memory
(VmHWM) and the size of the episode's stdout transcript are printed side by side. `--repo` runs another checkout's
shopbench (e.g. one from before the transcript cap) with the same agent.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from mcp_server.shopping.world_build import default_world  # noqa: E402 - after the path set-up above

AGENT = REPO / "tests" / "_mcp_agent.py"


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MiB; 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
    return kib / 1024


def play(repo: Path, world: Path, out: Path, flood_bytes: int) -> tuple[float, int, float]:
    """Peak memory (MiB) of one `shopbench run`, its stdout transcript's size, and its wall time."""
    agent = f"command:{sys.executable} {AGENT} {{mcp_url}} {{prompt_file}} --flood {flood_bytes}"
    argv = [sys.executable, "-m", "shopbench.cli", "run", "shoppingbench", "--agent", agent, "--model", "heuristic",
            "--task-id", "product-0000", "--world", str(world), "--out", str(out), "--no-cache", "--timeout", "600"]
    began = time.perf_counter()
    process = subprocess.Popen(argv, cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, peak_rss_mib(process.pid))
        time.sleep(0.02)
    wall = time.perf_counter() - began
    if process.returncode != 0:
        said = process.stderr.read() if process.stderr else ""
        raise SystemExit(f"shopbench run failed ({process.returncode}): {said}")
    transcripts = list(out.glob("episodes/*.agent/stdout.jsonl"))
    return peak, sum(path.stat().st_size for path in transcripts), wall


def main(mib: int, repo: Path) -> None:
    world = default_world().root
    scratch = Path(tempfile.mkdtemp(prefix="bench-agent-output-"))
    quiet = play(repo, world, scratch / "quiet", 0)
    noisy = play(repo, world, scratch / "noisy", mib * 1024 * 1024)
    print(f"shopbench at {repo}, one episode by a command: agent, --model heuristic")
    print(f"{'agent':<26}{'peak memory':>12}{'transcript':>14}{'run wall':>10}")
    for name, (peak, size, wall) in (("quiet", quiet), (f"{mib} MiB to stdout", noisy)):
        print(f"{name:<26}{peak:>9.0f} MiB{size / 1024 / 1024:>10.1f} MiB{wall:>9.1f}s")
    print(f"peak memory over the quiet agent's: {noisy[0] - quiet[0]:+.0f} MiB")
    print(f"machine load (1/5/15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}, cpus: {os.cpu_count()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=200, help="MiB the noisy agent writes to stdout")
    parser.add_argument("--repo", type=Path, default=REPO, help="the shopbench checkout to run")
    args = parser.parse_args()
    main(args.mib, args.repo.resolve())
