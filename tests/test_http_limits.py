"""No local process can take `shopbench serve --transport http` down (issue 18): sessions past the cap are refused
while a client already in keeps playing, a session holds one open trajectory at most, idle sessions are closed,
slow and surplus connections are closed, huge bodies are refused before they are read, the open-file limit is
raised, and the IPv6 loopback binds. Real server processes, the official client, httpx and raw sockets."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from mcp_server.episode_client import EpisodeClient
from mcp_server.http_launch import ServerDidNotStart, free_port, wait_until_listening
from mcp_server.http_limits import DRAIN_S, HttpLimits
from mcp_server.trajectory import episode_path, read_trajectory

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "limits-test", "version": "1"}}}
CAPPED_SESSIONS = 3
OPEN_FILES = 450
"""The capped server's open-file limit (soft and hard): enough for its caps, too few for a session per attempt."""
REQUEST_TIMEOUT_S = 1.0
MiB = 1 << 20


class Server:
    """A `shopbench serve --transport http` process and where it listens."""

    def __init__(self, runs: Path, *options: str, host: str = "127.0.0.1",
                 open_files: tuple[int, int] | None = None) -> None:
        self.host, self.port, self.runs = host, free_port(host.strip("[]")), runs
        self.stderr = runs.parent / f"{runs.name}-stderr.txt"

        def lower_open_file_limit() -> None:  # (soft, hard), as `ulimit -Sn` / `ulimit -Hn` would
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, open_files)

        with self.stderr.open("wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--host", host,
                 "--port", str(self.port), "--runs", str(runs), *options],
                stdout=subprocess.DEVNULL, stderr=stderr, preexec_fn=lower_open_file_limit)
        try:
            wait_until_listening(self.process, self.port, host=host.strip("[]"))
        except ServerDidNotStart as error:
            self.stop()
            pytest.fail(f"{error}: {self.stderr.read_text(errors='replace')}")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/mcp"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)

    def open_trajectories(self) -> set[str]:
        """The episode ids whose trajectory files the server holds open."""
        held = set()
        for fd in Path(f"/proc/{self.process.pid}/fd").iterdir():
            try:
                target = Path(os.readlink(fd))
            except OSError:  # closed meanwhile
                continue
            if target.suffix == ".jsonl" and target.parent == self.runs / "episodes":
                held.add(target.stem)
        return held

    def memory_mib(self) -> tuple[int, int]:
        """(VmRSS, VmHWM): the server's resident memory now and at its peak since reset_peak_memory."""
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines())
        return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024

    def reset_peak_memory(self) -> None:
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")  # VmHWM := VmRSS (Linux ≥ 4.0)


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = Server(tmp_path_factory.mktemp("capped") / "runs", "--max-sessions", str(CAPPED_SESSIONS),
                    "--request-timeout", str(REQUEST_TIMEOUT_S), open_files=(OPEN_FILES, OPEN_FILES))
    yield server
    server.stop()


async def open_session(raw: httpx.AsyncClient, url: str) -> httpx.Response:
    return await raw.post(url, json=INITIALIZE, headers=HEADERS)


def session_headers(opened: httpx.Response) -> dict[str, str]:
    return HEADERS | {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}


async def call_tool(raw: httpx.AsyncClient, url: str, session: dict[str, str], name: str,
                    arguments: dict[str, Any]) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
    reply = await raw.post(url, json=body, headers=session)
    assert reply.status_code == 200, reply.text
    return reply.json()["result"]


