"""OpenAI Chat Completions (`POST /v1/chat/completions`), as qwen-code, opencode, goose and the `openai` SDK speak
it. Streams are chat.completion.chunk objects: the role, the text, each tool call whole (id, name and arguments in
one delta), the finish reason, the usage chunk when `stream_options.include_usage` asks for it, then `[DONE]`."""

from __future__ import annotations

import time
from typing import Any

import evaluators.bridge._wire as wire
from evaluators.bridge._wire import WireError, WireReply, WireRequest
from evaluators.models import ChatMessage, ToolCall, ToolSpec

TEXT = frozenset({"text", "input_text", "output_text", "refusal"})
ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
               503: "server_error"}


class OpenAIChat:
    name = "openai-chat"

    def parse(self, body: dict[str, Any]) -> WireRequest:
        messages = [_message(turn, f"messages[{i}]")
                    for i, turn in enumerate(wire.expect(body.get("messages"), list, "messages"))]
        tools, other = wire.offered_tools(body.get("tools"), _function)
        options = body.get("stream_options") or {}
        return WireRequest(
            messages=messages,
            tools=tools,
            other_tools=other,
            config=wire.decoding(body, ("max_completion_tokens", "max_tokens"),
                                 wire.stop_list(body.get("stop"), "stop")),
            stream=bool(body.get("stream")),
            model=str(body.get("model", "")),
            include_usage=bool(wire.expect(options, dict, "stream_options").get("include_usage")),
        )

    def render(self, reply: WireReply, request: WireRequest) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None, "refusal": None}
        if reply.calls:
            message["tool_calls"] = [_call(call) for call in reply.calls]
        return {
            **_head(reply, "chat.completion"),
            "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply), "logprobs": None}],
            "usage": _usage(reply),
        }

    def events(self, reply: WireReply, request: WireRequest) -> bytes:
        head = _head(reply, "chat.completion.chunk")

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
            return wire.sse({**head, "choices": [choice]})

        chunks = [chunk({"role": "assistant", "content": ""})]
        if reply.text:
            chunks.append(chunk({"content": reply.text}))
        for index, call in enumerate(reply.calls):
            chunks.append(chunk({"tool_calls": [{"index": index, **_call(call)}]}))
        chunks.append(chunk({}, _finish(reply)))
        if request.include_usage:
            chunks.append(wire.sse({**head, "choices": [], "usage": _usage(reply)}))
        chunks.append(wire.sse("[DONE]"))
        return b"".join(chunks)

    def error(self, status: int, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": ERROR_TYPES.get(status, "server_error"), "param": None,
                          "code": None}}

    def stream_error(self, message: str) -> bytes:
        return wire.sse(self.error(500, message))


def _function(tool: dict[str, Any], where: str) -> ToolSpec | None:
    if tool.get("type") != "function":
        return None
    function = wire.expect(tool.get("function"), dict, f"{where}.function")
    return wire.function_tool(f"{where}.function", function.get("name"), function.get("description"),
                         function.get("parameters"))


def _message(turn: Any, where: str) -> ChatMessage:
    role = wire.expect(turn, dict, where).get("role")
    content = turn.get("content")
    if isinstance(content, list):
        content = ("" if role == "assistant" else "\n\n").join(wire.part_text(part, f"{where}.content[]", TEXT)
                                                                 for part in content)
    text = wire.expect(content or "", str, f"{where}.content")
    if role in ("system", "developer"):
        return ChatMessage(role="system", content=text)
    if role == "user":
        return ChatMessage(role="user", content=text)
    if role == "assistant":
        calls = [_read_call(call, f"{where}.tool_calls[{i}]")
                 for i, call in enumerate(wire.expect(turn.get("tool_calls") or [], list, f"{where}.tool_calls"))]
        return ChatMessage(role="assistant", content=text, tool_calls=calls or None)
    if role == "tool":
        return ChatMessage(role="tool", content=text,
                           tool_call_id=wire.expect(turn.get("tool_call_id"), str, f"{where}.tool_call_id"))
    raise WireError(f"{where}.role must be system, developer, user, assistant or tool, got {role!r}")


def _read_call(call: Any, where: str) -> ToolCall:
    function = wire.expect(wire.expect(call, dict, where).get("function"), dict, f"{where}.function")
    return ToolCall(id=wire.expect(call.get("id"), str, f"{where}.id"),
                    name=wire.expect(function.get("name"), str, f"{where}.function.name"),
                    arguments=wire.parse_arguments(function.get("arguments"), f"{where}.function.arguments"))


def _call(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": wire.dumps(call.arguments)}}


def _head(reply: WireReply, kind: str) -> dict[str, Any]:
    return {"id": reply.response_id, "object": kind, "created": int(time.time()), "model": reply.model,
            "system_fingerprint": None}


def _finish(reply: WireReply) -> str:
    return "tool_calls" if reply.calls else "stop"


def _usage(reply: WireReply) -> dict[str, int]:
    used = reply.usage
    return {"prompt_tokens": used.input_tokens, "completion_tokens": used.output_tokens,
            "total_tokens": used.input_tokens + used.output_tokens}
