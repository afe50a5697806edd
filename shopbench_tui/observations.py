"""Classify a tool observation so it can be shown in readable form (tables, product cards), not as raw JSON.

The same classification serves replay (observations read from trajectory files) and play (results of live tool
calls), so a person sees an observation the same way in both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

ViewKind = Literal["error", "products", "details", "web", "mapping", "text"]

PRODUCT_ROW_FIELDS = ("product_id", "shop_id", "title", "price", "service", "sold_count")
"""The columns of a find_product result (SPEC §1.3)."""

_DETAIL_FIELDS = {"description", "short_description", "sku_options", "attributes"}


@dataclass(frozen=True)
class ObservationView:
    kind: ViewKind
    value: Any


def unwrap(observation: Any) -> Any:
    """Undo transport wrapping: MCP structured content puts a list under {"result": ...}, and text content may
    hold JSON."""
    if isinstance(observation, dict) and set(observation) == {"result"}:
        observation = observation["result"]
    if isinstance(observation, str):
        text = observation.strip()
        if text[:1] in "[{":
            try:
                return unwrap(json.loads(text))
            except json.JSONDecodeError:
                return observation
    return observation


def _dict_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def classify(observation: Any, is_error: bool = False) -> ObservationView:
    """Pick the view of an observation from its shape (no tool-name special cases, so any server output works)."""
    value = unwrap(observation)
    if is_error:
        return ObservationView("error", value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    if isinstance(value, dict):
        for key in ("products", "results", "items"):
            if _dict_list(value.get(key)):
                return classify(value[key])
    if _dict_list(value):
        keys = set().union(*(item.keys() for item in value))
        if keys & _DETAIL_FIELDS:
            return ObservationView("details", value)
        if "url" in keys and "content" in keys:
            return ObservationView("web", value)
        if "product_id" in keys:
            return ObservationView("products", value)
    if isinstance(value, dict) and "product_id" in value and set(value) & _DETAIL_FIELDS:
        return ObservationView("details", [value])
    if isinstance(value, dict):
        return ObservationView("mapping", value)
    if isinstance(value, list) and not value:
        return ObservationView("text", "(no results)")
    if isinstance(value, str):
        return ObservationView("text", value)
    return ObservationView("text", json.dumps(value, ensure_ascii=False, indent=1))


def cell(value: Any) -> str:
    """One table cell: lists joined by commas, mappings as compact key=value pairs, floats without noise."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, list):
        return ", ".join(cell(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key}={cell(item)}" for key, item in value.items())
    return str(value)


def arguments_text(arguments: dict[str, Any]) -> str:
    """A tool call's arguments on one line, as a person would type them."""
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items() if value not in (None, ""))
