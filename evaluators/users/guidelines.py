"""What a model playing the shopper is told: fixed guidelines (hashed into the manifest) and the episode's profile.

The guidelines are one text for every episode and model, so a run records them once, by hash; the profile part is
the episode's own (the wanted products, the constraints already stated in the opener, the ones held back until the
agent asks). Every answer must end with `STOP_MARKER`: an answer without it was cut off or ran on, which is the
simulator's error, never the agent's.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import Constraint, UserProfile

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
    lines.append("Already said: " + (_listed(profile, profile.stated) or "nothing more"))
    lines.append("Say only when asked: " + (_listed(profile, profile.held) or "nothing"))
    return "\n".join(lines)


def _listed(profile: UserProfile, constraints: tuple[Constraint, ...]) -> str:
    """"name: value" each; with several wanted products, a product's constraint names its product."""
    several = len(profile.items) > 1
    return "; ".join(
        f"{constraint.name} of {profile.items[constraint.item]}: {constraint.value}"
        if several and constraint.item is not None and constraint.item < len(profile.items)
        else f"{constraint.name}: {constraint.value}"
        for constraint in constraints)
