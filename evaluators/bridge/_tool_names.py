"""Which of an agent's offered tools are shopbench's, under what name the model sees them, and back.

An installed agent lists its MCP servers' tools under its own names: `mcp__shopbench__find_product` in Claude
Code, Codex (a namespace `mcp__shopbench`, flattened by the Responses reader) and qwen-code; other agents use
`shopbench__find_product`, `shopbench_find_product` or the bare name. Models and scripted baselines see
shopbench's canonical names, so a trajectory, a response-cache key and a baseline's script are the same whichever
agent carries them. Every other tool the agent offers (its shell, file and web tools) is kept from the model and
only counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evaluators.models import ChatMessage, ToolCall, ToolSpec
from mcp_server.protocol import SERVER_NAME


class ToolNames:
    """The offered ↔ canonical map of one request's tool list.

    `canonical` is the shopbench server's own tool list (what its `tools/list` returns): with it, a bare name is
    recognised too, and a prefixed name only when the server has that tool. Without it, only names under the
    server's prefix are recognised, whatever follows the prefix."""

    def __init__(self, offered: Iterable[ToolSpec], *, server: str = SERVER_NAME,
                 canonical: frozenset[str] | None = None) -> None:
        pattern = re.compile(rf"^(?:mcp[_-]{{1,2}})?{re.escape(server)}(?:__|[_\-./:])(?P<tool>.+)$")
        self.model_tools: list[ToolSpec] = []
        """The shopbench tools under their canonical names, in the order offered."""
        self.hidden: list[str] = []
        """Offered names that are not shopbench's (never shown to the model)."""
        self._to_canonical: dict[str, str] = {}
        self._to_offered: dict[str, str] = {}
        bare: list[ToolSpec] = []
        for spec in offered:
            match = pattern.match(spec.name)
            if match and (canonical is None or match["tool"] in canonical):
                self._add(spec, match["tool"])
            elif canonical is not None and spec.name in canonical:
                bare.append(spec)
            else:
                self.hidden.append(spec.name)
        for spec in bare:  # a bare name counts only when no prefixed form of it was offered
            if spec.name in self._to_offered:
                self.hidden.append(spec.name)
            else:
                self._add(spec, spec.name)

    def _add(self, spec: ToolSpec, name: str) -> None:
        self._to_canonical[spec.name] = name
        self._to_offered[name] = spec.name
        self.model_tools.append(spec.model_copy(update={"name": name}))

    def canonical(self, name: str) -> str:
        """The model's name for an offered tool (a name it does not know is passed as it is)."""
        return self._to_canonical.get(name, name)

    def offered(self, name: str) -> str:
        """The agent's name for a tool the model called. A name that is not one of the offered shopbench tools (a
        shell tool a test policy asks for, a hallucinated tool) goes to the agent unchanged, so that the agent's
        own permission rules answer it."""
        return self._to_offered.get(name, name)

    def canonical_messages(self, messages: list[ChatMessage]) -> list[ChatMessage]:
        """The chat with every earlier call and tool result named the model's way."""
        renamed: list[ChatMessage] = []
        for message in messages:
            update: dict[str, object] = {}
            if message.tool_calls:
                update["tool_calls"] = [self._renamed(call, self.canonical(call.name)) for call in message.tool_calls]
            if message.name is not None and message.role == "tool":
                update["name"] = self.canonical(message.name)
            renamed.append(message.model_copy(update=update) if update else message)
        return renamed

    def offered_calls(self, calls: list[ToolCall]) -> list[ToolCall]:
        return [self._renamed(call, self.offered(call.name)) for call in calls]

    @staticmethod
    def _renamed(call: ToolCall, name: str) -> ToolCall:
        return call if call.name == name else call.model_copy(update={"name": name})
