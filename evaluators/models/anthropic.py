"""Anthropic messages API with native tool use: `anthropic:<model>`.

Key from ANTHROPIC_API_KEY, endpoint overridable by ANTHROPIC_BASE_URL (tests use a loopback fake). SDK retries are
off so the run's retry wrapper counts them.
"""

from __future__ import annotations

import os
import time
from typing import Any

from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelSpecError,
    TokenUsage,
    ToolCall,
    ToolSpec,
    TransientModelError,
)
from evaluators.models.registry import ModelOptions, register_backend


class AnthropicModel(ModelAPI):
    def __init__(self, model: str, base_url: str | None, api_key: str, timeout_s: float) -> None:
        import anthropic

        self.spec = f"anthropic:{model}"
        self.model = model
        self.base_url = base_url
        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=0)

    def identity(self) -> dict[str, Any]:
        return {"spec": self.spec, "provider": "anthropic", "model": self.model, "base_url": self.base_url}

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
        began = time.perf_counter()
        try:
            response = await self.client.messages.create(**request)
        except (anthropic.RateLimitError, anthropic.APITimeoutError, anthropic.APIConnectionError) as error:
            raise TransientModelError(f"{self.spec}: {type(error).__name__}: {error}") from error
        except anthropic.APIStatusError as error:
            if error.status_code >= 500:
                raise TransientModelError(f"{self.spec}: HTTP {error.status_code}: {error}") from error
            raise
        latency = time.perf_counter() - began
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

    async def aclose(self) -> None:
        await self.client.close()


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


@register_backend("anthropic", needs_argument=True, help="anthropic:<model> (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL)")
def anthropic_model(rest: str, options: ModelOptions) -> ModelAPI:
    key = os.environ.get("ANTHROPIC_API_KEY")
    if not key:
        raise ModelSpecError("anthropic: set ANTHROPIC_API_KEY")
    return AnthropicModel(rest, os.environ.get("ANTHROPIC_BASE_URL"), key, options.timeout_s)
