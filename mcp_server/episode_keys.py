"""The credential a reserved episode's address (/e/<token>/mcp) asks for: the address names the episode, the key
proves the caller is the agent it was made for.

Any local user can connect to a loopback port, and an address can leak (a log line, a command line), so the address
alone opens nothing: every request to it must carry `Authorization: Bearer <episode_key(token)>`, which the harness
hands only to that episode's agent (in its private config file or its environment). The key is an HMAC of the token
under a secret of this process, so nothing is stored per episode and no other process can work one out. A request
without it is refused (401) and logged as a warning (the run's log); it never reaches the episode.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import secrets
from pathlib import Path
from typing import Any

log = logging.getLogger("shopbench.security")

_SECRET = secrets.token_bytes(32)


def episode_key(token: str) -> str:
    """The bearer credential of the episode reserved under `token`."""
    digest = hmac.new(_SECRET, token.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def carries_episode_key(scope: dict[str, Any], token: str) -> bool:
    """Whether an HTTP request (ASGI scope) carries the key of the episode reserved under `token`; logs it when not."""
    supplied = dict(scope.get("headers") or []).get(b"authorization", b"")
    scheme, _, credentials = supplied.strip().partition(b" ")
    if scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(), episode_key(token).encode()):
        return True
    client = scope.get("client") or ("?", 0)
    log.warning("refused a request to a reserved episode's address from %s: %s", peer(client[0], client[1]),
                "wrong credential" if supplied else "no credential")
    return False


def peer(host: str | None, port: int | None) -> str:
    """A loopback TCP client as a log line names it: its address and, on Linux, the user whose socket it is (read
    from /proc/net/tcp, where the client's end is the local address)."""
    where = f"{host}:{port}"
    if host != "127.0.0.1" or not port:
        return where
    wanted = f"0100007F:{port:04X}"
    with contextlib.suppress(OSError, IndexError):
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[1] == wanted and fields[3] == "01":  # ESTABLISHED (a closed socket's TIME_WAIT shows uid 0)
                return f"{where} (uid {fields[7]})"
    return where