async def test_sessions_past_the_cap_are_refused_while_a_client_keeps_playing(capped: Server) -> None:
    """More sessions asked of the server than it may open files (each used to keep a trajectory open until the
    server failed), while one client plays."""
    attempts = OPEN_FILES + 20
    async with Client(capped.url, read_timeout_seconds=60) as player, httpx.AsyncClient(timeout=30) as raw:
        episode = EpisodeClient(player)
        tasks = [task["task_id"] for task in await episode.list_tasks()]
        await episode.start(tasks[0], episode_id="player-1")
        opened, refused = [], []
        for number in range(attempts):
            if number % 50 == 0:
                assert not (await episode.call("calculate", {"expression": f"{number} + 1"})).is_error
            reply = await open_session(raw, capped.url)
            if reply.status_code != 200:
                refused.append(reply)
                continue
            session = session_headers(reply)
            opened.append(session)
            for attempt in range(3):  # each start_task abandons the session's previous episode
                started = await call_tool(raw, capped.url, session, "start_task",
                                          {"task_id": tasks[1], "episode_id": f"flood-{number}-{attempt}"})
                assert not started.get("isError"), started
        assert len(opened) == CAPPED_SESSIONS - 1 and len(refused) == attempts - len(opened)
        for reply in refused:
            assert reply.status_code == 503 and reply.json()["error"]["message"] == "Too many open sessions"
        assert capped.open_trajectories() == {"player-1", "flood-0-2", "flood-1-2"}
        hits = await episode.call("find_product", {"q": "shirt", "page": 1})
        assert not hits.is_error and hits.observation
        assert (await episode.call("terminate", {"status": "failure"})).ended
        for session in opened:
            assert (await raw.delete(capped.url, headers=session)).status_code == 200
        assert (await open_session(raw, capped.url)).status_code == 200  # room again
    assert capped.process.poll() is None
    player_run = read_trajectory(episode_path(capped.runs, "player-1"))
    played = ["calculate"] * len(range(0, attempts, 50)) + ["find_product", "terminate"]
    assert [step.tool for step in player_run.steps] == played and player_run.end.status == "terminated"
    assert read_trajectory(episode_path(capped.runs, "flood-0-0")).end.status == "abandoned"


def test_slow_and_surplus_connections_are_closed(capped: Server) -> None:
    surplus = 4
    cap = HttpLimits(max_sessions=CAPPED_SESSIONS).max_connections
    idle = [socket.create_connection(("127.0.0.1", capped.port)) for _ in range(cap + surplus)]
    began = time.monotonic()
    answers = []
    for connection in idle:
        connection.settimeout(REQUEST_TIMEOUT_S + 5)
        answers.append(connection.recv(4096))  # a 503 at once past the cap, else b"" once the head is overdue
        connection.close()
    assert time.monotonic() - began < REQUEST_TIMEOUT_S + 3
    refusals = [answer for answer in answers if answer]
    assert len(refusals) >= surplus and len(answers) - len(refusals) >= cap - 2
    assert all(answer.startswith(b"HTTP/1.1 503") and b"too many open connections" in answer for answer in refusals)

    trickle = socket.create_connection(("127.0.0.1", capped.port))  # a head sent a header every 0.2 s
    trickle.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    began = time.monotonic()
    with pytest.raises(OSError):
        while time.monotonic() - began < REQUEST_TIMEOUT_S + 5:
            trickle.sendall(b"X-Slow: 1\r\n")
            time.sleep(0.2)
    assert time.monotonic() - began < REQUEST_TIMEOUT_S + 3

    slow_body = socket.create_connection(("127.0.0.1", capped.port))
    slow_body.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{capped.port}\r\nContent-Type: application/json\r\n"
                      "Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{".encode())
    slow_body.settimeout(REQUEST_TIMEOUT_S + 5)
    assert slow_body.recv(4096).startswith(b"HTTP/1.1 408")
    answered = time.monotonic()
    with pytest.raises(OSError):  # the rest of an answered body is read for a moment only, however it trickles
        while time.monotonic() - answered < DRAIN_S + 5:
            slow_body.sendall(b" ")
            time.sleep(0.2)
    assert time.monotonic() - answered < DRAIN_S + 3
    slow_body.close()

    async def still_serves() -> None:
        async with Client(capped.url) as client:
            assert "find_product" in {tool.name for tool in (await client.list_tools()).tools}

    anyio.run(still_serves)


def megabytes(count: int) -> Iterator[bytes]:
    block = b" " * MiB
    for _ in range(count):
        yield block


