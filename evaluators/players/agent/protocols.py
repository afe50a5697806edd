"""How a chat with a model maps to tool calls and back: `native` (backend tool calling) and `paper` (text format).

A protocol builds the opening messages, tells the loop which tools to hand the backend (none for `paper`: the tool
list is in the system prompt), reads calls out of a model output, and appends the turn and its observations to
the history in the form that protocol's model expects. It also tells a backend with a small context window how its
observations may be shown and shortened (`hints`).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from benchmarks.shoppingbench.agent_prompts import (
    MALFORMED_NATIVE,
    MALFORMED_PAPER,
    NATIVE_SYSTEM_PROMPT,
    PAPER_OBSERVATION_CLOSE,
    PAPER_OBSERVATION_OPEN,
)
from benchmarks.shoppingbench.conversation.instructions import (
    ASK_USER_TOOL,
    CONVERSATIONAL_NATIVE_SYSTEM_PROMPT,
    CONVERSATIONAL_REFERENCE_SYSTEM_PROMPT,
)
from benchmarks.shoppingbench.prompts import REFERENCE_SYSTEM_PROMPT, reference_system_prompt
from evaluators.models.base import ChatMessage, ModelOutput, ToolCall, ToolSpec
from evaluators.models.context import ContextHints
from evaluators.players.agent.observations import ObservationHints
from evaluators.players.agent.paper_format import parse_paper_turn


@dataclass
class Turn:
    thought: str | None
    calls: list[ToolCall]


@dataclass
class Observation:
    call: ToolCall
    content: Any
    """What the model is shown: the tool's JSON result, or error text."""
    is_error: bool


class AgentProtocol(ABC):
    name: str
    hints: ContextHints = ObservationHints()
    """How a backend with a small context may show and shorten this protocol's observations."""

    @abstractmethod
    def prompts(self, conversational: bool = False) -> dict[str, str]:
        """Prompt name → text, hashed into the run manifest (`conversational`: the prompts of a task set played as
        a conversation, whose tools include ask_user)."""

    @abstractmethod
    def opening(self, instruction: str, tools: list[ToolSpec]) -> list[ChatMessage]: ...

    @abstractmethod
    def model_tools(self, tools: list[ToolSpec]) -> list[ToolSpec] | None: ...

    @abstractmethod
    def read(self, output: ModelOutput, turn: int) -> Turn:
        """The calls of one model turn (at least one; a malformed turn gives a call with parse_error)."""

    @abstractmethod
    def append(self, messages: list[ChatMessage], output: ModelOutput, observations: list[Observation]) -> None:
        """Add the model's turn and what it observed to the history."""

    @abstractmethod
    def malformed(self, problem: str) -> str:
        """The observation for a turn that could not be run."""


def asks_user(tools: list[ToolSpec]) -> bool:
    """The episode is a conversation: its tools include ask_user (the system prompt then invites asking)."""
    return any(tool.name == ASK_USER_TOOL for tool in tools)


class NativeProtocol(AgentProtocol):
    name = "native"

    def prompts(self, conversational: bool = False) -> dict[str, str]:
        system = CONVERSATIONAL_NATIVE_SYSTEM_PROMPT if conversational else NATIVE_SYSTEM_PROMPT
        return {"native_system_prompt": system, "malformed_native": MALFORMED_NATIVE}

    def opening(self, instruction: str, tools: list[ToolSpec]) -> list[ChatMessage]:
        system = CONVERSATIONAL_NATIVE_SYSTEM_PROMPT if asks_user(tools) else NATIVE_SYSTEM_PROMPT
        return [ChatMessage(role="system", content=system), ChatMessage(role="user", content=instruction)]

    def model_tools(self, tools: list[ToolSpec]) -> list[ToolSpec] | None:
        return tools

    def read(self, output: ModelOutput, turn: int) -> Turn:
        if output.tool_calls:
            return Turn(output.text or None, list(output.tool_calls))
        problem = "it holds no tool call"
        return Turn(output.text or None, [ToolCall(id=f"turn{turn}-none", name="", parse_error=problem)])

    def append(self, messages: list[ChatMessage], output: ModelOutput, observations: list[Observation]) -> None:
        model_calls = [o.call for o in observations if o.call.id in {c.id for c in output.tool_calls}]
        messages.append(ChatMessage(role="assistant", content=output.text, tool_calls=model_calls or None))
        for observation in observations:
            text = _as_text(observation.content)
            if observation.call in model_calls:
                messages.append(
                    ChatMessage(role="tool", content=text, tool_call_id=observation.call.id, name=observation.call.name)
                )
            else:
                messages.append(ChatMessage(role="user", content=text))

    def malformed(self, problem: str) -> str:
        return MALFORMED_NATIVE.format(problem=problem)


class PaperProtocol(AgentProtocol):
    name = "paper"

    def prompts(self, conversational: bool = False) -> dict[str, str]:
        system = CONVERSATIONAL_REFERENCE_SYSTEM_PROMPT if conversational else REFERENCE_SYSTEM_PROMPT
        return {"reference_system_prompt": system, "malformed_paper": MALFORMED_PAPER,
                "paper_observation": PAPER_OBSERVATION_OPEN + PAPER_OBSERVATION_CLOSE}

    def opening(self, instruction: str, tools: list[ToolSpec]) -> list[ChatMessage]:
        system = reference_system_prompt([{"name": t.name, "description": t.description, "parameters": t.parameters}
                                          for t in tools],
                                         CONVERSATIONAL_REFERENCE_SYSTEM_PROMPT if asks_user(tools) else None)
        return [ChatMessage(role="system", content=system), ChatMessage(role="user", content=instruction)]

    def model_tools(self, tools: list[ToolSpec]) -> list[ToolSpec] | None:
        return None

    def read(self, output: ModelOutput, turn: int) -> Turn:
        parsed = parse_paper_turn(output.text, call_id_prefix=f"call_{turn}")
        return Turn(parsed.thought, parsed.calls)

    def append(self, messages: list[ChatMessage], output: ModelOutput, observations: list[Observation]) -> None:
        messages.append(ChatMessage(role="assistant", content=output.text))
        results = [
            {"tool_call_id": o.call.id, "name": o.call.name or None, "content": o.content} for o in observations
        ]
        body = json.dumps(results, ensure_ascii=False)
        messages.append(ChatMessage(role="user", content=f"{PAPER_OBSERVATION_OPEN}{body}{PAPER_OBSERVATION_CLOSE}"))

    def malformed(self, problem: str) -> str:
        return MALFORMED_PAPER.format(problem=problem)


PROTOCOLS: dict[str, type[AgentProtocol]] = {"native": NativeProtocol, "paper": PaperProtocol}


def get_protocol(name: str) -> AgentProtocol:
    if name not in PROTOCOLS:
        raise ValueError(f"unknown protocol {name!r}; choose one of {', '.join(PROTOCOLS)}")
    return PROTOCOLS[name]()


def _as_text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
