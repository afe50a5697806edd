"""The grammar of a llama.cpp reply with tools: one call to one real tool, arguments the tool accepts.

Decoding is constrained by a grammar built from a JSON schema — oneOf over the tools of {"thought"?, "name": const,
"arguments": <the tool's input schema>} — so even a 135M model always emits a well-formed call to a real tool. Free
strings are bounded and narrowly bounded integers become a choice (page 1..5 becomes a choice of five numbers).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from evaluators.models.base import ToolCall, ToolSpec

THOUGHT_MAX_CHARS = 120
MAX_ENUM_RANGE = 64
"""Integer parameters bounded to at most this many values become an enum in the grammar (JSON-schema minimum and
maximum are not enforced by llama.cpp's schema converter)."""
ARGUMENT_MAX_CHARS = 64


def tool_call_schema(tools: list[ToolSpec], required_only: bool = False) -> dict[str, Any]:
    """The JSON schema every constrained reply satisfies: one call to one of the tools, with optional reasoning.
    `required_only` leaves out the optional parameters of tools that have required ones (small models fill them
    with junk)."""
    branches = []
    for tool in tools:
        arguments = _bounded(tool.parameters or {"type": "object", "properties": {}})
        if required_only and arguments.get("required"):
            keep = set(arguments["required"])
            arguments["properties"] = {k: v for k, v in arguments.get("properties", {}).items() if k in keep}
        arguments.setdefault("additionalProperties", False)
        branches.append(
            {
                "type": "object",
                "properties": {
                    "thought": {"type": "string", "maxLength": THOUGHT_MAX_CHARS},
                    "name": {"const": tool.name},
                    "arguments": arguments,
                },
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"oneOf": branches}


@cache
def grammar(schema_json: str) -> Any:
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


def _bounded(schema: Any) -> Any:
    """A copy of a JSON schema whose free strings have a maxLength of at most ARGUMENT_MAX_CHARS, so a looping small
    model cannot fill its whole token budget with one argument, and whose narrowly bounded integers are enums, so
    the grammar admits only values the tool accepts (llama.cpp's converter ignores minimum and maximum)."""
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounded = {key: _bounded(value) for key, value in schema.items()}
    if bounded.get("type") == "string" and not {"enum", "const"} & bounded.keys():
        bounded["maxLength"] = min(int(bounded.get("maxLength", ARGUMENT_MAX_CHARS)), ARGUMENT_MAX_CHARS)
    low, high = bounded.get("minimum"), bounded.get("maximum")
    if (bounded.get("type") == "integer" and isinstance(low, int) and isinstance(high, int)
            and 0 <= high - low < MAX_ENUM_RANGE):
        for key in ("type", "minimum", "maximum"):
            bounded.pop(key)
        bounded["enum"] = list(range(low, high + 1))
    return bounded


def parse_constrained_call(text: str, call_id: str) -> tuple[str, ToolCall]:
    """Read the grammar-constrained JSON reply; a reply cut off by max_tokens becomes a parse error."""
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        return text, ToolCall(id=call_id, name="", parse_error=f"the reply is not complete JSON ({error.msg})")
    return str(payload.get("thought", "")), ToolCall(
        id=call_id, name=payload["name"], arguments=payload.get("arguments") or {}
    )