@pytest.mark.parametrize(("what", "path", "headers", "size_mib", "declared", "status"), [
    ("cross-origin text/plain", "/mcp", {"content-type": "text/plain", "origin": "http://evil.example"}, 300, True,
     400),
    ("cross-origin JSON, chunked", "/mcp", {"content-type": "application/json", "origin": "http://evil.example"}, 300,
     False, 403),
    ("JSON, declared", "/mcp", {"content-type": "application/json"}, 300, True, 413),
    ("JSON, chunked", "/mcp", {"content-type": "application/json"}, 400, False, 413),
    ("JSON, chunked, another path", "/elsewhere", {"content-type": "application/json"}, 300, False, 413),
])
def test_a_huge_body_is_refused_before_it_is_read(capped: Server, what: str, path: str, headers: dict[str, str],
                                                   size_mib: int, declared: bool, status: int) -> None:
    capped.reset_peak_memory()
    before = capped.memory_mib()
    sent = headers | {"accept": "application/json, text/event-stream"}
    if declared:
        sent["content-length"] = str(size_mib * MiB)
    began = time.monotonic()
    reply = httpx.post(f"http://127.0.0.1:{capped.port}{path}", content=megabytes(size_mib), headers=sent, timeout=60)
    after = capped.memory_mib()
    assert after[1] - before[1] <= 50, f"{what}: the server grew from {before} to {after} MiB (VmRSS, VmHWM)"
    assert reply.status_code == status, (what, reply.text)
    assert time.monotonic() - began < 10


# ---- a server on the IPv6 loopback, one session, idle after a second ------------------------------------------------


@pytest.fixture(scope="module")
def one_session_v6(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    server = Server(tmp_path_factory.mktemp("v6") / "runs", "--max-sessions", "1", "--session-idle-timeout", "1",
                    host="[::1]", open_files=(256, hard))
    yield server
    server.stop()


async def test_an_idle_session_is_closed_and_its_episode_abandoned(one_session_v6: Server) -> None:
    url = one_session_v6.url
    async with httpx.AsyncClient(timeout=30) as raw:
        session = session_headers(await open_session(raw, url))
        tasks = (await call_tool(raw, url, session, "list_tasks", {"limit": 1}))["structuredContent"]["tasks"]
        await call_tool(raw, url, session, "start_task", {"task_id": tasks[0]["task_id"], "episode_id": "idle-1"})
        assert (await open_session(raw, url)).status_code == 503
        deadline = time.monotonic() + 15
        while (reply := await open_session(raw, url)).status_code != 200:
            assert time.monotonic() < deadline, "the idle session was never closed"
            await anyio.sleep(0.2)
        assert (await raw.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"},
                               headers=session)).status_code == 404
        assert (await raw.delete(url, headers=session_headers(reply))).status_code == 200
    end = read_trajectory(episode_path(one_session_v6.runs, "idle-1")).end
    assert end.status == "abandoned"


async def test_serve_binds_a_bracketed_ipv6_loopback_and_raises_its_open_file_limit(one_session_v6: Server) -> None:
    assert f"serving http://[::1]:{one_session_v6.port}/mcp" in one_session_v6.stderr.read_text()
    limits = Path(f"/proc/{one_session_v6.process.pid}/limits").read_text()
    soft, hard = next(line for line in limits.splitlines() if line.startswith("Max open files")).split()[3:5]
    assert soft == hard  # started with a soft limit of 256
    async with Client(one_session_v6.url) as client:
        episode = EpisodeClient(client)
        await episode.start((await episode.list_tasks())[0]["task_id"])
        assert not (await episode.call("calculate", {"expression": "6 * 7"})).is_error


def test_serve_refuses_more_sessions_than_its_open_files_allow(tmp_path: Path) -> None:
    def limit_open_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    done = subprocess.run([sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--max-sessions",
                           "5000", "--runs", str(tmp_path / "runs")], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit_open_files)
    assert done.returncode == 2
    assert "--max-sessions 5000 needs about" in done.stderr and "may open 1024" in done.stderr
