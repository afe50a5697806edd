"""A full disk never corrupts a trajectory: a write that fails (injected here as ENOSPC from os.write on the run
folder's files, after a short write as a filling disk gives) ends the episode as an error and never reaches the file
later; a start_task whose first write fails leaves no file; `shopbench run` stops with one line, and `--resume`
completes the run with every episode exactly once."""

from __future__ import annotations

import errno
import os
import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from mcp import Client
from typer.testing import CliRunner

from evaluators.harness.orchestrate import PARTIAL_DIR
from mcp_server.episode_client import EpisodeCallError, EpisodeClient
from mcp_server.episodes import Episode
from mcp_server.server import build_server
from mcp_server.shopping.suite import ShoppingSuite
from mcp_server.shopping.tools import Sandbox
from mcp_server.trajectory import MANIFEST_LOCK_FILE, AgentInfo, episode_path, iter_episode_files, read_trajectory
from shopbench.cli import app

PLAYER = AgentInfo(kind="mcp-client", name="write-failure-test")
FOREVER = -1


class DiskFull:
    """os.write on files under `folder` as a disk that fills up: `calls` writes go through, the next writes half its
    bytes (a short write), and the `failures` after it raise ENOSPC (FOREVER: until `refill`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, folder: Path, calls: int, failures: int = FOREVER) -> None:
        self.folder = str(folder.resolve())
        self.calls, self.failures, self.refused = calls, failures, 0
        self._real = os.write
        monkeypatch.setattr(os, "write", self._write)

    def refill(self) -> None:
        self.calls, self.failures = 1 << 30, 0

    def _write(self, fd: int, data: bytes | memoryview) -> int:
        if not os.readlink(f"/proc/self/fd/{fd}").startswith(self.folder):
            return self._real(fd, data)
        if self.calls > 0:
            self.calls -= 1
            return self._real(fd, data)
        if self.calls == 0:
            self.calls = -1
            return self._real(fd, bytes(data)[: len(data) // 2])
        if self.failures == 0:
            return self._real(fd, data)
        self.failures -= 1
        self.refused += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _suite(world) -> ShoppingSuite:
    return ShoppingSuite(world, "generated")


def _consistent(path: Path) -> list[str]:
    """The file's step tools, after checking that every line is a whole event and the steps are numbered 0..n-1."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n"), "a torn last line"
    trajectory = read_trajectory(path)
    assert [step.index for step in trajectory.steps] == list(range(len(trajectory.steps)))
    assert len(text.splitlines()) == 1 + len(trajectory.steps) + (trajectory.end is not None)
    return [str(step.arguments.get("expression", step.tool)) for step in trajectory.steps]


@pytest.mark.parametrize("failures", [1, FOREVER], ids=["space-returns", "disk-stays-full"])
async def test_a_failed_step_write_ends_the_episode_and_never_reaches_the_file(default_world, tmp_path, monkeypatch,
                                                                              failures):
    server = build_server(default_world, [_suite(default_world)], tmp_path)
    async with Client(server, mode="legacy") as session:
        client = EpisodeClient(session)
        task_id = (await client.list_tasks())[0]["task_id"]
        disk = DiskFull(monkeypatch, tmp_path, calls=3, failures=failures)  # start, 1+1, 2+2; then 3+3 fails
        started = await client.start(task_id, agent=PLAYER)
        for expression in ("1+1", "2+2"):
            assert not (await client.call("calculate", {"expression": expression})).is_error
        failed = await client.call("calculate", {"expression": "3+3"})
        assert failed.is_error and "No space left on device" in failed.text
        assert failed.status is not None and failed.status.state == "ended" and failed.status.end_reason == "error"
        assert failed.status.steps_used == 2  # the failed step is not counted
        disk.refill()
        after = await client.call("calculate", {"expression": "4+4"})
        assert after.is_error and after.status is not None and after.status.end_reason == "error"
    path = episode_path(tmp_path, started.episode_id)
    assert _consistent(path) == ["1+1", "2+2"]
    end = read_trajectory(path).end
    if failures == FOREVER:  # the end could not be written either: the file reads as unfinished (--resume replays)
        assert end is None
    else:
        assert end is not None and end.status == "error" and end.steps == 2
        assert end.message is not None and "No space left on device" in end.message


