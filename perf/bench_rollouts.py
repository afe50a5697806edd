"""One `shopbench serve --transport http`, many rollouts: 256 concurrent ShoppingBench episodes from separate client
processes (8 processes x 32 sessions by default, the official MCP client), as an RL trainer's rollout workers hold.

Prints: the server's resident memory per idle session (each holding a started episode, its trajectory file open);
p50/p99 latency per tool call and calls/s while every episode plays its calls at once (find_product,
view_product_information, calculate in turn); then every client process is SIGKILLed, leaving its sessions open, and
the script times how long the server takes to reap them (each reaped session's episode ends `abandoned`, its file
closed) and checks that a new client is served afterwards. Then again (--waves): the server's memory after each wave
shows whether reaped sessions leave anything behind. The clients share the machine's cores with the server, so
on a small machine calls/s measures the clients as much as the server: the load average is printed with it.

`--servers N` (N > 1) runs N server processes sharing one run folder behind HAProxy (`haproxy` on PATH; Debian's
package), configured as docs/RECIPES.md shows: new sessions to the server with the fewest connections, then every
request of a session to the server that made it, learned from the Mcp-Session-Id of its reply. It prints how the
sessions spread; the figures are then the servers' sums.

Run: .venv/bin/python perf/bench_rollouts.py [--processes 8] [--sessions 32] [--calls 9] [--idle-timeout 15]
     [--waves 2] [--servers 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from mcp_server.http_launch import free_port, wait_until_listening  # noqa: E402 - after the path set-up above
from mcp_server.trajectory import read_trajectory  # noqa: E402
from tests._rollouts import RolloutWorkers  # noqa: E402

HAPROXY_CONFIG = """\
global
    maxconn 8192
defaults
    mode http
    timeout connect 5s
    timeout client 10m
    timeout server 10m
    option abortonclose
frontend mcp
    bind 127.0.0.1:{port}
    default_backend shopbench
