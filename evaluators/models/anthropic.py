"""Anthropic messages API with native tool use: `anthropic:<model>`.

Key from ANTHROPIC_API_KEY, endpoint overridable by ANTHROPIC_BASE_URL (tests use a loopback fake). SDK retries are
off so the run's retry wrapper counts them.
"""

from __future__ import annotations

import os
from typing import Any

from evaluators.models.base import ChatMessage, GenerateConfig, ModelOutput, TokenUsage, ToolCall, ToolSpec
from evaluators.models.http_model import HTTPModel, api_key
from evaluators.models.options import ModelOptions


class AnthropicModel(HTTPModel):
    provider = "anthropic"

    def __init__(self, model: str, base_url: str | None, key: str, timeout_s: float) -> None:
        import anthropic

        client = anthropic.AsyncAnthropic(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)
        super().__init__(f"anthropic:{model}", model, base_url, client)

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        import anthropic

        config = config or GenerateConfig()
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        request: dict[str, Any] = {
            "model": self.model,
            "messages": _to_anthropic([m for m in messages if m.role != "system"]),
            "max_tokens": config.max_tokens,
        }
        # The SDK no longer types the sampling parameters; the messages API still reads them from the body.
        sampling = {"temperature": config.temperature}
        if config.top_p is not None:
            sampling["top_p"] = config.top_p
        request["extra_body"] = sampling
        if system:
            request["system"] = system
        if config.stop:
            request["stop_sequences"] = config.stop
        if tools:
            request["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
            ]
        response, latency = await self._send(anthropic, self.client.messages.create, request)
        text = "".join(block.text for block in response.content if block.type == "text")
        calls = [
            ToolCall(id=block.id, name=block.name, arguments=dict(block.input or {}))
            for block in response.content
            if block.type == "tool_use"
        ]
        return ModelOutput(
            text=text,
            tool_calls=calls,
            usage=TokenUsage(input_tokens=response.usage.input_tokens, output_tokens=response.usage.output_tokens),
            latency_s=latency,
            model=response.model or self.model,
        )


def _to_anthropic(messages: list[ChatMessage]) -> list[dict[str, Any]]:
    """Map the chat to Anthropic turns: tool calls become tool_use blocks, and consecutive tool results are merged
    into one user turn of tool_result blocks (the API requires alternating roles)."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            block = {"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": message.content}
            if turns and turns[-1]["role"] == "user":
                turns[-1]["content"].append(block)
            else:
                turns.append({"role": "user", "content": [block]})
        elif message.role == "assistant":
            blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
            blocks += [
                {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
                for call in message.tool_calls or []
            ]
            turns.append({"role": "assistant", "content": blocks or [{"type": "text", "text": "(no output)"}]})
        elif turns and turns[-1]["role"] == "user":
            turns[-1]["content"].append({"type": "text", "text": message.content})
        else:
            turns.append({"role": "user", "content": [{"type": "text", "text": message.content}]})
    return turns


def anthropic_model(rest: str, options: ModelOptions) -> AnthropicModel:
    key = api_key("ANTHROPIC_API_KEY", "anthropic")
    return AnthropicModel(rest, os.environ.get("ANTHROPIC_BASE_URL"), key, options.timeout_s)
