"""How soon `shopbench serve --transport stdio` answers `initialize`, beside a minimal MCPServer with one trivial
tool started the same way (the same Python, `python -m MODULE`, the same working folder and environment).

Each round starts both, in alternating order, and times from the spawn to the `initialize` reply (the client sends
it at once, as Claude Code and Codex do), then for shopbench also `tools/list`, `list_tasks`, and the first
`find_product` after `start_task` (which waits until the world's sandbox — the JVM, Lucene — has opened in the
background). Medians over the rounds; the difference of the paired `initialize` times is the figure the target is
on (at most 0.3 s more than the minimal server).

Run: .venv/bin/python perf/bench_stdio_init.py [--rounds 15]
The default world is built first if missing (outside the timings).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

MINIMAL_SERVER = '''
from mcp.server.mcpserver import MCPServer

server = MCPServer("minimal")


@server.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"


if __name__ == "__main__":
    server.run()
'''
INITIALIZE = {"protocolVersion": "2025-06-18", "capabilities": {},
              "clientInfo": {"name": "bench-stdio-init", "version": "1"}}


class Session:
    """One server process spoken to in raw JSON-RPC lines, timed from its spawn."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.began = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, *args], cwd=cwd, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        """Send one request; (seconds since the spawn when its reply came, the reply)."""
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed stdout before answering {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply or reply["result"].get("isError"):
                    raise RuntimeError(f"{method}: {reply}")
                return time.perf_counter() - self.began, reply["result"]

    def handshake(self) -> float:
        answered, _ = self.request("initialize", INITIALIZE)
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answered

    def _send(self, message: dict[str, Any]) -> None:
        stdin: IO[bytes] | None = self.process.stdin
        assert stdin is not None
        stdin.write((json.dumps(message) + "\n").encode())
        stdin.flush()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def shopbench_round(cwd: Path, env: dict[str, str], runs: Path) -> dict[str, float]:
    session = Session(["-m", "shopbench.cli", "serve", "--transport", "stdio", "--runs", str(runs)], cwd, env)
    try:
        times = {"initialize": session.handshake()}
        times["tools/list"], _ = session.request("tools/list", {})
        times["list_tasks"], listed = session.request("tools/call", {"name": "list_tasks", "arguments": {}})
        task_id = listed["structuredContent"]["tasks"][0]["task_id"]
        session.request("tools/call", {"name": "start_task", "arguments": {"task_id": task_id}})
        times["first find_product"], _ = session.request(
            "tools/call", {"name": "find_product", "arguments": {"q": "cotton shirt", "page": 1}})
        return times
    finally:
        session.close()


def minimal_round(cwd: Path, env: dict[str, str]) -> dict[str, float]:
    session = Session(["-m", "minimal_mcp_server"], cwd, env)
    try:
        times = {"initialize": session.handshake()}
        times["tools/list"], _ = session.request("tools/list", {})
        return times
    finally:
        session.close()


def main(rounds: int) -> None:
    from mcp_server.shopping.world_build import default_world

    default_world()
    folder = Path(tempfile.mkdtemp(prefix="bench-stdio-init-"))
    (folder / "minimal_mcp_server.py").write_text(MINIMAL_SERVER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))}
    shopbench_round(folder, env, folder / "runs-warm")  # warm the page cache for both before timing
    minimal_round(folder, env)
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for number in range(rounds):
        if number % 2:
            theirs.append(minimal_round(folder, env))
            ours.append(shopbench_round(folder, env, folder / f"runs-{number}"))
        else:
            ours.append(shopbench_round(folder, env, folder / f"runs-{number}"))
            theirs.append(minimal_round(folder, env))

    def median(samples: list[dict[str, float]], key: str) -> float:
        return statistics.median(sample[key] for sample in samples)

    load = os.getloadavg()[0]
    print(f"stdio start-up, seconds from spawn to each reply: median of {rounds} alternating rounds, "
          f"{os.cpu_count()} cores, load average {load:.1f} at the end")
    print(f"{'':<34}{'minimal MCPServer':>18}{'shopbench serve':>18}")
    for key in ("initialize", "tools/list"):
        print(f"{key:<34}{median(theirs, key):>18.3f}{median(ours, key):>18.3f}")
    for key in ("list_tasks", "first find_product"):
        print(f"{key:<34}{'':>18}{median(ours, key):>18.3f}")
    paired = [mine["initialize"] - other["initialize"] for mine, other in zip(ours, theirs, strict=True)]
    print(f"initialize, shopbench minus minimal (median of pairs): {statistics.median(paired):+.3f} s "
          f"(range {min(paired):+.3f} to {max(paired):+.3f}; target: at most +0.300)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    main(parser.parse_args().rounds)
