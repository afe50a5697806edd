"""A slow stand-in for the live search provider (google.serper.dev), for the stall test and perf/bench_load.py:
it answers every POST after `delay` seconds with one organic result echoing the query."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler
from typing import Any


class SlowSerper(BaseHTTPRequestHandler):
    delay = 2.0

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook
        length = int(self.headers.get("Content-Length", 0))
        query = json.loads(self.rfile.read(length))["q"]
        time.sleep(self.delay)
        body = json.dumps({"organic": [{"link": "https://example.org", "title": query, "snippet": "slow"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass
