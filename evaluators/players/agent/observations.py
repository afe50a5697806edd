"""How a backend with a small context window may show and shorten the agent's observations (its ContextHints).

A page of products is the observation an agent reads most: shown as a table it costs less than half the tokens of
its JSON, and summarised it keeps what the agent may still act on (the ids and prices). The protocols hand these
hints to the backend (ModelOptions.hints); the backend decides when to use them.
"""

from __future__ import annotations

import json
from typing import Any

from evaluators.models.base import ToolSpec
from evaluators.models.context import ContextHints, first_characters

SUMMARY_PRODUCTS = 10
"""A summarised page keeps the ids (and prices) of this many products."""
FIRST_STEP_EXAMPLE = (
    'Example: for the request "I want a blue backpack for college" the first reply is {"thought": "Search first.", '
    '"name": "find_product", "arguments": {"q": "blue backpack for college", "page": 1}}'
)
"""Without it SmolLM2-135M mostly calls terminate at once; with it, it usually searches with the request's words."""
SEARCH_TOOL = "find_product"


class ObservationHints(ContextHints):
    name = "product pages"

    def show(self, content: str) -> str:
        return compact_observation(content)

    def summarise(self, content: str) -> str:
        return summarise_observation(content)

    def example(self, tools: list[ToolSpec]) -> str | None:
        return FIRST_STEP_EXAMPLE if any(tool.name == SEARCH_TOOL for tool in tools) else None


def compact_observation(content: str) -> str:
    """A JSON list of flat records (a find_product page) as a table: one header line, then one line per record with
    its values joined by " | " (lists joined by ","). Repeating every key in every record more than doubles the tokens
    a small model must read, and every token of an observation is evaluated on a CPU. Anything else is unchanged."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    if not (isinstance(value, list) and value and all(isinstance(v, dict) for v in value)):
        return content
    keys = list(dict.fromkeys(key for record in value for key in record))
    rows = []
    for record in value:
        cells = []
        for key in keys:
            cell = record.get(key, "")
            if isinstance(cell, list) and all(isinstance(c, str | int | float) for c in cell):
                cell = ",".join(str(c) for c in cell)
            elif isinstance(cell, dict | list):
                return content  # nested records: the JSON says it better
            cells.append("" if cell is None else str(cell).replace("|", "/").replace("\n", " "))
        rows.append(" | ".join(cells))
    return "\n".join([" | ".join(keys), *rows])


def summarise_observation(body: str) -> str:
    """A short stand-in for an old observation (as compact_observation showed it): a page of products keeps its ids
    and prices (what the agent may still recommend), anything else its first characters."""
    try:
        value: Any = json.loads(body)
    except ValueError:
        value = None
    if isinstance(value, dict) and "result" in value:
        value = value["result"]
    lines = body.split("\n")
    header = [cell.strip() for cell in lines[0].split("|")] if len(lines) > 1 else []
    if isinstance(value, list) and value and all(isinstance(v, dict) and "product_id" in v for v in value):
        items = ", ".join(f"{v['product_id']}" + (f" ({v['price']})" if "price" in v else "")
                          for v in value[:SUMMARY_PRODUCTS])
        return f"{len(value)} products: {items}" + (", …" if len(value) > SUMMARY_PRODUCTS else "")
    if header and header[0] == "product_id":  # a compacted page (compact_observation)
        price = header.index("price") if "price" in header else None
        rows = [[cell.strip() for cell in line.split("|")] for line in lines[1:]]
        items = ", ".join(row[0] + (f" ({row[price]})" if price is not None and price < len(row) else "")
                          for row in rows[:SUMMARY_PRODUCTS])
        return f"{len(rows)} products: {items}" + (", …" if len(rows) > SUMMARY_PRODUCTS else "")
    return first_characters(body)