async def test_a_start_task_whose_first_write_fails_leaves_no_file(default_world, tmp_path, monkeypatch):
    server = build_server(default_world, [_suite(default_world)], tmp_path)
    async with Client(server, mode="legacy") as session:
        client = EpisodeClient(session)
        task_id = (await client.list_tasks())[0]["task_id"]
        disk = DiskFull(monkeypatch, tmp_path, calls=0, failures=1)
        with pytest.raises(EpisodeCallError, match="No space left on device"):
            await client.start(task_id, agent=PLAYER, episode_id="mine")
        assert disk.refused == 1 and not episode_path(tmp_path, "mine").exists()
        started = await client.start(task_id, agent=PLAYER, episode_id="mine")  # the id was not used up
        assert not (await client.call("terminate", {"status": "failure"})).is_error
    assert started.episode_id == "mine" and read_trajectory(episode_path(tmp_path, "mine")).end.status == "terminated"


def test_an_episode_abandoned_on_a_full_disk_raises_nothing_and_keeps_its_steps(default_world, tmp_path,
                                                                                  monkeypatch):
    suite = _suite(default_world)
    episode = Episode(tmp_path, suite, suite.listings()[0].task_id, agent=PLAYER,
                      sandbox=Sandbox.for_world(default_world))
    episode.call("calculate", {"expression": "5*5"})
    DiskFull(monkeypatch, tmp_path, calls=0)
    episode.abandon("the client disconnected")
    assert episode.status.end_reason == "error" and _consistent(episode.path) == ["5*5"]
    assert read_trajectory(episode.path).end is None


@contextmanager
def _file_size_limit(size: int) -> Iterator[None]:
    """The kernel refuses to grow any file of this process past `size` bytes (EFBIG, after a short write): a write
    failure below every Python layer, whichever way the writer writes."""
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # refused writes fail instead of killing the process
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, limits[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, handler)


def test_a_write_the_kernel_refuses_is_never_written_later(default_world, tmp_path):
    """The reported corruption: the failed step stayed in the file object's buffer and was written with the next
    event once space returned (step indices [0, 1, 1])."""
    suite = _suite(default_world)
    episode = Episode(tmp_path, suite, suite.listings()[0].task_id, agent=PLAYER,
                      sandbox=Sandbox.for_world(default_world))
    episode.call("calculate", {"expression": "1+1"})
    with _file_size_limit(episode.path.stat().st_size + 10):
        failed = episode.call("calculate", {"expression": "2+2"})
    assert failed.is_error and failed.status.end_reason == "error" and "File too large" in str(failed.observation)
    later = episode.call("calculate", {"expression": "3+3"})
    assert later.is_error and later.status.steps_used == 1
    episode.abandon()
    assert _consistent(episode.path) == ["1+1"] and read_trajectory(episode.path).end is None


RUN = ["run", "shoppingbench", "--model", "heuristic", "--intent", "product", "--limit", "3", "--no-cache"]
EPISODES = [f"product-{index:04d}-e0" for index in range(3)]


@pytest.mark.parametrize("where", ["step", "start"])
def test_a_run_on_a_full_disk_stops_in_one_line_and_resume_completes_it(default_world, tmp_path, monkeypatch, where):
    command = [*RUN, "--world", str(default_world.root)]
    learn = CliRunner().invoke(app, [*command, "--out", str(tmp_path / "learn")])
    assert learn.exit_code == 0, learn.output
    first = len(episode_path(tmp_path / "learn", EPISODES[0]).read_text().splitlines())
    out = tmp_path / "run"
    # the first episode's events go through; the second episode's start (or its second step) is the failing write
    disk = DiskFull(monkeypatch, out, calls=first + (0 if where == "start" else 2))
    full = CliRunner().invoke(app, [*command, "--out", str(out)])
    assert full.exit_code == 1, full.output
    assert "Traceback" not in full.output
    stops = [line for line in full.output.splitlines() if "cannot write to" in line]
    assert stops == [f"shopbench run: cannot write to {out} (No space left on device); free space, then resume with "
                     f"the same command and --resume --out {out}"], full.output
    assert [path.stem for path in iter_episode_files(out)] == EPISODES[:1 if where == "start" else 2]
    assert [path.name for path in out.rglob("*") if path.is_file() and not path.stat().st_size] == [MANIFEST_LOCK_FILE]
    assert read_trajectory(episode_path(out, EPISODES[0])).end.status == "terminated"
    if where == "step":  # start and first step kept, nothing after; unfinished, so --resume plays it again
        second = episode_path(out, EPISODES[1])
        assert len(_consistent(second)) == 1 and read_trajectory(second).end is None
    disk.refill()
    resumed = CliRunner().invoke(app, [*command, "--out", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert [path.stem for path in iter_episode_files(out)] == EPISODES
    for path in iter_episode_files(out):
        _consistent(path)
        assert read_trajectory(path).end.status == "terminated"
    set_aside = sorted(path.name.split(".")[0] for path in (out / PARTIAL_DIR).glob("*.jsonl"))
    assert set_aside == ([] if where == "start" else [EPISODES[1]])
