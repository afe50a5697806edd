"""The project's refusals: what was asked cannot be done, and the message says why in one line.

Every command catches `Refusal` (and a missing file, FileNotFoundError) and prints it as one line, exiting 2;
anything else that escapes a command is a bug, which says so (shopbench.cli). So a refusal raised anywhere must be
one of these — a plain ValueError or KeyError is read as a bug. They live on the ground floor so every layer can
raise them; a refusal that was a ValueError (or KeyError) before stays one too, for callers that catch those.
"""

from __future__ import annotations


class Refusal(Exception):
    """A request that cannot be carried out, said in one line (no traceback: nothing is wrong with shopbench)."""


class BadInput(Refusal, ValueError):
    """A value the user gave cannot be used: an option, a name, the content of a file they pointed at."""
