"""Loopback fakes of the OpenAI and Anthropic HTTP APIs (stdlib http.server in a thread) for backend tests.

Each fake answers POSTs from a script: a list of actions consumed in order — an HTTP status to fail with, a delay
(to provoke a client timeout), or nothing (answer normally); `delay` slows every answer (a model's latency). A normal
answer comes from `policy(request_json)`, which returns (text, [(tool name, arguments)]). Every request body is kept
in `requests`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Policy = Callable[[dict[str, Any]], tuple[str, list[tuple[str, dict[str, Any]]]]]
PRODUCT_ID = re.compile(r'"product_id"\s*:\s*"([^"]+)"')


class FakeLLMServer:
    def __init__(self, flavour: str, policy: Policy, script: list[Any] | None = None, delay: float = 0.0) -> None:
        self.flavour, self.policy, self.delay = flavour, policy, delay
        self.script = list(script or [])
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                with fake.lock:
                    fake.requests.append(body)
                    action = fake.script.pop(0) if fake.script else None
                if isinstance(action, int):
                    self._send(action, {"error": {"type": "fake_error", "message": f"scripted HTTP {action}"}})
                    return
                if isinstance(action, float):
                    time.sleep(action)
                time.sleep(fake.delay)
                text, calls = fake.policy(body)
                self._send(200, fake.render(body, text, calls))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}" + ("/v1" if self.flavour == "openai" else "")

    def render(self, body: dict[str, Any], text: str, calls: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        n = len(self.requests)
        if self.flavour == "openai":
            tool_calls = [
                {"id": f"call_{n}_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                for i, (name, args) in enumerate(calls)
            ]
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            if tool_calls:
                message["tool_calls"] = tool_calls
            return {
                "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0, "model": "fake-gpt-4.1",
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
                "usage": {"prompt_tokens": 100 + n, "completion_tokens": 10, "total_tokens": 110 + n},
            }
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [{"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args}
                    for i, (name, args) in enumerate(calls)]
        return {
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": "fake-claude-sonnet-4",
            "content": content, "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 100 + n, "output_tokens": 10},
        }

    def __enter__(self) -> FakeLLMServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _all_text(body: dict[str, Any]) -> str:
    return json.dumps(body.get("messages", []))


def shopping_policy(body: dict[str, Any]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """Search with a word of the instruction, recommend the first product found, then terminate — read from the
    request history, so it works for both API flavours."""
    text = _all_text(body)
    turns = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
    if turns == 0:
        return "I will search first.", [("find_product", {"q": "shirt", "page": 1})]
    if turns == 1:
        ids = PRODUCT_ID.findall(text.replace('\\"', '"'))
        return "Recommending the first hit.", [("recommend_product", {"product_ids": ids[0] if ids else "none"})]
    return "Done.", [("terminate", {"status": "success"})]
