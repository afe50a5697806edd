"""OpenAI chat completions with native tool calling: `openai:<model>` and `openai-compatible:<base url>#<model>`.

The SDK's own retries are off (max_retries=0): TransientModelError goes to the run's retry wrapper, which logs and
counts every retry. OPENAI_BASE_URL overrides the endpoint of `openai:` (tests point it at a loopback fake).
"""

from __future__ import annotations

import json
import os
from typing import Any

from evaluators.models.base import (
    ChatMessage,
    GenerateConfig,
    ModelOutput,
    ModelSpecError,
    TokenUsage,
    ToolCall,
    ToolSpec,
)
from evaluators.models.http_model import HTTPModel, api_key
from evaluators.models.options import ModelOptions


class OpenAIModel(HTTPModel):
    provider = "openai"

    def __init__(self, spec: str, model: str, base_url: str | None, key: str, timeout_s: float) -> None:
        import openai

        client = openai.AsyncOpenAI(api_key=key, base_url=base_url, timeout=timeout_s, max_retries=0)
        super().__init__(spec, model, base_url, client)

    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        import openai

        config = config or GenerateConfig()
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [_to_openai(m) for m in messages],
            "temperature": config.temperature,
            "max_tokens": config.max_tokens,
        }
        for key, value in (("top_p", config.top_p), ("seed", config.seed), ("stop", config.stop)):
            if value is not None:
                request[key] = value
        if tools:
            request["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        response, latency = await self._send(openai, self.client.chat.completions.create, request)
        choice = response.choices[0].message
        calls = [_from_openai_call(call) for call in choice.tool_calls or []]
        usage = response.usage
        return ModelOutput(
            text=choice.content or "",
            tool_calls=calls,
            usage=TokenUsage(
                input_tokens=usage.prompt_tokens if usage else 0, output_tokens=usage.completion_tokens if usage else 0
            ),
            latency_s=latency,
            model=response.model or self.model,
        )


def _to_openai(message: ChatMessage) -> dict[str, Any]:
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)},
                }
                for call in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


def _from_openai_call(call: Any) -> ToolCall:
    return tool_call(call.id, call.function.name or "", call.function.arguments)


def tool_call(call_id: str, name: str, raw: str | None) -> ToolCall:
    """A call whose arguments come as a JSON string (OpenAI's wire format): a JSON object, else a call the agent
    loop records as malformed."""
    try:
        arguments = json.loads(raw or "{}")
    except json.JSONDecodeError as error:
        return ToolCall(id=call_id, name=name, parse_error=f"arguments are not valid JSON ({error.msg})")
    if not isinstance(arguments, dict):
        return ToolCall(id=call_id, name=name, parse_error="arguments must be a JSON object")
    return ToolCall(id=call_id, name=name, arguments=arguments)


def openai_model(rest: str, options: ModelOptions) -> OpenAIModel:
    key = api_key("OPENAI_API_KEY", "openai")
    return OpenAIModel(f"openai:{rest}", rest, os.environ.get("OPENAI_BASE_URL"), key, options.timeout_s)


def openai_compatible_model(rest: str, options: ModelOptions) -> OpenAIModel:
    base_url, sep, model = rest.rpartition("#")
    if not sep or not base_url or not model:
        raise ModelSpecError(f"openai-compatible needs <base url>#<model>, got {rest!r}")
    key = os.environ.get("OPENAI_API_KEY") or "none"
    return OpenAIModel(f"openai-compatible:{rest}", model, base_url, key, options.timeout_s)
