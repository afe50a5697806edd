"""The episode core: one writer of trajectories, a typed status on every result, ids that name one episode, and run
folders shared safely by several processes."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from mcp import Client

from mcp_server.episode_client import EpisodeClient
from mcp_server.episodes import Episode, EpisodeError, ensure_manifest
from mcp_server.qa_suites import QUESTION_STEPS, QASuite
from mcp_server.server import build_server
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.trajectory import AgentInfo, episode_path, read_manifest, read_trajectory

PLAYER = AgentInfo(kind="human", name="tester")


@pytest.fixture(scope="module")
def questions() -> QASuite:
    return QASuite("intentionqa")


def test_status_counts_steps_and_says_why_the_episode_ended(default_world, tmp_path):
    suite = ShoppingSuite(default_world, "generated")
    task_id = suite.listings()[0].task_id
    episode = Episode(tmp_path, suite, task_id, agent=PLAYER, sandbox=_sandbox(default_world), max_steps=3)
    assert episode.status.state == "running" and episode.status.steps_left == 3
    first = episode.call("find_product", {"q": "bag", "page": 9})
    assert first.is_error and first.status.steps_used == 1 and first.status.steps_left == 2 and not first.ended
    second = episode.call("terminate", {"status": "failure"})
    assert second.ended and second.status.end_reason == "terminated" and second.status.steps_left == 0
    after = episode.call("find_product", {"q": "bag", "page": 1})
    assert after.is_error and after.status.end_reason == "terminated" and after.status.steps_used == 2


def test_step_limit_ends_the_episode_in_the_status(default_world, tmp_path):
    suite = ShoppingSuite(default_world, "generated")
    episode = Episode(tmp_path, suite, suite.listings()[0].task_id, agent=PLAYER, sandbox=_sandbox(default_world),
                      max_steps=1)
    result = episode.call("calculate", {"expression": "1+1"})
    assert result.ended and result.status.end_reason == "step_limit"
    assert read_trajectory(episode.path).end.status == "step_limit"


def test_a_malformed_turn_is_recorded_as_it_was(questions, tmp_path):
    task_id = questions.listings()[0].task_id
    episode = Episode(tmp_path, questions, task_id, agent=PLAYER, max_steps=30)
    result = episode.record_malformed("I think B", "it holds no tool call", "Reply with a call to one of the tools.")
    assert result.is_error and result.observation == "Reply with a call to one of the tools."
    (step,) = read_trajectory(episode.path).steps
    assert step.tool == "" and step.arguments == {} and step.observation == result.observation
    assert step.malformed is not None and step.malformed.raw == "I think B"
    assert step.malformed.error == "it holds no tool call"
    # a question suite allows a few steps: the malformed turn did not use up the answer
    assert not result.ended and result.status.steps_left == QUESTION_STEPS - 1


def test_a_question_episode_recovers_from_wrong_calls_then_ends_at_its_answer(questions, tmp_path):
    task_id = questions.listings()[0].task_id
    episode = Episode(tmp_path, questions, task_id, agent=PLAYER, max_steps=30)
    assert episode.max_steps == QUESTION_STEPS == 3
    wrong = episode.call("view_product_information", {"product_ids": "1"})
    assert wrong.is_error and "not available in this episode" in wrong.observation and not wrong.ended
    result = episode.call("submit_answer", {"answer": "A"})
    assert result.ended and result.status.end_reason == "submitted"
    assert read_trajectory(episode.path).end.answer == "A"
    wrong_only = Episode(tmp_path, questions, task_id, agent=PLAYER)
    for _ in range(QUESTION_STEPS):
        last = wrong_only.call("submit_answer", {})
    assert last.ended and last.status.end_reason == "step_limit"


def test_an_episode_id_names_exactly_one_episode(questions, tmp_path):
    task_id = questions.listings()[0].task_id
    running = Episode(tmp_path, questions, task_id, agent=PLAYER, episode_id="mine")
    before = running.path.read_bytes()
    with pytest.raises(EpisodeError, match="already taken"):
        Episode(tmp_path, questions, task_id, agent=AgentInfo(kind="mcp-client", name="intruder"),
                episode_id="mine")
    assert running.path.read_bytes() == before
    running.call("submit_answer", {"answer": "B"})
    with pytest.raises(EpisodeError, match="already taken"):
        Episode(tmp_path, questions, task_id, agent=PLAYER, episode_id="mine")
    trajectory = read_trajectory(running.path)
    assert trajectory.start.agent.name == "tester" and trajectory.end.answer == "B"


async def test_every_episode_result_carries_the_status_over_mcp(questions, tmp_path):
    server = build_server(None, [questions], tmp_path)
    async with Client(server, mode="legacy") as session:
        client = EpisodeClient(session)
        tasks = await client.list_tasks()
        started = await client.start(tasks[0]["task_id"], agent=PLAYER, epoch=2)
        assert started.episode.state == "running" and started.max_steps == QUESTION_STEPS
        assert started.question is not None and started.question["user"] in started.instruction
        reply = await client.call("submit_answer", {"answer": "C"})
        assert not reply.is_error and reply.ended and reply.status.end_reason == "submitted"
        late = await client.call("submit_answer", {"answer": "D"})
        assert late.is_error and late.status is not None and late.status.end_reason == "submitted"
    trajectory = read_trajectory(episode_path(tmp_path, started.episode_id))
    assert trajectory.start.epoch == 2 and trajectory.end.answer == "C" and len(trajectory.steps) == 1


def _write_manifests(run_dir: str, worker: int, rounds: int) -> None:
    from evaluators.harness.manifest import update_notes

    suite = QASuite("intentionqa")
    for index in range(rounds):
        ensure_manifest(Path(run_dir), suite=suite, agent=PLAYER, max_steps=1)
        update_notes(Path(run_dir), **{f"w{worker}": index})


def test_processes_sharing_a_run_folder_never_tear_the_manifest(tmp_path):
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_manifests, args=(str(tmp_path), worker, 150)) for worker in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
    assert [process.exitcode for process in workers] == [0, 0, 0, 0]
    notes = read_manifest(tmp_path).notes
    assert {key: notes[key] for key in ("w0", "w1", "w2", "w3")} == {f"w{w}": 149 for w in range(4)}
    assert not list(tmp_path.glob("*.tmp"))
    json.loads((tmp_path / "manifest.json").read_text())


def _sandbox(world):
    from mcp_server.shopping.tools import Sandbox

    return Sandbox.for_world(world)


def _open_files() -> int:
    return len(list(Path("/proc/self/fd").iterdir()))


def test_an_episode_keeps_its_file_open_only_while_it_runs(default_world, tmp_path):
    suite = ShoppingSuite(default_world, "generated")
    task_ids = [listing.task_id for listing in suite.listings()[:3]]
    sandbox = _sandbox(default_world)
    before = _open_files()
    episodes = [Episode(tmp_path, suite, task_id, agent=PLAYER, sandbox=sandbox) for task_id in task_ids]
    episodes[0].call("calculate", {"expression": "2*3"})
    assert read_trajectory(episodes[0].path).steps[0].observation == 6  # each event is on disk as it happens
    assert _open_files() == before + 3
    episodes[0].call("terminate", {"status": "success"})
    episodes[1].abandon()
    assert _open_files() == before + 1
    episodes[2].call("calculate", {"expression": "1"})
    assert _open_files() == before + 1  # still running after another step
    episodes[2].abandon()
    assert _open_files() == before
    assert [read_trajectory(e.path).end.status for e in episodes] == ["terminated", "abandoned", "abandoned"]
