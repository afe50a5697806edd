"""A scripted agent for conversational episodes (registered as the model spec "asker"): it asks each of QUESTIONS
with ask_user, searches for what the opener names, recommends the first result and terminates. It reads its chat the
same way from the built-in agent loop and through the model bridge behind an installed agent."""

from __future__ import annotations

import re
from typing import Any

from evaluators.models import ModelAPI, ModelOutput, ToolCall, register_backend

PRODUCT_ID = re.compile(r'"product_id"\s*:\s*"([^"]+)"')
QUESTIONS = ("Which colour would you like?", "What is your budget, or a price range?")


class Asker(ModelAPI):
    spec = "asker"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        calls = [call for m in messages for call in m.tool_calls or []]
        asked = sum(call.name == "ask_user" for call in calls)
        results = [m.content for m in messages if m.role == "tool" and PRODUCT_ID.search(m.content)]
        if asked < len(QUESTIONS):
            call = ToolCall(id=f"q{asked}", name="ask_user", arguments={"question": QUESTIONS[asked]})
        elif not results:
            opener = next(m.content for m in messages if m.role == "user")
            call = ToolCall(id="s", name="find_product", arguments={"q": opener[-120:], "page": 1})
        elif not any(call.name == "recommend_product" for call in calls):
            first = PRODUCT_ID.findall(results[-1])[0]
            call = ToolCall(id="r", name="recommend_product", arguments={"product_ids": first})
        else:
            call = ToolCall(id="t", name="terminate", arguments={"status": "success"})
        return ModelOutput(tool_calls=[call], model=self.spec)


@register_backend("asker", needs_argument=False, help="test model: asks the shopper twice, then shops")
def _asker(rest: str, options: Any) -> ModelAPI:
    return Asker()
