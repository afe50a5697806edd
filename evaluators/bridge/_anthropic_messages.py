"""Anthropic Messages (`POST /v1/messages`), as Claude Code and the `anthropic` SDK speak it.

Tool results arrive as `tool_result` blocks of a user turn and become tool messages; `thinking` blocks are dropped
(no shopbench backend reads them back). Streams follow the API: message_start, one content block after another
(text_delta, input_json_delta), message_delta with the stop reason and usage, message_stop.
"""

from __future__ import annotations

from typing import Any

import evaluators.bridge._wire as wire
from evaluators.bridge._wire import WireError, WireReply, WireRequest
from evaluators.models import ChatMessage, ToolCall, ToolSpec

TEXT = frozenset({"text"})
DROPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})
ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
               529: "overloaded_error"}


class AnthropicMessages:
    name = "anthropic-messages"

    def parse(self, body: dict[str, Any]) -> WireRequest:
        messages: list[ChatMessage] = []
        system = body.get("system")
        if system:
            parts = [system] if isinstance(system, str) else [
                wire.part_text(block, "system[]", TEXT) for block in wire.expect(system, list, "system")
            ]
            messages.append(ChatMessage(role="system", content="\n\n".join(parts)))
        for index, turn in enumerate(wire.expect(body.get("messages"), list, "messages")):
            where = f"messages[{index}]"
            role = wire.expect(turn, dict, where).get("role")
            content = turn.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else wire.expect(
                content, list, f"{where}.content")
            if role == "user":
                messages += _user_turn(blocks, where)
            elif role == "assistant":
                messages.append(_assistant_turn(blocks, where))
            elif role == "system":  # Claude Code sends its environment notes as a system turn after the prompt
                text = "\n\n".join(wire.part_text(block, f"{where}.content[]", TEXT) for block in blocks)
                messages.append(ChatMessage(role="system", content=text))
            else:
                raise WireError(f"{where}.role must be user, assistant or system, got {role!r}")
        tools, other = wire.offered_tools(body.get("tools"), _function)
        return WireRequest(
            messages=messages,
            tools=tools,
            other_tools=other,
            config=wire.decoding(body, ("max_tokens",), wire.stop_list(body.get("stop_sequences"), "stop_sequences")),
            stream=bool(body.get("stream")),
            model=str(body.get("model", "")),
        )

    def render(self, reply: WireReply, request: WireRequest) -> dict[str, Any]:
        return {
            "id": reply.response_id,
            "type": "message",
            "role": "assistant",
            "model": reply.model,
            "content": _content(reply),
            "stop_reason": "tool_use" if reply.calls else "end_turn",
            "stop_sequence": None,
            "usage": _usage(reply),
        }

    def events(self, reply: WireReply, request: WireRequest) -> bytes:
        start = {**self.render(reply, request), "content": [], "stop_reason": None,
                 "usage": {**_usage(reply), "output_tokens": 0}}
        chunks = [wire.sse({"type": "message_start", "message": start}, "message_start")]
        for index, block in enumerate(_content(reply)):
            opened: dict[str, Any]
            if block["type"] == "text":
                opened, delta = {"type": "text", "text": ""}, {"type": "text_delta", "text": block["text"]}
            else:
                opened = {**block, "input": {}}
                delta = {"type": "input_json_delta", "partial_json": wire.dumps(block["input"])}
            chunks += [
                wire.sse({"type": "content_block_start", "index": index, "content_block": opened},
                         "content_block_start"),
                wire.sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta"),
                wire.sse({"type": "content_block_stop", "index": index}, "content_block_stop"),
            ]
        stop = {"stop_reason": "tool_use" if reply.calls else "end_turn", "stop_sequence": None}
        chunks.append(wire.sse({"type": "message_delta", "delta": stop, "usage": _usage(reply)}, "message_delta"))
        chunks.append(wire.sse({"type": "message_stop"}, "message_stop"))
        return b"".join(chunks)

    def error(self, status: int, message: str) -> dict[str, Any]:
        return {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"), "message": message}}

    def stream_error(self, message: str) -> bytes:
        return wire.sse(self.error(500, message), "error")


def _user_turn(blocks: list[Any], where: str) -> list[ChatMessage]:
    """Tool results become tool messages; the text around them one user message each run of text."""
    out: list[ChatMessage] = []
    for index, block in enumerate(blocks):
        at = f"{where}.content[{index}]"
        if wire.expect(block, dict, at).get("type") == "tool_result":
            content = block.get("content", "")
            text = content if isinstance(content, str) else "\n".join(
                wire.part_text(part, f"{at}.content[]", TEXT) for part in wire.expect(content, list, f"{at}.content"))
            call_id = wire.expect(block.get("tool_use_id"), str, f"{at}.tool_use_id")
            out.append(ChatMessage(role="tool", content=text, tool_call_id=call_id))
        elif out and out[-1].role == "user":
            out[-1].content += "\n\n" + wire.part_text(block, at, TEXT)
        else:
            out.append(ChatMessage(role="user", content=wire.part_text(block, at, TEXT)))
    return out


def _assistant_turn(blocks: list[Any], where: str) -> ChatMessage:
    texts: list[str] = []
    calls: list[ToolCall] = []
    for index, block in enumerate(blocks):
        at = f"{where}.content[{index}]"
        kind = wire.expect(block, dict, at).get("type")
        if kind == "tool_use":
            arguments = wire.expect(block.get("input") or {}, dict, f"{at}.input")
            calls.append(ToolCall(id=wire.expect(block.get("id"), str, f"{at}.id"),
                                  name=wire.expect(block.get("name"), str, f"{at}.name"), arguments=arguments))
        elif kind not in DROPPED_BLOCKS:
            texts.append(wire.part_text(block, at, TEXT))
    return ChatMessage(role="assistant", content="".join(texts), tool_calls=calls or None)


def _function(tool: dict[str, Any], where: str) -> ToolSpec | None:
    """A client tool (input_schema); server tools (web search, code execution) have a type instead."""
    if "input_schema" not in tool or tool.get("type") not in (None, "custom"):
        return None
    return wire.function_tool(where, tool.get("name"), tool.get("description"), tool["input_schema"])


def _content(reply: WireReply) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = [{"type": "text", "text": reply.text}] if reply.text else []
    blocks += [{"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments} for call in reply.calls]
    return blocks


def _usage(reply: WireReply) -> dict[str, int]:
    return {"input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens,
            "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
