"""The one interface every model backend implements.

A backend turns a chat (plus, for agents, the tool list) into a ModelOutput. Backends know nothing about
benchmarks or MCP: the agent loop and the QA runner adapt to them, so every benchmark can use every backend.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from pydantic import BaseModel, Field

from benchmarks.errors import BadInput


class ToolCall(BaseModel):
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    parse_error: str | None = None
    """Set when the model emitted something that is not a valid call; the agent loop reports it to the model."""


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] | None = None
    """Assistant turns: the calls it made."""
    tool_call_id: str | None = None
    """Tool turns: which call this answers."""
    name: str | None = None


class ToolSpec(BaseModel):
    """A tool as the model sees it: the MCP tool's name, description and input schema."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


class GenerateConfig(BaseModel):
    """Decoding parameters; recorded with every run."""

    temperature: float = 0.0
    max_tokens: int = 512
    top_p: float | None = None
    seed: int | None = 0
    stop: list[str] | None = None


class TokenUsage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0


class ModelOutput(BaseModel):
    text: str = ""
    """Text the model wrote (its reasoning, or the whole answer for question benchmarks)."""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: TokenUsage = Field(default_factory=TokenUsage)
    latency_s: float = 0.0
    model: str = ""
    """The model name the provider reported."""
    cached: bool = False
    """True when served from the response cache (no tokens were spent)."""


class ModelAPI(ABC):
    """A model backend. `spec` is the string the user gave (e.g. "llama-cpp:smollm2")."""

    spec: str

    @abstractmethod
    async def generate(
        self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None, config: GenerateConfig | None = None
    ) -> ModelOutput:
        """One model call. Raises TransientModelError for errors worth retrying (429, 5xx, timeouts)."""

    def identity(self) -> dict[str, Any]:
        """What identifies this model exactly (file hash, provider model name, ...); recorded in the manifest."""
        return {"spec": self.spec}

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release resources (HTTP clients, model memory)."""


class WrappedModel(ModelAPI):
    """A backend around another one (retries, response cache): `inner` is the wrapped model. `bind_episode` copies
    a wrapper around the episode's bound inner model, so name the wrapped model `inner` and subclass this."""

    inner: ModelAPI

    def __init__(self, inner: ModelAPI) -> None:
        self.inner = inner
        self.spec = inner.spec

    def identity(self) -> dict[str, Any]:
        return self.inner.identity()

    async def aclose(self) -> None:
        await self.inner.aclose()


class TransientModelError(RuntimeError):
    """A failure that a retry with backoff may cure (rate limit, server error, timeout)."""


class ModelSpecError(BadInput):
    """The model spec string names no backend or cannot be used."""
