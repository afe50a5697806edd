"""The bridge: a loopback HTTP server that answers an installed agent's model calls with a shopbench model.

    async with ModelBridge() as bridge:
        episode = bridge.open_episode(bind_episode(model, context))
        # the agent gets ANTHROPIC_BASE_URL=episode.anthropic_base_url or OPENAI_BASE_URL=episode.openai_base_url
        ...
        episode.close(); episode.ledger.calls   # tokens, latency, cost, model, per call

Each episode has its own URL prefix, `http://127.0.0.1:PORT/e/<token>/v1/...` (an unguessable token), so several
episodes share one server and every call lands in its own episode's ledger; the harness hands each episode the
model bound to it (`bind_episode`: the oracle needs the gold). The server binds loopback only, on a free port, and
may require a key (`x-api-key` or `Authorization: Bearer`), the bridge's or each episode's own; a call without it
is refused (401) and logged, never answered or counted. It runs in the caller's event loop and leaves the
process's signal handlers alone.

A model call that outlasts `keepalive_s` on a streaming request is streamed: the 200 goes out with SSE comments
every `keepalive_s` (an agent's read timeout never fires on a slow local model), then the events, or an error
event if the model fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import re
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from evaluators.bridge._anthropic_messages import AnthropicMessages
from evaluators.bridge._ledger import BridgeCall, EpisodeLedger, Prices
from evaluators.bridge._openai_chat import OpenAIChat
from evaluators.bridge._openai_responses import OpenAIResponses
from evaluators.bridge._tool_names import ToolNames
from evaluators.bridge._wire import WireError, WireFormat, WireReply, WireRequest, dumps, name_tool_results
from evaluators.models import GenerateConfig, ModelAPI, ModelOutput, ToolCall, TransientModelError
from mcp_server.episode_keys import peer
from mcp_server.loopback import serve_on_loopback
from mcp_server.protocol import SERVER_NAME

log = logging.getLogger("shopbench.security")

WIRES: dict[str, WireFormat] = {
    "messages": AnthropicMessages(),
    "chat/completions": OpenAIChat(),
    "responses": OpenAIResponses(),
}
"""Path under /v1 → wire format."""
RESPONSE_ID_PREFIX = {"anthropic-messages": "msg_", "openai-chat": "chatcmpl-", "openai-responses": "resp_"}
UNSAFE_ID = re.compile(r"[^A-Za-z0-9_-]")
TRANSIENT_STATUS = {"anthropic-messages": 529, "openai-chat": 503, "openai-responses": 503}
"""What a retryable model failure is answered with: the status each agent's client retries."""


class _HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(eq=False)
class BridgeEpisode:
    """One episode's endpoint: the model that answers it, its decoding parameters and its ledger."""

    bridge: ModelBridge
    token: str
    model: ModelAPI
    config: GenerateConfig | None
    """The run's decoding parameters, used instead of the agent's own; None takes the agent's."""
    ledger: EpisodeLedger
    tools: frozenset[str] | None = None
    """The episode's own tool names: the only tools its model is shown (None: the bridge's `server_tools`)."""
    key: str | None = None
    """This episode's own key, required instead of the bridge's when set: an agent reaches its own endpoint only."""
    closed: bool = False

    @property
    def base_url(self) -> str:
        """`ANTHROPIC_BASE_URL` (the Anthropic SDK appends /v1/messages)."""
        return f"{self.bridge.url}/e/{self.token}"

    @property
    def openai_base_url(self) -> str:
        """`OPENAI_BASE_URL` (the OpenAI SDK appends /chat/completions or /responses)."""
        return f"{self.base_url}/v1"

    def close(self) -> None:
        """Later calls are refused (404); the ledger stays readable."""
        self.closed = True
        self.bridge.episodes.pop(self.token, None)


