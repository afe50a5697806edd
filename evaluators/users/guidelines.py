"""What a model playing the shopper is told: fixed guidelines (hashed into the manifest) and the episode's profile.

The guidelines are one text for every episode and model, so a run records them once, by hash; the profile part is
the episode's own (the wanted products, the constraints already stated in the opener, the ones held back until the
agent asks). Every answer must end with `STOP_MARKER`: an answer without it was cut off or ran on, which is the
simulator's error, never the agent's.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from benchmarks.shoppingbench.conversation.profile import item_label

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import Constraint, UserProfile

UNSAYABLE = "as in the picture you have in mind (you have no words for it)"
"""What stands for a value the shopper would not say (one that holds the product's whole title)."""
STOP_MARKER = "###END###"
"""Ends every answer; stripped before the agent reads it."""

GUIDELINES = f"""You are a shopper chatting with a shopping assistant. You want exactly what your profile below says.
Rules:
1. Answer only what the assistant's last message asks about, in one or two short sentences, as a shopper would.
2. When asked about something your profile lists, give its value exactly as the profile writes it.
3. Never mention a wish from "say only when asked" that the assistant did not ask about.
4. When asked about something your profile does not list, say you have no preference.
5. Never invent a wish, never change a value, never search or recommend products yourself.
6. End every answer with {STOP_MARKER}

Example: the assistant asks "Which colour would you like?" and your profile says colour: red. You answer:
Red, please. {STOP_MARKER}"""


def guidelines_sha256() -> str:
    """The guidelines' hash, recorded in the run manifest (`UserSource.parameters()`)."""
    return hashlib.sha256(GUIDELINES.encode()).hexdigest()


def profile_prompt(profile: UserProfile) -> str:
    """The system prompt of one episode's simulated shopper: the guidelines, then its profile."""
    wanted = "; ".join(profile.items)
    lines = [GUIDELINES, "", "Your profile:", f"You want: {wanted}."]
    lines.append("Already said: " + (listed(profile, profile.stated) or "nothing more"))
    lines.append("Say only when asked: " + (listed(profile, profile.held) or "nothing"))
    return "\n".join(lines)


def listed(profile: UserProfile, constraints: tuple[Constraint, ...]) -> str:
    """The constraints as the shopper is told them (the model's prompt, the person's screen)."""
    return "; ".join(described(profile, constraint) for constraint in constraints)


def described(profile: UserProfile, constraint: Constraint) -> str:
    """"name: value"; with several wanted products, the constraint names its product ("colour of the ring"). A value
    that holds the product's whole title (`sayable` False) is not given: a shopper has no words for it."""
    name = constraint.name
    if len(profile.items) > 1 and constraint.item is not None and constraint.item < len(profile.items):
        name = f"{name} of {item_label(profile.items, constraint.item)}"
    return f"{name}: {constraint.value if constraint.sayable else UNSAYABLE}"
