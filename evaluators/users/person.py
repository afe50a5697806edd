"""A person in the shopper's seat (`shopbench play --as-user`): the agent's question is handed to whoever shows it
(the TUI), and the answer waits until the person has typed one.

`PersonUser.answer` runs in the server's worker thread and blocks on a thread-safe queue; `reply` (from the app's
thread) fills it. The turn records user "person", what the question asked about (the rules user's mapping) and, as
disclosed, the held constraints whose values the answer gives. `leave` releases a waiting answer when the person
quits, so the run can end.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evaluators.users.checks import disclosed_keys, question_reader, read_question
from mcp_server.trajectory import UserTurn
from mcp_server.users import UserAnswer

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import UserProfile


class PersonLeft(RuntimeError):
    """The person quit while the agent waited for an answer."""


@dataclass(frozen=True)
class Question:
    """An agent's question waiting for the person (shown by the TUI)."""

    text: str
    profile: UserProfile


class PersonUserSource:
    """The person answering every episode's questions: `on_profile` is called with each episode's profile as it
    starts (the person is shown what they want), `on_question` with each question as it arrives (both from the
    server's threads)."""

    name = "person"

    def __init__(self, on_question: Callable[[Question], object],
                 on_profile: Callable[[UserProfile], object] | None = None, person: str | None = None) -> None:
        """`person`: their name, recorded in the manifest when given."""
        self.on_question, self.on_profile, self.person = on_question, on_profile, person
        self._answers: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def parameters(self) -> dict[str, Any]:
        return {"user_person": self.person} if self.person else {}

    def for_profile(self, profile: UserProfile) -> PersonUser:
        if self.on_profile is not None:
            self.on_profile(profile)
        return PersonUser(self, profile)

    def reply(self, text: str) -> None:
        """The person's answer to the question waiting (thread-safe)."""
        self._answers.put(text)

    def leave(self) -> None:
        """The person quit: a waiting answer raises PersonLeft (thread-safe)."""
        self._answers.put(None)

    def wait(self) -> str:
        text = self._answers.get()
        if text is None:
            self._answers.put(None)  # every later question finds the person gone too
            raise PersonLeft("the person in the shopper's seat left")
        return text


class PersonUser:
    def __init__(self, source: PersonUserSource, profile: UserProfile) -> None:
        self.source, self.profile = source, profile
        self.reader = question_reader(profile)

    def answer(self, question: str) -> UserAnswer:
        self.source.on_question(Question(question, self.profile))
        text = self.source.wait().strip()
        asked, _ = read_question(self.reader, question)
        turn = UserTurn(user="person", disclosed=disclosed_keys(self.profile, text, asked), asked_about=asked,
                        understood=bool(text), simulator_error=None)
        return UserAnswer(text=text, turn=turn)