@dataclass(eq=False)
class ModelBridge:
    key: str | None = None
    """Required of every request when set (`x-api-key: KEY` or `Authorization: Bearer KEY`)."""
    prices: Prices | None = None
    """Costs each call (the run's price table); without one, every call's cost is unknown (None)."""
    server_name: str = SERVER_NAME
    """The name the agent's MCP config gives the shopbench server (its tools' prefix)."""
    server_tools: frozenset[str] | None = None
    """The shopbench server's tool names (its tools/list): with them an agent that lists MCP tools unprefixed
    (gemini-cli's style) is understood too; None recognises only names under `server_name`'s prefix."""
    keepalive_s: float = 5.0
    episodes: dict[str, BridgeEpisode] = field(default_factory=dict)
    url: str = ""
    """http://127.0.0.1:PORT, once started."""
    _serving: contextlib.AsyncExitStack | None = None

    async def __aenter__(self) -> ModelBridge:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def start(self) -> None:
        app = Starlette(routes=[
            *(Route(f"/e/{{token}}/v1/{path}", self._endpoint(wire), methods=["POST"]) for path, wire in WIRES.items()),
            Route("/e/{token}/v1/models", self._models, methods=["GET"]),
        ])
        serving = contextlib.AsyncExitStack()
        self.url = await serving.enter_async_context(
            serve_on_loopback(app, "the model bridge", lifespan="off", http="h11"))
        self._serving = serving

    async def aclose(self) -> None:
        serving, self._serving = self._serving, None
        if serving is not None:
            await serving.aclose()

    def open_episode(self, model: ModelAPI, *, config: GenerateConfig | None = None,
                     tools: frozenset[str] | None = None, key: str | None = None) -> BridgeEpisode:
        """An endpoint for one episode, answered by `model` (bound to the episode by the caller), which is shown the
        shopbench tools among `tools` only (the episode's; None: `server_tools`); `key`, when given, is the only key
        it accepts (else the bridge's)."""
        token = secrets.token_urlsafe(16)
        episode = BridgeEpisode(self, token, model, config, EpisodeLedger(identity=model.identity()), tools=tools,
                                key=key)
        self.episodes[token] = episode
        return episode

    # ---- requests -------------------------------------------------------------------------------------------------

    def _episode(self, request: Request) -> BridgeEpisode:
        episode = self.episodes.get(request.path_params["token"])
        expected = episode.key if episode is not None and episode.key is not None else self.key
        if expected is not None:
            given = request.headers.get("x-api-key") or request.headers.get("authorization", "").removeprefix(
                "Bearer ")
            if not hmac.compare_digest(given.encode(), expected.encode()):
                client = request.client
                log.warning("the model bridge refused a call without its key from %s",
                            peer(client.host, client.port) if client else "?")
                raise _HttpError(401, "this bridge needs its key (x-api-key or Authorization: Bearer)")
        if episode is None:
            raise _HttpError(404, "no open episode at this address (closed, or never opened)")
        return episode

    def _endpoint(self, wire: WireFormat) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            began = time.perf_counter()
            try:
                episode = self._episode(request)
                try:
                    body = json.loads(await request.body())
                except (json.JSONDecodeError, UnicodeDecodeError) as error:
                    raise _HttpError(400, f"the request body is not JSON ({error})") from None
                if not isinstance(body, dict):
                    raise _HttpError(400, "the request body must be a JSON object")
                asked = wire.parse(body)
            except WireError as error:
                return _error(wire, 400, str(error))
            except _HttpError as error:
                return _error(wire, error.status, str(error))
            return await _Exchange(self, episode, wire, asked, began).answer()

        return endpoint

    async def _models(self, request: Request) -> Response:
        try:
            episode = self._episode(request)
        except _HttpError as error:
            return _error(WIRES["chat/completions"], error.status, str(error))
        spec = episode.model.spec
        # Both SDKs' list shapes at once: OpenAI's (object, owned_by) and Anthropic's (type, display_name, has_more).
        entry = {"id": spec, "object": "model", "created": 0, "owned_by": "shopbench", "type": "model",
                 "display_name": spec, "created_at": "1970-01-01T00:00:00Z"}
        body = {"object": "list", "data": [entry], "has_more": False, "first_id": spec, "last_id": spec}
        return Response(dumps(body), media_type="application/json")


