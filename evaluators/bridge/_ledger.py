"""Per-episode accounting: every model call the agent made through the bridge, as the harness reads it.

An installed agent's own transcript reports tokens its own way, or not at all (a local model behind it reports
none); the bridge sees every call, so its ledger is what the run records for each step: tokens, latency, cost and
the model that answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from evaluators.models import TokenUsage


class Prices(Protocol):
    """What the bridge needs of a price table (`evaluators.players.pricing.PriceTable` has it)."""

    def cost(self, spec: str, model_name: str, usage: TokenUsage) -> float | None: ...


@dataclass(frozen=True)
class BridgeCall:
    """One request the agent made, answered or not."""

    wire: str
    """anthropic-messages, openai-chat or openai-responses."""
    stream: bool
    requested_model: str
    """The model name the agent sent (the episode's model answered regardless)."""
    model: str
    """The model name the backend reported (empty when the call failed)."""
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    """The model's own time (ModelOutput.latency_s)."""
    wall_s: float = 0.0
    """The whole request as the bridge handled it: reading, translating, the model, writing."""
    cost_usd: float | None = None
    """None when the price of this model is unknown."""
    cached: bool = False
    """Answered from the response cache (no tokens spent)."""
    tool_calls: tuple[str, ...] = ()
    """The calls the model made, under the model's names."""
    sent_calls: tuple[str, ...] = ()
    """The same calls under the names the agent was sent."""
    dropped_calls: tuple[str, ...] = ()
    """Calls the model wrote that could not be read (their parse errors); the agent saw only the text."""
    hidden_tools: tuple[str, ...] = ()
    """Tools the agent offered that the model did not see (not shopbench's)."""
    error: str | None = None


@dataclass
class EpisodeLedger:
    """The calls of one episode, in the order they finished."""

    identity: dict[str, Any]
    """The model's identity (ModelAPI.identity()), as recorded in a run manifest."""
    calls: list[BridgeCall] = field(default_factory=list)

    def since(self, start: int) -> EpisodeLedger:
        """The calls from the `start`-th on, as a ledger of their own (what one step, or the episode's tail, cost)."""
        return EpisodeLedger(self.identity, self.calls[start:])

    @property
    def input_tokens(self) -> int:
        return sum(call.input_tokens for call in self.calls)

    @property
    def output_tokens(self) -> int:
        return sum(call.output_tokens for call in self.calls)

    @property
    def cost_usd(self) -> float | None:
        """The episode's cost; None when any answered call's price is unknown."""
        costs = [call.cost_usd for call in self.calls if call.error is None]
        return None if any(cost is None for cost in costs) else sum(cost or 0.0 for cost in costs)

    @property
    def hidden_tools(self) -> list[str]:
        """Every tool name the agent offered that the model never saw, first offer first."""
        return list(dict.fromkeys(name for call in self.calls for name in call.hidden_tools))

    @property
    def errors(self) -> list[str]:
        return [call.error for call in self.calls if call.error is not None]
