"""`ask_user`: the episode tool of a conversational task set, and the per-episode sandbox that answers it.

It is listed only where the suite plays tasks as conversations (ShoppingSuite with a user), so the other task sets
list, play and record exactly as before. Each call is one step; the observation is the user's answer text, and the
user's side (what it disclosed, whether it understood) is recorded with the step (mcp_server.episodes).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from benchmarks.shoppingbench.conversation.instructions import ASK_USER_TOOL
from mcp_server.toolbox import Arguments, EpisodeTool, ToolRunner, validate_arguments
from mcp_server.users import User, UserAnswer

MAX_QUESTION_CHARS = 500


class AskUserArgs(Arguments):
    question: str = Field(
        min_length=1,
        max_length=MAX_QUESTION_CHARS,
        description="One question to the shopper about what they want, e.g. \"What colour would you like?\", "
        "\"What is your budget?\", \"Do you need cash on delivery?\".",
    )


ASK_USER = EpisodeTool(
    ASK_USER_TOOL,
    "Ask the shopper a question about what they want (colour, size, brand, material, price or budget, delivery and "
    "payment, shop, voucher) and return their answer. The shopper's first message may not say everything: ask about "
    "what matters before recommending. Each question is a step.",
    AskUserArgs,
    observation=str,
)


class ConversationSandbox:
    """One episode's sandbox: `ask_user` answered by the episode's user, every other tool by the shared sandbox."""

    def __init__(self, shared: ToolRunner, user: User) -> None:
        self.shared, self.user = shared, user

    def call(self, tool: str, arguments: Any) -> Any:
        if tool != ASK_USER_TOOL:
            return self.shared.call(tool, arguments)
        answer: UserAnswer = self.user.answer(validate_arguments(tool, AskUserArgs, arguments).question)
        return answer
