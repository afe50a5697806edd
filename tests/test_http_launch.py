"""The shared wait for a `shopbench serve --transport http` process: it returns once the port listens and says why
when the server dies or never listens, instead of polling forever."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from mcp_server.http_launch import ServerDidNotStart, free_port, wait_until_listening


def test_returns_once_the_port_listens() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            wait_until_listening(process, listener.getsockname()[1], timeout_s=5)
        finally:
            process.kill()
            process.wait()


def test_a_server_that_exits_is_reported_with_its_code() -> None:
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    with pytest.raises(ServerDidNotStart, match="exited with code 3"):
        wait_until_listening(process, free_port(), timeout_s=30)


def test_a_server_that_never_listens_times_out() -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        with pytest.raises(ServerDidNotStart, match="did not listen .* within 0.5 s"):
            wait_until_listening(process, free_port(), timeout_s=0.5)
    finally:
        process.kill()
        process.wait()
