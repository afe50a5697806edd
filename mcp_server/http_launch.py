"""Starting a `shopbench serve --transport http` process from another program: pick a free loopback port, then wait
until the server accepts connections. Tests, perf scripts and recipes share this one wait instead of each polling a
socket its own way (and each forgetting a different case: a server that died, or one that never listens)."""

from __future__ import annotations

import socket
import subprocess
import time

from mcp_server.loopback import loopback_socket


class ServerDidNotStart(RuntimeError):
    """The server process exited, or did not listen within the time allowed."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on right now (the OS picks it), on an IPv4 or IPv6 address."""
    with loopback_socket(host) as probe:
        return int(probe.getsockname()[1])


def wait_until_listening(process: subprocess.Popen, port: int, *, host: str = "127.0.0.1",
                         timeout_s: float = 300.0) -> None:
    """Return once `host:port` accepts a connection; raise ServerDidNotStart if `process` exits first or the time
    runs out (the first start of a world builds its index, hence the long default)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            code = process.poll()
            if code is not None:
                raise ServerDidNotStart(f"the server exited with code {code} before listening on {host}:{port}") \
                    from None
            if time.monotonic() > deadline:
                raise ServerDidNotStart(f"the server did not listen on {host}:{port} within {timeout_s:g} s") from None
            time.sleep(0.2)
