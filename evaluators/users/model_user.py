"""`--user-model SPEC`: a model plays the shopper from the episode's profile, and each answer is checked.

Any model spec `get_model` accepts (llama-cpp with the embedded SmolLM2, API models, test backends) is made ready
as the agent's model is (retries, then the run's response cache), so a repeated run asks the simulator nothing new.
Its chat is the guidelines and the profile (evaluators.users.guidelines), then the agent's questions as user turns
and its own earlier answers. An answer must end with the stop marker (stripped before the agent reads it); a
missing marker or an empty answer, an answer that contradicts the profile or reveals a held constraint not asked
about (evaluators.users.checks) is recorded as the turn's `simulator_error`, as is a model call that failed (after
the retries), and the scorer reports such episodes apart. The answer is still what the agent reads: the episode
goes on as the simulator made it.

`User.answer` is called from the server's worker threads and blocks; every model call runs on one event loop of
the source's own (a daemon thread), so an async API client is only ever used from the loop it was made on.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from evaluators.harness.backend import PreparedModel, is_baseline, prepare_model
from evaluators.models import ChatMessage, GenerateConfig, ModelOptions, ModelSpecError, get_model
from evaluators.users.checks import AnswerCheck, check_answer, question_reader, read_question
from evaluators.users.guidelines import STOP_MARKER, guidelines_sha256, profile_prompt
from mcp_server.trajectory import UserTurn
from mcp_server.users import UserAnswer

if TYPE_CHECKING:
    from benchmarks.shoppingbench.conversation.profile import UserProfile

T = TypeVar("T")
MAX_TOKENS = 128
"""An answer is a sentence or two; a model that runs on past this has missed its stop marker."""
NO_ANSWER = "(the shopper gave no answer)"
"""What the agent reads when the simulator's answer was empty."""


class _LoopThread:
    """One event loop in a daemon thread; `run` blocks the calling thread until a coroutine finishes there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="shopbench-user-model", daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        return future.result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


class ModelUserSource:
    """The users a model plays; one per run (`--user-model SPEC`), one `ModelUser` per episode."""

    def __init__(self, spec: str, *, seed: int = 0, temperature: float = 0.0, max_tokens: int = MAX_TOKENS,
                 options: ModelOptions | None = None, cache: bool = True, cache_path: Path | None = None) -> None:
        """Refuses (ModelSpecError) a spec no backend takes, or a baseline, which plays agents, not shoppers."""
        if is_baseline(get_model(spec, options)):
            raise ModelSpecError(f"--user-model {spec}: a baseline plays the agent, not the shopper; give a model "
                                 "spec (e.g. llama-cpp:smollm2)")
        self.spec, self.name = spec, f"model:{spec}"
        self.config = GenerateConfig(temperature=temperature, max_tokens=max_tokens, seed=seed)
        self._options, self._cache, self._cache_path = options, cache, cache_path
        self._prepared: PreparedModel | None = None
        self._loop: _LoopThread | None = None
        self._lock = threading.Lock()

    def _ready(self) -> tuple[PreparedModel, _LoopThread]:
        """The model and its loop, made on first use (a run that never asks loads no model)."""
        with self._lock:
            if self._prepared is None or self._loop is None:
                self._prepared = prepare_model(self.spec, self._options, cache=self._cache,
                                               cache_path=self._cache_path)
                self._loop = _LoopThread()
                atexit.register(self.close)
            return self._prepared, self._loop

    def parameters(self) -> dict[str, Any]:
        """For the manifest: the model's identity, the decoding, the guidelines' hash and the stop marker."""
        prepared, _ = self._ready()
        return {"user_model": self.spec, "user_model_identity": prepared.base.identity(),
                "user_seed": self.config.seed, "user_temperature": self.config.temperature,
                "user_max_tokens": self.config.max_tokens, "user_guidelines_sha256": guidelines_sha256(),
                "user_stop_marker": STOP_MARKER}

    def counters(self) -> dict[str, Any]:
        """The simulator's response-cache hits and misses so far (none before its first call)."""
        if self._prepared is None or self._prepared.cached is None:
            return {}
        return {"user_cache_hits": self._prepared.cached.hits, "user_cache_misses": self._prepared.cached.misses}

    def for_profile(self, profile: UserProfile) -> ModelUser:
        return ModelUser(self, profile)

    def generate(self, messages: list[ChatMessage]) -> str:
        """One model call on the source's loop, from any thread."""
        prepared, loop = self._ready()
        return loop.run(prepared.model.generate(messages, None, self.config)).text

    def close(self) -> None:
        """Release the model and write the cache's waiting entries (idempotent; also run at exit)."""
        with self._lock:
            prepared, loop, self._prepared, self._loop = self._prepared, self._loop, None, None
        if prepared is None or loop is None:
            return
        atexit.unregister(self.close)
        try:
            loop.run(prepared.aclose())
        finally:
            loop.stop()


class ModelUser:
    """One episode's simulated shopper: its chat so far and the held constraints it has given."""

    def __init__(self, source: ModelUserSource, profile: UserProfile) -> None:
        self.source, self.profile = source, profile
        self.messages = [ChatMessage(role="system", content=profile_prompt(profile))]
        self.known: set[str] = set()
        self.reader = question_reader(profile)

    def answer(self, question: str) -> UserAnswer:
        asked, understood = read_question(self.reader, question)
        try:
            raw = self.source.generate([*self.messages, ChatMessage(role="user", content=question)])
        except Exception as failure:  # noqa: BLE001 - the simulator failed, not the agent: recorded as such
            turn = UserTurn(user=self.source.name, asked_about=list(asked), understood=False,
                            simulator_error=f"the user model failed: {type(failure).__name__}: {failure}")
            return UserAnswer(text=NO_ANSWER, turn=turn)
        self.messages += [ChatMessage(role="user", content=question), ChatMessage(role="assistant", content=raw)]
        text, error = read_answer(raw)
        check = check_answer(self.profile, text, asked, self.known) if text else AnswerCheck([], None)
        self.known.update(check.disclosed)
        mistakes = [mistake for mistake in (error, check.error) if mistake]
        turn = UserTurn(user=self.source.name, disclosed=check.disclosed, asked_about=list(asked),
                        understood=understood, simulator_error="; ".join(mistakes) or None)
        return UserAnswer(text=text or NO_ANSWER, turn=turn)


def read_answer(raw: str) -> tuple[str, str | None]:
    """The answer before the stop marker, and the simulator's error when the marker is missing or nothing precedes
    it."""
    head, marker, _ = raw.partition(STOP_MARKER)
    text = head.strip()
    if not marker:
        return text, f"the answer did not end with the stop marker {STOP_MARKER}"
    if not text:
        return text, "the answer was empty"
    return text, None
