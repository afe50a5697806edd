"""OpenAI Responses (`POST /v1/responses`), as Codex and the `openai` SDK speak it.

The bridge keeps no conversation: a request sends the whole input (`store: false`, as Codex does against any
provider but OpenAI's own), so `previous_response_id` is refused in one line. Reasoning items are dropped. A
namespace of tools (Codex offers each MCP server's tools as one, `mcp__shopbench`) is read as flat names
`<namespace>__<tool>`, and calls to them are written back with their `namespace`. Streams
are the typed events the SDK's `responses.stream()` accumulates and Codex reads: response.created, per output item
added / deltas / done, response.completed with the usage.
"""

from __future__ import annotations

import time
from typing import Any

import evaluators.bridge._wire as wire
from evaluators.bridge._wire import WireError, WireReply, WireRequest
from evaluators.models import ChatMessage, ToolCall, ToolSpec

TEXT = frozenset({"input_text", "output_text", "text", "refusal", "summary_text"})
DROPPED_ITEMS = frozenset({"reasoning"})
ERROR_CODES = {400: "invalid_request_error", 401: "invalid_api_key", 404: "not_found", 503: "server_error"}


class OpenAIResponses:
    name = "openai-responses"

    def parse(self, body: dict[str, Any]) -> WireRequest:
        if body.get("previous_response_id"):
            raise WireError("previous_response_id is not supported: send the whole conversation as input")
        messages: list[ChatMessage] = []
        if body.get("instructions"):
            messages.append(ChatMessage(role="system", content=wire.expect(body["instructions"], str, "instructions")))
        raw = body.get("input")
        items = [{"role": "user", "content": raw}] if isinstance(raw, str) else wire.expect(raw, list, "input")
        namespaced: dict[str, tuple[str, str]] = {}
        tools, other = wire.offered_tools(_flat_tools(body.get("tools"), namespaced), _function)
        for index, item in enumerate(items):
            _read_item(messages, wire.expect(item, dict, f"input[{index}]"), f"input[{index}]")
        return WireRequest(
            messages=messages,
            tools=tools,
            other_tools=other,
            config=wire.decoding(body, ("max_output_tokens",), None),
            stream=bool(body.get("stream")),
            model=str(body.get("model", "")),
            namespaced=namespaced,
        )

    def render(self, reply: WireReply, request: WireRequest) -> dict[str, Any]:
        return _response(reply, "completed", _items(reply, request))

    def events(self, reply: WireReply, request: WireRequest) -> bytes:
        events: list[dict[str, Any]] = [
            {"type": "response.created", "response": _response(reply, "in_progress", [])},
            {"type": "response.in_progress", "response": _response(reply, "in_progress", [])},
        ]
        for index, item in enumerate(_items(reply, request)):
            at = {"output_index": index, "item_id": item["id"]}
            if item["type"] == "message":
                text = item["content"][0]["text"]
                part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
                events += [
                    {"type": "response.output_item.added", "output_index": index,
                     "item": {**item, "status": "in_progress", "content": []}},
                    {"type": "response.content_part.added", **at, "content_index": 0, "part": part},
                    {"type": "response.output_text.delta", **at, "content_index": 0, "delta": text, "logprobs": []},
                    {"type": "response.output_text.done", **at, "content_index": 0, "text": text, "logprobs": []},
                    {"type": "response.content_part.done", **at, "content_index": 0, "part": item["content"][0]},
                ]
            else:
                events += [
                    {"type": "response.output_item.added", "output_index": index,
                     "item": {**item, "status": "in_progress", "arguments": ""}},
                    {"type": "response.function_call_arguments.delta", **at, "delta": item["arguments"]},
                    {"type": "response.function_call_arguments.done", **at, "name": item["name"],
                     "arguments": item["arguments"]},
                ]
            events.append({"type": "response.output_item.done", "output_index": index, "item": item})
        events.append({"type": "response.completed", "response": self.render(reply, request)})
        return b"".join(wire.sse({**event, "sequence_number": n}, event["type"]) for n, event in enumerate(events))

    def error(self, status: int, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": ERROR_CODES.get(status, "server_error"), "param": None,
                          "code": ERROR_CODES.get(status, "server_error")}}

    def stream_error(self, message: str) -> bytes:
        event = {"type": "error", "code": "server_error", "message": message, "param": None, "sequence_number": 0}
        return wire.sse(event, "error")


