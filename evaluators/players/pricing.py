"""Cost per model call from a price table: built-in list prices, overridable by a JSON or TOML file.

Prices are USD per million tokens, matched by the longest model-name prefix ("gpt-4.1-mini-2025-04-14" uses
"gpt-4.1-mini"). Local models and baselines cost nothing; an unknown API model gets no cost (None) rather than a
guess. A file ($SHOPBENCH_PRICES or --prices) holds `{"<model prefix>": {"input": 2.0, "output": 8.0}}`
(TOML: one table per model) and extends or overrides the defaults.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from benchmarks.errors import BadInput
from evaluators.models.base import TokenUsage
from evaluators.models.registry import runs_free, split_spec


@dataclass(frozen=True)
class Price:
    input: float
    """USD per million input tokens."""
    output: float
    """USD per million output tokens."""


DEFAULT_PRICES: dict[str, Price] = {
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "o3": Price(2.00, 8.00),
    "o3-mini": Price(1.10, 4.40),
    "o4-mini": Price(1.10, 4.40),
    "claude-opus-4": Price(15.00, 75.00),
    "claude-sonnet-4": Price(3.00, 15.00),
    "claude-3-7-sonnet": Price(3.00, 15.00),
    "claude-3-5-sonnet": Price(3.00, 15.00),
    "claude-3-5-haiku": Price(0.80, 4.00),
}
"""List prices when this table was written; pass a price file for current or negotiated prices."""

class PriceTable:
    def __init__(self, prices: dict[str, Price] | None = None) -> None:
        self.prices = dict(DEFAULT_PRICES if prices is None else prices)

    @classmethod
    def load(cls, path: Path | str | None = None) -> PriceTable:
        """Defaults, extended by the file at `path` (or $SHOPBENCH_PRICES when set)."""
        table = cls()
        path = path or os.environ.get("SHOPBENCH_PRICES")
        if path:
            path = Path(path)
            text = path.read_text(encoding="utf-8")
            raw = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
            try:
                table.prices.update({name: Price(float(p["input"]), float(p["output"])) for name, p in raw.items()})
            except (KeyError, TypeError, ValueError) as error:
                raise BadInput(f"{path}: each entry needs numeric 'input' and 'output' prices ({error})") from None
        return table

    def price_for(self, spec: str, model_name: str) -> Price | None:
        provider, rest = split_spec(spec)
        if runs_free(provider):
            return Price(0.0, 0.0)
        for name in (model_name, rest.split("#")[-1]):  # the provider's name for the model, else the spec's
            matches = [prefix for prefix in self.prices if name.startswith(prefix)]
            if matches:
                return self.prices[max(matches, key=len)]
        return None

    def cost(self, spec: str, model_name: str, usage: TokenUsage) -> float | None:
        price = self.price_for(spec, model_name)
        if price is None:
            return None
        return (usage.input_tokens * price.input + usage.output_tokens * price.output) / 1_000_000
