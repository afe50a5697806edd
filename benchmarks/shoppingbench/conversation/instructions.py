"""What an agent is told in a conversational task set: the shopping rules with asking allowed."""

from __future__ import annotations

from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS

NO_ASKING = (
    "- Do not ask the user to clarify. If a request depends on a fact you are unsure of, use `web_search`.\n",
    "- Complete the task on your own without asking the user for more information.\n",
)
ASKING = (
    "- The user's first message may not say everything they want. Use `ask_user` to ask them, one question at a "
    "time, about what matters (colour, size, brand, material, price or budget, delivery and payment, shop, voucher) "
    "before you recommend; each question is a step. Use `web_search` for facts the user would not know.\n"
)


def conversational_instructions(base: str = MCP_AGENT_INSTRUCTIONS) -> str:
    """The rules `base` states, with the two that forbid asking the user replaced by one that invites it."""
    text = base.replace(NO_ASKING[0], ASKING).replace(NO_ASKING[1], "")
    if text == base:
        raise ValueError("the agent instructions no longer hold the rules a conversation replaces")
    return text


CONVERSATIONAL_AGENT_INSTRUCTIONS = conversational_instructions()
