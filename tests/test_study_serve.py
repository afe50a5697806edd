"""`shopbench study serve` in headless Chromium (Debian's /usr/bin/chromium driven by Playwright; no browser is
downloaded): a participant's link opens the study's Textual screens through textual-serve; the keys typed in the page
agree to the consent, search in a ShoppingBench task, the page is reloaded mid-task, the path resumes at the same task
and is finished; the trajectories hold the events a terminal session writes. An unknown link starts no app process,
and the cap on participants refuses one connection more."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evaluators.studies.create import StudySettings, create_baseline
from evaluators.studies.manifest import Participant
from evaluators.studies.progress import read_progress
from mcp_server.trajectory import iter_episode_files, read_trajectory

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition: Callable[[], object], what: str, limit: float = 90.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


@pytest.fixture
def served(default_world, tmp_path: Path) -> Iterator[tuple[object, str, str]]:
    """A one-task ShoppingBench study (no qualification, practice or checks), served on a free loopback port with
    room for one participant at a time."""
    task = next(t for t in default_world.tasks("generated") if t.intent == "product")
    study = create_baseline(tmp_path / "study", "shoppingbench",
                            StudySettings(participants=2, raters=1, qualification=0, attention=0, practice=False),
                            task_ids=[task.task_id])
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "shopbench.cli", "study", "serve", str(study.folder), "--port",
                               str(port), "--max-participants", "1"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: http_status(url + "/") == 200, "the server")
        yield study, url, task.targets[0].title[0]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_participant_link_plays_reloads_resumes_and_finishes_in_chromium(served) -> None:
    from playwright.sync_api import sync_playwright

    study, url, query = served
    seat = study.manifest.participants[0]
    log = study.log_path(seat.participant_id)
    runs = study.episodes_dir(seat.participant_id, "tasks")
    assert http_status(f"{url}/p/not-a-token") == 404

    def steps() -> list[list[str]]:
        return [[step.tool for step in read_trajectory(path).steps] for path in iter_episode_files(runs)]

    def events() -> list[str]:
        return [e.event for e in read_progress(study, seat.participant_id).events] if log.exists() else []

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1000})

        def keys(*pressed: str) -> None:
            page.locator(".xterm-helper-textarea").focus()
            for key in pressed:
                page.keyboard.press(key)

        def keys_until(pressed: tuple[str, ...], condition: Callable[[], object], what: str) -> None:
            """Press again until it shows on disk: a key sent before the app has drawn the screen it is meant for
            is lost (a loaded machine starts the app process slowly); a spare `y` is typed into the search box."""
            deadline = time.monotonic() + 90
            while not condition():
                assert time.monotonic() < deadline, f"timed out waiting for {what}"
                keys(*pressed)
                for _ in range(15):
                    if condition():
                        return
                    time.sleep(0.2)

        page.goto(f"{url}/p/{seat.token}")
        page.wait_for_selector("body.-first-byte", state="attached", timeout=90_000)
        keys_until(("y",), lambda: "consented" in events(), "consent recorded")
        keys_until(("y",), lambda: len(steps()) == 1, "the instructions, the break, the episode's start")
        time.sleep(1)
        page.keyboard.type(query.split()[0])
        keys("Enter")
        wait_for(lambda: steps() == [["find_product"]], "the search")

        other = browser.new_page()  # the cap: a second participant now gets no app process, the page says so
        other.goto(f"{url}/p/{study.manifest.participants[1].token}")
        other.wait_for_selector("body.-closed", state="attached", timeout=30_000)
        assert "-first-byte" not in other.evaluate("document.body.className")
        other.close()

        page.reload()  # mid-task: the episode is abandoned, the task comes back
        page.wait_for_selector("body.-first-byte", state="attached", timeout=90_000)
        wait_for(lambda: all(read_trajectory(p).end is not None for p in iter_episode_files(runs)), "abandoned")
        keys_until(("y",), lambda: len(steps()) == 2, "the break before the same task, and its new episode")
        time.sleep(1)
        page.keyboard.type(query.split()[0])
        keys("Enter")
        wait_for(lambda: sorted(steps()) == [["find_product"], ["find_product"]], "the second search")
        keys_until(("Control+t", "s"), lambda: "completed" in events(), "terminate, then the completion code")
        browser.close()

    trajectories = sorted((read_trajectory(p) for p in iter_episode_files(runs)), key=lambda t: t.start.started_at)
    assert [t.end.status for t in trajectories] == ["abandoned", "terminated"]
    assert [s.tool for s in trajectories[1].steps] == ["find_product", "terminate"]
    assert all(t.start.agent.kind == "human" and t.start.agent.name == seat.participant_id for t in trajectories)
    progress = read_progress(study, seat.participant_id)
    assert list(progress.done) == [trajectories[0].start.task_id]
    assert progress.done[trajectories[0].start.task_id].episode_id == trajectories[1].start.episode_id


def test_other_hosts_open_seats_by_token_only(tmp_path: Path) -> None:
    from evaluators.studies.manifest import QualificationSpec, Study, StudyManifest
    from shopbench_tui.study.serve import StudyServer

    seat = Participant(participant_id="P01", token="secret-token", queue=["t"])
    manifest = StudyManifest(name="s", kind="baseline", benchmark="shoppingbench", tasks=["t"], participants=[seat],
                             qualification=QualificationSpec(benchmark="shopping-mmlu"), secret="k")
    study = Study.write(tmp_path / "s", manifest)
    local, public = StudyServer(study), StudyServer(study, host="0.0.0.0", public_url="https://study.example.org")
    assert local.seat_for("P01") == seat and local.seat_for("secret-token") == seat
    assert public.seat_for("P01") is None and public.seat_for("secret-token") == seat
    assert public.seat_for("secret-tokens") is None
    assert public.link(seat) == "https://study.example.org/p/secret-token"
    assert "--participant secret-token" in public.command_for(seat)
