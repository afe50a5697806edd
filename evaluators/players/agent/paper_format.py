"""The reference's text protocol (benchmarks/shoppingbench/prompts.py REFERENCE_SYSTEM_PROMPT):
`<think>reasoning</think>` then `<tool_call>[{"name": ..., "parameters": {...}}, ...]</tool_call>`.

Models without native tool calling, or runs that must match the paper's numbers, write calls as text. The parser
accepts what the reference prompt asks for and the common near-misses (one object instead of an array,
"arguments" instead of "parameters", the prompt's escaped closing tags `<\\/think>`, a code fence, a closing tag cut
off by a stop sequence). It never raises: a turn without a usable call yields a ToolCall with `parse_error` set,
which the agent loop turns into an observation the model reads on its next step.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from evaluators.models.base import ToolCall

THINK_RE = re.compile(r"<think>(.*?)(?:<\\?/think>|$)", re.DOTALL)
TOOL_CALL_RE = re.compile(r"<tool_call>(.*?)(?:<\\?/tool_call>|$)", re.DOTALL)
RESPONSE_RE = re.compile(r"<response>(.*?)(?:<\\?/response>|$)", re.DOTALL)
FENCE_RE = re.compile(r"^```(?:json)?\s*|\s*```$")


@dataclass
class ParsedTurn:
    thought: str | None
    calls: list[ToolCall] = field(default_factory=list)
    """Every call in order; at least one (a call with parse_error when none was usable)."""
    response: str | None = None
    """The `<response>` text meant for the user, when the model wrote one."""


def parse_paper_turn(text: str, call_id_prefix: str = "call") -> ParsedTurn:
    """Split one model turn into reasoning, tool calls and response."""
    think = THINK_RE.search(text)
    thought = think.group(1).strip() if think else (text.split("<tool_call>", 1)[0].strip() or None)
    response_match = RESPONSE_RE.search(text)
    response = response_match.group(1).strip() if response_match else None
    calls: list[ToolCall] = []
    for block in TOOL_CALL_RE.findall(text):
        calls.extend(_parse_block(block, call_id_prefix, len(calls)))
    if not calls:
        calls = [ToolCall(id=f"{call_id_prefix}-0", name="", parse_error="no <tool_call>...</tool_call> block")]
    return ParsedTurn(thought, calls, response)


def _parse_block(block: str, prefix: str, first: int) -> list[ToolCall]:
    body = FENCE_RE.sub("", block.strip())
    try:
        payload = json.loads(body)
    except json.JSONDecodeError as error:
        message = f"the tool call is not valid JSON ({error.msg} at position {error.pos})"
        return [ToolCall(id=f"{prefix}-{first}", name="", parse_error=message)]
    items = payload if isinstance(payload, list) else [payload]
    if not items:
        return [ToolCall(id=f"{prefix}-{first}", name="", parse_error="the tool call list is empty")]
    return [_parse_call(item, f"{prefix}-{first + i}") for i, item in enumerate(items)]


def _parse_call(item: Any, call_id: str) -> ToolCall:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
        return ToolCall(id=call_id, name="", parse_error='each tool call needs a "name" string')
    arguments = item.get("parameters", item.get("arguments", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError:
            return ToolCall(id=call_id, name=item["name"], parse_error='"parameters" is a string that is not JSON')
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return ToolCall(id=call_id, name=item["name"], parse_error='"parameters" must be a JSON object')
    return ToolCall(id=call_id, name=item["name"], arguments=arguments)


def format_paper_call(name: str, arguments: dict[str, Any], thought: str | None = None) -> str:
    """One call in the reference's text form (used by the baselines and tests)."""
    call = json.dumps([{"name": name, "parameters": arguments}], ensure_ascii=False)
    return f"<think>{thought or ''}</think>\n<tool_call>{call}</tool_call>"
