"""A question benchmark as a verifiers single-turn environment: the prompt as the benchmark's reference sends it, the
model's one reply submitted to the episode as the raw answer (`submit_answer`), the benchmark's own parser and metric
as the rubric. Every rollout is one episode in the environment's run folder, so `shopbench score RUN` reads the same
answers. The reference's decoding (temperature, max_tokens) is in each example's `info["decoding"]`; the trainer's
sampling arguments decide. CoT-SC, which draws several samples per question and votes, has no single-turn form: use
`shopbench run` for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import verifiers as vf
from datasets import Dataset

from benchmarks.qa import QuestionPrompt
from benchmarks.registry import BenchmarkSpec
from evaluators.integrations.verifiers.episodes import Rollouts, message_text, shared_environment, turn_usage
from evaluators.integrations.verifiers.rubrics import QuestionRubric
from mcp_server.environment import Environment
from mcp_server.protocol import TaskListing
from mcp_server.suites import TaskSuite


class QuestionEnv(vf.SingleTurnEnv):
    """One rollout = one question episode: started before the model answers, its answer submitted after."""

    def __init__(self, spec: BenchmarkSpec, environment: Environment, suite: TaskSuite, listings: list[TaskListing],
                 *, rubric: vf.Rubric, **kwargs: Any) -> None:
        self.rollouts = Rollouts(environment, suite)
        rows = []
        for listing in listings:
            prompt = QuestionPrompt.model_validate(suite.start_details(listing.task_id)["question"])
            if prompt.samples > 1:
                raise ValueError(f"{spec.name}: this prompting draws {prompt.samples} samples per question and votes; "
                                 "a single-turn environment answers once (use shopbench run for it)")
            turns = ([{"role": "system", "content": prompt.system}] if prompt.system else []) + [
                {"role": "user", "content": prompt.user}]
            rows.append({"prompt": turns, "answer": "",
                         "info": {"task_id": listing.task_id, "group": str(listing.intent),
                                  "decoding": {"temperature": prompt.temperature, "max_tokens": prompt.max_tokens}}})
        super().__init__(dataset=Dataset.from_list(rows), rubric=rubric, **kwargs)

    async def setup_state(self, state: vf.State) -> vf.State:
        await self.rollouts.start(state)
        return state

    @vf.cleanup
    async def submit_and_close(self, state: vf.State) -> None:
        """Submit the model's reply as the answer (a rollout that failed before replying submits nothing: its episode
        is recorded abandoned), then close the connection."""
        client = self.rollouts.client(state)
        replies = [message for message in state.get("completion") or [] if message.role == "assistant"]
        try:
            if client is not None and replies and state.get("error") is None and not client.over:
                answer = message_text(replies[-1].content)
                reply = await client.call("submit_answer", {"answer": answer}, usage=turn_usage(state))
                if reply.is_error:
                    raise RuntimeError(f"submit_answer was refused: {reply.text}")
        finally:
            await self.rollouts.close(state)


def question_environment(
    spec: BenchmarkSpec,
    items: str | Path | None = None,
    prompting: str | None = None,
    shots: int = 0,
    seed: int = 0,
    limit: int | None = None,
    task_ids: list[str] | None = None,
    runs: str | Path | None = None,
) -> QuestionEnv:
    """One example per item (the bundled items, or an `items` file), asked with `prompting` (default: the benchmark's
    first), `shots` demonstrations drawn with `seed`; `limit` per task group and `task_ids` choose items as `shopbench
    run` does. Episodes are recorded under `runs` (default runs/verifiers-<benchmark>-<time>)."""
    items_path = None if items is None else str(Path(items).expanduser().resolve())
    environment = shared_environment(spec.name, runs, items=items_path, prompting=prompting, shots=shots, seed=seed)
    [suite] = environment.suites
    chosen = environment.selection(task_ids=task_ids, limit=limit)
    rubric = QuestionRubric(spec, items_path, str(suite.manifest_parameters()["prompting"]))
    return QuestionEnv(spec, environment, suite, [listing for _, listing in chosen], rubric=rubric)