backend shopbench
    balance leastconn
    stick-table type string len 64 size 100k expire 30m
    stick on req.hdr(mcp-session-id)
    stick store-response res.hdr(mcp-session-id)
{servers}
"""


class Servers:
    """`shopbench serve --transport http` processes sharing one run folder, behind HAProxy when more than one."""

    def __init__(self, count: int, folder: Path, *options: str) -> None:
        self.runs = folder / "runs"
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes]] = []
        for port in self.ports:
            with (folder / f"server-{port}-stderr.txt").open("wb") as stderr:
                self.processes.append(subprocess.Popen(
                    [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--port", str(port),
                     "--runs", str(self.runs), *options], stdout=subprocess.DEVNULL, stderr=stderr))
        self.proxy: subprocess.Popen[bytes] | None = None
        port = self.ports[0]
        if count > 1:
            port = free_port()
            config = folder / "haproxy.cfg"
            config.write_text(HAPROXY_CONFIG.format(port=port, servers="\n".join(
                f"    server s{number} 127.0.0.1:{server}" for number, server in enumerate(self.ports))))
            self.proxy = subprocess.Popen(["haproxy", "-f", str(config)], stdout=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}/mcp"
        for process, server_port in zip(self.processes, self.ports, strict=True):
            wait_until_listening(process, server_port)
        if self.proxy is not None:
            wait_until_listening(self.proxy, port)

    def resident_mib(self) -> float:
        total = 0
        for process in self.processes:
            fields = dict(line.split(":", 1) for line in Path(f"/proc/{process.pid}/status").read_text().splitlines())
            total += int(fields["VmRSS"].split()[0])
        return total / 1024

    def cpu_s(self) -> float:
        """CPU time so far (user + system, all threads: Python, the JVM), summed over the servers."""
        total = 0
        for process in self.processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def open_episodes(self) -> list[int]:
        """Per server, the trajectory files it holds open: one per session with a running episode."""
        counts = []
        for process in self.processes:
            held = 0
            for fd in Path(f"/proc/{process.pid}/fd").iterdir():
                try:
                    target = Path(os.readlink(fd))
                except OSError:
                    continue
                held += target.suffix == ".jsonl" and target.parent == self.runs / "episodes"
            counts.append(held)
        return counts

    def stop(self) -> None:
        for process in [*([self.proxy] if self.proxy else []), *self.processes]:
            process.send_signal(signal.SIGINT)
        for process in [*([self.proxy] if self.proxy else []), *self.processes]:
            process.wait(timeout=60)


async def one_episode(url: str, episode_id: str) -> None:
    """A client that starts an episode and searches once (warms the server; checks that it serves)."""
    from mcp import Client

    async with Client(url, read_timeout_seconds=300) as client:
        listed = await client.call_tool("list_tasks", {"limit": 1})
        await client.call_tool("start_task", {"task_id": listed.structured_content["tasks"][0]["task_id"],
                                              "episode_id": episode_id})
        found = await client.call_tool("find_product", {"q": "shirt", "page": 1})
        assert not found.is_error, found.content
        await client.call_tool("terminate", {"status": "failure"})


def wave(number: int, servers: Servers, processes: int, sessions: int, calls: int, idle_timeout: float) -> None:
    """Open the sessions, measure them idle, play every episode at once, kill the clients, time the reaping."""
    before = servers.resident_mib()
    began = time.perf_counter()
    workers = RolloutWorkers(servers.url, processes=processes, sessions=sessions, calls=calls, prefix=f"wave{number}-")
    opened = workers.ready()
    opening_s = time.perf_counter() - began
    time.sleep(1)
    idle = servers.resident_mib()
    held = servers.open_episodes()

    began, server_cpu = time.perf_counter(), servers.cpu_s()
    latencies, errors = workers.play()
    playing_s = time.perf_counter() - began
    server_cpu = servers.cpu_s() - server_cpu
    load = os.getloadavg()[0]

    workers.kill()
    killed = time.perf_counter()
    while (left := sum(servers.open_episodes())) and time.perf_counter() - killed < idle_timeout + 120:
        time.sleep(0.25)
    reaped_s = time.perf_counter() - killed
    ends = [read_trajectory(path).end for path in (servers.runs / "episodes").glob(f"wave{number}-*.jsonl")]
    abandoned = sum(end is not None and end.status == "abandoned" for end in ends)
    anyio.run(one_episode, servers.url, f"after-wave-{number}")
    after = servers.resident_mib()

    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000
    spread = f" ({' + '.join(map(str, held))} on the servers)" if len(held) > 1 else ""
    print(f"wave {number}: {opened} sessions opened and episodes started in {opening_s:.1f} s; trajectories held "
          f"open: {sum(held)}{spread}")
    print(f"  server RSS {before:.0f} MiB before, {idle:.0f} MiB with the sessions idle: "
          f"{(idle - before) * 1024 / max(opened, 1):.0f} KiB per session; {after:.0f} MiB after reaping")
    print(f"  {len(latencies)} tool calls ({calls} per episode, all episodes at once) in {playing_s:.1f} s: "
          f"{len(latencies) / playing_s:.0f} calls/s, p50 {p50:.0f} ms, p99 {p99:.0f} ms per call, "
          f"{len(errors)} errors; server CPU {server_cpu * 1000 / max(len(latencies), 1):.1f} ms per call "
          f"({server_cpu / playing_s:.2f} cores); load average {load:.1f}")
    print(f"  clients SIGKILLed: {opened - left} of {opened} sessions reaped in {reaped_s:.1f} s (idle timeout "
          f"{idle_timeout:g} s), {abandoned} episodes ended abandoned; a new client was served after")
    for error in errors[:5]:
        print(f"  error: {error}")


def main(processes: int, sessions: int, calls: int, idle_timeout: float, waves: int, count: int) -> None:
    from mcp_server.shopping.world_build import default_world

    if count > 1 and shutil.which("haproxy") is None:
        sys.exit("--servers needs haproxy on PATH (Debian: apt-get install haproxy)")
    default_world()
    servers = Servers(count, Path(tempfile.mkdtemp(prefix="bench-rollouts-")), "--max-sessions",
                      str(processes * sessions + 1), "--session-idle-timeout", str(idle_timeout))
    where = "one `shopbench serve --transport http`" if count == 1 else f"{count} servers behind HAProxy"
    print(f"{processes * sessions} concurrent HTTP episodes on {where}: {processes} client processes x {sessions} "
          f"sessions (official MCP client); {os.cpu_count()} cores shared by the clients and the servers")
    try:
        anyio.run(one_episode, servers.url, "warm-up")
        for number in range(1, waves + 1):
            wave(number, servers, processes, sessions, calls, idle_timeout)
    finally:
        servers.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--sessions", type=int, default=32, help="Sessions per client process.")
    parser.add_argument("--calls", type=int, default=9, help="Tool calls per episode, all episodes at once.")
    parser.add_argument("--idle-timeout", type=float, default=15.0, help="The server's --session-idle-timeout.")
    parser.add_argument("--waves", type=int, default=2, help="Rounds of sessions (memory after each: a leak grows).")
    parser.add_argument("--servers", type=int, default=1, help="Server processes (more than 1: behind HAProxy).")
    options = parser.parse_args()
    main(options.processes, options.sessions, options.calls, options.idle_timeout, options.waves, options.servers)