def _function(tool: dict[str, Any], where: str) -> ToolSpec | None:
    if tool.get("type") != "function":
        return None
    return wire.function_tool(where, tool.get("name"), tool.get("description"), tool.get("parameters"))


def _read_item(messages: list[ChatMessage], item: dict[str, Any], where: str) -> None:
    kind = item.get("type", "message")
    if kind == "message":
        content = item.get("content")
        role = item.get("role")
        text = content if isinstance(content, str) else ("" if role == "assistant" else "\n\n").join(
            wire.part_text(part, f"{where}.content[]", TEXT) for part in wire.expect(content, list, f"{where}.content"))
        if role in ("system", "developer"):
            messages.append(ChatMessage(role="system", content=text))
        elif role in ("user", "assistant"):
            messages.append(ChatMessage(role=role, content=text))
        else:
            raise WireError(f"{where}.role must be system, developer, user or assistant, got {role!r}")
    elif kind == "function_call":
        name = wire.expect(item.get("name"), str, f"{where}.name")
        if item.get("namespace"):
            name = f"{wire.expect(item['namespace'], str, f'{where}.namespace')}__{name}"
        call = ToolCall(id=wire.expect(item.get("call_id"), str, f"{where}.call_id"), name=name,
                        arguments=wire.parse_arguments(item.get("arguments"), f"{where}.arguments"))
        last = messages[-1] if messages else None
        if last is not None and last.role == "assistant":  # one turn's calls follow its text as separate items
            last.tool_calls = [*(last.tool_calls or []), call]
        else:
            messages.append(ChatMessage(role="assistant", content="", tool_calls=[call]))
    elif kind == "function_call_output":
        output = item.get("output", "")
        text = output if isinstance(output, str) else "".join(
            wire.part_text(part, f"{where}.output[]", TEXT) for part in wire.expect(output, list, f"{where}.output"))
        messages.append(ChatMessage(role="tool", content=text,
                                    tool_call_id=wire.expect(item.get("call_id"), str, f"{where}.call_id")))
    elif kind not in DROPPED_ITEMS:
        raise WireError(f"{where}.type {kind!r} is not supported (messages, function calls and their outputs are)")


def _flat_tools(raw: Any, namespaced: dict[str, tuple[str, str]]) -> list[Any]:
    """The tool list with each namespace's function tools lifted out under `<namespace>__<tool>` names."""
    flat: list[Any] = []
    for index, tool in enumerate(wire.expect(raw or [], list, "tools")):
        if not (isinstance(tool, dict) and tool.get("type") == "namespace"):
            flat.append(tool)
            continue
        space = wire.expect(tool.get("name"), str, f"tools[{index}].name")
        for inner in wire.expect(tool.get("tools") or [], list, f"tools[{index}].tools"):
            where = f"tools[{index}].tools[]"
            name = wire.expect(wire.expect(inner, dict, where).get("name"), str, f"{where}.name")
            namespaced[f"{space}__{name}"] = (space, name)
            flat.append({**inner, "name": f"{space}__{name}"})
    return flat


def _items(reply: WireReply, request: WireRequest) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    if reply.text:
        part = {"type": "output_text", "text": reply.text, "annotations": [], "logprobs": []}
        items.append({"type": "message", "id": f"msg_{reply.response_id}", "status": "completed", "role": "assistant",
                      "content": [part]})
    for index, call in enumerate(reply.calls):
        item = {"type": "function_call", "id": f"fc_{reply.response_id}_{index}", "call_id": call.id,
                "name": call.name, "arguments": wire.dumps(call.arguments), "status": "completed"}
        if call.name in request.namespaced:
            item["namespace"], item["name"] = request.namespaced[call.name]
        items.append(item)
    return items


def _response(reply: WireReply, status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    used = reply.usage
    usage = None if status != "completed" else {
        "input_tokens": used.input_tokens, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": used.output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": used.input_tokens + used.output_tokens,
    }
    return {
        "id": reply.response_id, "object": "response", "created_at": int(time.time()), "status": status,
        "model": reply.model, "output": output, "usage": usage, "error": None, "incomplete_details": None,
        "instructions": None, "metadata": {}, "parallel_tool_calls": True, "temperature": None, "top_p": None,
        "tool_choice": "auto", "tools": [],
    }
