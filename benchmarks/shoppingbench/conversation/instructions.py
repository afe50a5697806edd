"""What an agent is told in a conversational task set: the shopping rules with asking allowed — the MCP
instructions, and the built-in agent's two system prompts (native, and the reference's text format) — each the
plain text with the rules that forbid asking the user replaced."""

from __future__ import annotations

from benchmarks.shoppingbench.agent_prompts import NATIVE_SYSTEM_PROMPT
from benchmarks.shoppingbench.prompts import MCP_AGENT_INSTRUCTIONS, REFERENCE_SYSTEM_PROMPT

ASK_USER_TOOL = "ask_user"
"""The tool a conversational task set adds (mcp_server.shopping.conversation.tool declares it)."""

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
    return _replaced(base, [(NO_ASKING[0], ASKING), (NO_ASKING[1], "")])


def _replaced(text: str, replacements: list[tuple[str, str]]) -> str:
    """`text` with each (old, new) replaced; an old text missing is an error (the base prompt changed)."""
    for old, new in replacements:
        if old not in text:
            raise ValueError(f"the prompt no longer holds {old[:60]!r}, which a conversation replaces")
        text = text.replace(old, new)
    return text


CONVERSATIONAL_AGENT_INSTRUCTIONS = conversational_instructions()
CONVERSATIONAL_NATIVE_SYSTEM_PROMPT = _replaced(NATIVE_SYSTEM_PROMPT, [(
    "- Do not ask the user anything. When you have found",
    "- The user's first message may not say everything: ask them with ask_user, one question at a time, about what\n"
    "  matters (colour, size, brand, material, budget, delivery, shop, voucher).\n- When you have found")])
CONVERSATIONAL_REFERENCE_SYSTEM_PROMPT = _replaced(REFERENCE_SYSTEM_PROMPT, [
    ("3. Do not ask the user to clarify their meaning or intention. If you are unsure about the user's preferences, "
     "use the `web_search` tool to search for details based on their description.",
     "3. The user's first message may not say everything they want. Use the `ask_user` tool to ask them about their "
     "preferences (color, size, brand, material, budget, delivery, shop, voucher), one question at a time, before "
     "you recommend. Use the `web_search` tool for facts the user would not know."),
    ("8. Complete the task progressively without asking the user for external information.",
     "8. Complete the task progressively, asking the user only about their own preferences."),
])
