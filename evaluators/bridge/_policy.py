"""A scripted policy for adapter tests: it plays a fixed list of tool calls through an agent, whatever the agent.

The bridge passes a call to a tool the agent did not offer as shopbench's (`Bash`, `exec_command`, `read_file`)
to the agent unchanged, so a policy that asks for one proves what the agent does with it: its own permission
rules must refuse it, and the refusal comes back as that call's tool result, kept in `results`.
"""

from __future__ import annotations

from typing import Any

from evaluators.models import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolCall, ToolSpec


class ScriptedPolicy(ModelAPI):
    """Turn n (the number of earlier assistant turns that made calls) makes call n of `calls`; after the last,
    it answers `final` as text, which ends the agent's run."""

    def __init__(self, calls: list[tuple[str, dict[str, Any]]], final: str = "done") -> None:
        self.spec = "scripted-policy"
        self.calls = calls
        self.final = final
        self.seen_tools: list[list[str]] = []
        """The tool names each request offered the model (canonical names)."""
        self.last_chat: list[ChatMessage] = []

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        self.seen_tools.append([tool.name for tool in tools or []])
        self.last_chat = messages
        turn = sum(1 for message in messages if message.role == "assistant" and message.tool_calls)
        if turn >= len(self.calls):
            return ModelOutput(text=self.final, model=self.spec)
        name, arguments = self.calls[turn]
        return ModelOutput(tool_calls=[ToolCall(id=f"policy_{turn}", name=name, arguments=arguments)],
                           model=self.spec)

    @property
    def results(self) -> dict[str, str]:
        """What the agent answered to the policy's calls, by tool name (the last answer per name)."""
        return {message.name or "": message.content for message in self.last_chat if message.role == "tool"}
