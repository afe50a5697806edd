"""Protocol garbage sent to `shopbench serve` (stdio and streamable HTTP) gets a JSON-RPC error reply within seconds —
-32700 for bytes that are not JSON, -32600 for JSON that is not one request object — with a line on stderr, no
pydantic wording, and the server still answers a proper client afterwards."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import anyio
import httpx
import pytest
from mcp import Client

from mcp_server.http_launch import ServerDidNotStart, free_port, wait_until_listening

REPLY_WITHIN_S = 5.0
# kind -> (raw message, expected JSON-RPC error code, expected id)
GARBAGE: dict[str, tuple[bytes, int, int | None]] = {
    "invalid_json": (b'{"jsonrpc": "2.0", "id": 1, "method": ', -32700, None),
    "lone_surrogate_escape": (b'{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"q":"\\ud800"}}', -32700, None),
    "nested_5000_deep": (b"[" * 5000 + b"]" * 5000, -32700, None),
    "nested_objects_5000_deep": (b'{"a":' * 5000 + b"1" + b"}" * 5000, -32700, None),
    "batch": (b'[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]', -32600, None),
    "empty_batch": (b"[]", -32600, None),
    "bare_number": (b"42", -32600, None),
    "bad_method_type": (b'{"jsonrpc":"2.0","id":11,"method":5}', -32600, 11),
    "wrong_version": (b'{"jsonrpc":"1.0","id":"abc","method":"ping"}', -32600, "abc"),
}
INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "garbage-test", "version": "1"}}}
LEAKS = ("pydantic", "Traceback", "validation error for", 'File "')


def assert_error(reply: dict[str, Any], kind: str) -> None:
    _, code, request_id = GARBAGE[kind]
    assert reply.get("jsonrpc") == "2.0", (kind, reply)
    assert reply["error"]["code"] == code, (kind, reply)
    assert reply["id"] == request_id, (kind, reply)
    assert reply["error"]["message"] and not any(leak in reply["error"]["message"] for leak in LEAKS), (kind, reply)


def read_line(stream: IO[bytes], timeout: float) -> bytes | None:
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else None


def test_stdio_garbage_gets_error_replies_and_the_server_keeps_serving(default_world, tmp_path: Path) -> None:
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "shopbench.cli", "serve", "--runs", str(tmp_path / "runs")],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=dict(os.environ))
    assert process.stdin and process.stdout
    try:
        def send(raw: bytes) -> None:
            assert process.stdin
            process.stdin.write(raw + b"\n")
            process.stdin.flush()

        send(json.dumps(INITIALIZE).encode())
        first = read_line(process.stdout, 300)
        assert first and json.loads(first)["id"] == 0, first
        send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for kind, (raw, _, _) in GARBAGE.items():
            started = time.monotonic()
            send(raw)
            line = read_line(process.stdout, REPLY_WITHIN_S)
            assert line is not None, f"{kind}: no reply within {REPLY_WITHIN_S} s"
            assert_error(json.loads(line), kind)
            assert time.monotonic() - started < REPLY_WITHIN_S
        send(b'{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{}}')
        line = read_line(process.stdout, 60)
        assert line is not None
        tools = json.loads(line)
        assert tools["id"] == 99 and any(tool["name"] == "find_product" for tool in tools["result"]["tools"])
        assert process.poll() is None
    finally:
        process.kill()
        process.wait(timeout=30)
    logged = stderr_path.read_text(errors="replace")
    assert logged.count("answered an unreadable message") == len(GARBAGE), logged
    assert "Traceback" not in logged


async def test_http_garbage_gets_error_replies_and_a_client_still_works(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    stderr_path = tmp_path / "stderr.txt"
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "shopbench.cli", "serve", "--transport", "http", "--port", str(port),
             "--runs", str(tmp_path / "runs")], stdout=subprocess.DEVNULL, stderr=stderr, env=dict(os.environ))
    try:
        try:
            await anyio.to_thread.run_sync(wait_until_listening, process, port)
        except ServerDidNotStart as error:
            pytest.fail(f"{error}: {stderr_path.read_text(errors='replace')}")
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        async with httpx.AsyncClient(timeout=REPLY_WITHIN_S) as raw:
            # before any session, then inside an initialized one
            for kind, (body, _, _) in GARBAGE.items():
                response = await raw.post(url, content=body, headers=headers)
                assert response.status_code == 400, (kind, response.text)
                assert_error(response.json(), kind)
            init = await raw.post(url, json=INITIALIZE, headers=headers, timeout=60)
            assert init.status_code == 200, init.text
            session = headers | {"mcp-session-id": init.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
            await raw.post(url, content=b'{"jsonrpc":"2.0","method":"notifications/initialized"}', headers=session)
            for kind, (body, _, _) in GARBAGE.items():
                response = await raw.post(url, content=body, headers=session)
                assert response.status_code == 400, (kind, response.text)
                assert_error(response.json(), kind)
            ping = await raw.post(url, content=b'{"jsonrpc":"2.0","id":5,"method":"ping"}', headers=session)
            assert ping.status_code == 200 and ping.json() == {"jsonrpc": "2.0", "id": 5, "result": {}}
        async with Client(url) as client:
            assert "find_product" in {tool.name for tool in (await client.list_tools()).tools}
        assert process.poll() is None
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)
    logged = stderr_path.read_text(errors="replace")
    assert logged.count("answered an unreadable message") == 2 * len(GARBAGE), logged