class _Exchange:
    """One model call: translate, generate, translate back, and write it in the ledger."""

    def __init__(self, bridge: ModelBridge, episode: BridgeEpisode, wire: WireFormat, asked: WireRequest,
                 began: float) -> None:
        self.bridge, self.episode, self.wire, self.asked, self.began = bridge, episode, wire, asked, began
        canonical = bridge.server_tools if episode.tools is None else episode.tools
        self.names = ToolNames(asked.tools, server=bridge.server_name, canonical=canonical)

    async def answer(self) -> Response:
        messages = self.names.canonical_messages(name_tool_results(self.asked.messages))
        config = self.episode.config or self.asked.config
        task = asyncio.ensure_future(self.episode.model.generate(messages, self.names.model_tools, config))
        streamed = False
        try:
            if self.asked.stream:
                done, _ = await asyncio.wait({task}, timeout=self.bridge.keepalive_s)
                if not done:
                    streamed = True
                    return StreamingResponse(self._slow_stream(task), media_type="text/event-stream")
            try:
                output = await task
            except Exception as error:  # noqa: BLE001 - every model failure is answered and recorded
                status = TRANSIENT_STATUS[self.wire.name] if isinstance(error, TransientModelError) else 500
                return _error(self.wire, status, self._failed(error))
            reply = self._reply(output)
            if self.asked.stream:
                return Response(self.wire.events(reply, self.asked), media_type="text/event-stream")
            return Response(dumps(self.wire.render(reply, self.asked)), media_type="application/json")
        finally:
            if not streamed:
                task.cancel()  # the agent hung up: its call is not worth finishing

    async def _slow_stream(self, task: asyncio.Future[ModelOutput]) -> AsyncIterator[bytes]:
        try:
            while not task.done():
                yield b": waiting for the model\n\n"
                await asyncio.wait({task}, timeout=self.bridge.keepalive_s)
            try:
                output = task.result()
            except Exception as error:  # noqa: BLE001 - the 200 is sent: the failure goes in the stream
                yield self.wire.stream_error(self._failed(error))
                return
            yield self.wire.events(self._reply(output), self.asked)
        finally:
            task.cancel()

    def _reply(self, output: ModelOutput) -> WireReply:
        readable = [call for call in output.tool_calls if call.parse_error is None]
        sent = _unique_ids(self.names.offered_calls(readable))
        prices = self.bridge.prices
        cost = 0.0 if output.cached else (prices.cost(self.episode.model.spec, output.model, output.usage)
                                          if prices else None)
        self._record(BridgeCall(
            **self._common(), model=output.model, input_tokens=output.usage.input_tokens,
            output_tokens=output.usage.output_tokens, latency_s=output.latency_s, cost_usd=cost, cached=output.cached,
            tool_calls=tuple(call.name for call in readable), sent_calls=tuple(call.name for call in sent),
            dropped_calls=tuple(call.parse_error for call in output.tool_calls if call.parse_error is not None),
        ))
        prefix = RESPONSE_ID_PREFIX[self.wire.name]
        return WireReply(text=output.text, calls=sent, usage=output.usage, model=self.asked.model or output.model,
                         response_id=f"{prefix}{uuid.uuid4().hex}")

    def _failed(self, error: Exception) -> str:
        message = f"{type(error).__name__}: {error}"
        self._record(BridgeCall(**self._common(), model="", error=message))
        return message

    def _common(self) -> dict[str, Any]:
        return {"wire": self.wire.name, "stream": self.asked.stream, "requested_model": self.asked.model,
                "wall_s": time.perf_counter() - self.began,
                "hidden_tools": (*self.names.hidden, *self.asked.other_tools)}

    def _record(self, call: BridgeCall) -> None:
        self.episode.ledger.calls.append(call)


def _unique_ids(calls: list[ToolCall]) -> list[ToolCall]:
    """Call ids every wire accepts (Anthropic's are [A-Za-z0-9_-]+) and unique within the reply, derived from the
    model's own ids so that a replayed conversation (the response cache) stays the same."""
    seen: set[str] = set()
    out: list[ToolCall] = []
    for index, call in enumerate(calls):
        wanted = UNSAFE_ID.sub("_", call.id) or f"call_{index}"
        if wanted in seen:
            wanted = f"{wanted}_{index}"
        seen.add(wanted)
        out.append(call if wanted == call.id else call.model_copy(update={"id": wanted}))
    return out


def _error(wire: WireFormat, status: int, message: str) -> Response:
    return Response(dumps(wire.error(status, message)), status_code=status, media_type="application/json")
