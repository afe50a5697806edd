"""What the three wire formats share: the request read off the wire, the reply to write back, and SSE framing.

Each format module (`_anthropic_messages`, `_openai_chat`, `_openai_responses`) reads a request body into a
`WireRequest` (chat messages and offered tools under the agent's names) and writes a `WireReply` back, whole or
as the server-sent events its official SDK parses. A body it cannot read raises `WireError` (an HTTP 400 naming the
field), never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from evaluators.models import ChatMessage, GenerateConfig, TokenUsage, ToolCall, ToolSpec

DEFAULT_MAX_TOKENS = 4096
"""Output budget for a request that names none (OpenAI's formats make it optional)."""


class WireError(ValueError):
    """A request body the bridge cannot read; the message names the field."""


@dataclass
class WireRequest:
    messages: list[ChatMessage]
    tools: list[ToolSpec]
    """Function tools as the agent offered them (its names)."""
    config: GenerateConfig
    """The decoding parameters the agent asked for."""
    stream: bool
    model: str
    """The model name the agent asked for (echoed in replies; the episode's model answers whatever it is)."""
    other_tools: list[str] = field(default_factory=list)
    """Offered tools that are not functions (provider-side web search, freeform tools): never shown to a model."""
    include_usage: bool = False
    """OpenAI Chat streaming: send a final usage chunk (`stream_options.include_usage`)."""
    namespaced: dict[str, tuple[str, str]] = field(default_factory=dict)
    """OpenAI Responses: a tool offered inside a namespace (Codex puts each MCP server's tools in one, e.g.
    `mcp__shopbench`) is named `<namespace>__<tool>` here; this maps that name back to (namespace, tool)."""


@dataclass
class WireReply:
    text: str
    calls: list[ToolCall]
    """Under the agent's names, with ids unique within the reply."""
    usage: TokenUsage
    model: str
    response_id: str


class WireFormat(Protocol):
    name: str

    def parse(self, body: dict[str, Any]) -> WireRequest: ...

    def render(self, reply: WireReply, request: WireRequest) -> dict[str, Any]: ...

    def events(self, reply: WireReply, request: WireRequest) -> bytes:
        """The whole reply as the SSE stream the format's SDK reads."""
        ...

    def error(self, status: int, message: str) -> dict[str, Any]:
        """An error body in the format's own shape."""
        ...

    def stream_error(self, message: str) -> bytes:
        """An error inside a stream whose 200 was already sent."""
        ...


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def sse(data: dict[str, Any] | str, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {data if isinstance(data, str) else dumps(data)}\n\n".encode()


def expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """`value` when it has the type a field needs, else a WireError naming the field."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise WireError(f"{where} must be {names}, got {type(value).__name__}")
    return value


def parse_arguments(raw: Any, where: str) -> dict[str, Any]:
    """Tool-call arguments from a JSON string or an object (an earlier turn's call, read back)."""
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(expect(raw, str, where) or "{}")
    except json.JSONDecodeError as error:
        raise WireError(f"{where} is not valid JSON ({error.msg})") from None
    return expect(value, dict, where)


def number(body: dict[str, Any], key: str, default: float | None) -> float | None:
    value = body.get(key)
    return default if value is None else float(expect(value, (int, float), key))


def decoding(body: dict[str, Any], max_tokens_keys: tuple[str, ...], stop: list[str] | None) -> GenerateConfig:
    """The decoding parameters a request names (GenerateConfig's defaults for the rest)."""
    limit = next((body[key] for key in max_tokens_keys if body.get(key) is not None), DEFAULT_MAX_TOKENS)
    seed = body.get("seed")
    return GenerateConfig(
        temperature=number(body, "temperature", 0.0) or 0.0,
        max_tokens=expect(limit, int, max_tokens_keys[0]),
        top_p=number(body, "top_p", None),
        seed=0 if seed is None else expect(seed, int, "seed"),
        stop=stop or None,
    )


def offered_tools(raw: Any, read: Callable[[dict[str, Any], str], ToolSpec | None]) -> tuple[list[ToolSpec], list[str]]:
    """The function tools of a request's `tools` (`read` gives None for any other kind), and the other tools' names."""
    tools: list[ToolSpec] = []
    other: list[str] = []
    for index, tool in enumerate(expect(raw or [], list, "tools")):
        where = f"tools[{index}]"
        spec = read(expect(tool, dict, where), where)
        if spec is None:
            other.append(str(tool.get("name") or tool.get("type")))
        else:
            tools.append(spec)
    return tools, other


def function_tool(where: str, name: Any, description: Any, parameters: Any) -> ToolSpec:
    """A function tool as offered (`where` names its place in the request for errors)."""
    return ToolSpec(name=expect(name, str, f"{where}.name"), description=str(description or ""),
                    parameters=expect(parameters or {"type": "object", "properties": {}}, dict, f"{where}.parameters"))


def stop_list(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [expect(item, str, f"{where}[]") for item in expect(value, list, where)]


def part_text(part: Any, where: str, text_types: frozenset[str]) -> str:
    """One content part as text: its text, or a placeholder for what a text chat cannot carry (an image)."""
    expect(part, dict, where)
    kind = part.get("type")
    if kind in text_types:
        return str(expect(part.get("text", ""), str, f"{where}.text"))
    return f"[{kind} omitted]"


def name_tool_results(messages: list[ChatMessage]) -> list[ChatMessage]:
    """Tool messages named after the call they answer (the wire carries only the call id)."""
    names: dict[str, str] = {}
    named: list[ChatMessage] = []
    for message in messages:
        for call in message.tool_calls or []:
            names[call.id] = call.name
        if message.role == "tool" and message.name is None and message.tool_call_id in names:
            message = message.model_copy(update={"name": names[message.tool_call_id]})
        named.append(message)
    return named
