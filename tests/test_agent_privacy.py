"""Another user of the machine gets nothing of a live installed-agent episode (issue 26): tried as `nobody` while
each agent (Claude Code, Codex, qwen-code from npm, and a `command:` agent) waits on its model, that user can list no
agent folder, read no config, prompt or agent environment, finds no key, address or prompt on the agent's command
line, and is refused (and logged) at the episode's MCP address and at its bridge endpoint even knowing both; a
symlink planted where the run keeps agent folders is refused in one line."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from evaluators.harness.orchestrate import transcript_dir
from evaluators.models import ModelAPI, ModelOutput, ToolCall, register_backend
from evaluators.players.installed import ADAPTERS, AgentSetupError
from evaluators.players.installed.adapter import write_private
from evaluators.players.installed.private import private_parent
from evaluators.players.installed.reaper import marked_pids, owner
from mcp_server.trajectory import iter_episode_files, read_manifest, read_trajectory
from shopbench.cli import app
from tests._fake_llm import FakeLLMServer, shopping_policy

HERE = Path(__file__).resolve().parent
COMMAND = f"command:{sys.executable} {HERE / '_mcp_agent.py'} {{prompt_file}}"
AGENTS = [*ADAPTERS, COMMAND]


def _nobody() -> int | None:
    try:
        return pwd.getpwnam("nobody").pw_uid
    except KeyError:
        return None


NOBODY = _nobody()
as_another_user = pytest.mark.skipif(
    os.geteuid() != 0 or NOBODY is None or shutil.which("setpriv") is None or not Path("/usr/bin/python3").exists(),
    reason="acting as another user needs root, setpriv, /usr/bin/python3 and a user 'nobody'")
ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+/e/[A-Za-z0-9_-]+(?:/mcp)?")

PROBE = r"""
import json, os, sys, urllib.error, urllib.request
job, out = json.loads(sys.argv[1]), {}
def attempt(name, action):
    try:
        out[name] = ["ok", action()]
    except urllib.error.HTTPError as error:
        out[name] = ["http", error.code]
    except PermissionError:
        out[name] = ["denied", None]
    except OSError as error:
        out[name] = ["error", str(error)]
def read(path):
    with open(path, "rb") as source:
        return source.read().decode(errors="replace")
def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.status
attempt("parent", lambda: os.listdir(job["parent"]))
for path in job["files"]:
    attempt("file " + path, lambda path=path: read(path))
for pid in job["pids"]:
    attempt(f"environ {pid}", lambda pid=pid: read(f"/proc/{pid}/environ"))
    attempt(f"cmdline {pid}", lambda pid=pid: read(f"/proc/{pid}/cmdline"))
initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "intruder", "version": "1"}}}
for url in job["mcp"]:
    attempt("mcp " + url, lambda url=url: post(url, initialize))
chat = {"model": "any", "messages": [{"role": "user", "content": "hello"}]}
for url in job["bridge"]:
    attempt("bridge " + url, lambda url=url: post(url + "/v1/chat/completions", chat))
print(json.dumps(out))
"""


async def probe_as_nobody(instruction: str) -> dict[str, Any]:
    """What `nobody` gets of this harness's live agents, and what it should not find (read here, as root)."""
    pids = marked_pids(lambda mark: mark.startswith(f"{owner()}:"))
    roots = {Path(os.readlink(f"/proc/{pid}/cwd")).parent for pid in pids}
    files = [str(path) for root in roots for path in root.rglob("*") if path.is_file()]
    secrets, addresses = {instruction}, set()
    for pid in pids:
        for entry in Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0"):
            name, _, value = entry.partition("=")
            secrets |= {value} if name.endswith("_KEY") and value else set()
            addresses |= set(ADDRESS.findall(value))
    for path in files:
        text = Path(path).read_text(errors="replace")
        addresses |= set(ADDRESS.findall(text))
        secrets |= set(re.findall(r"Bearer ([A-Za-z0-9_-]{20,})", text))
    (parent,) = {root.parent for root in roots}
    job = {"parent": str(parent), "files": files, "pids": pids,
           "mcp": sorted(url for url in addresses if url.endswith("/mcp")),
           "bridge": sorted(url.removesuffix("/v1") for url in addresses if not url.endswith("/mcp"))}
    process = await asyncio.create_subprocess_exec(
        "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "/usr/bin/python3", "-I", "-c", PROBE,
        json.dumps(job), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return {"job": job, "got": json.loads(out), "secrets": sorted(secrets | {url.split("/e/")[1] for url in addresses})}


class Intruder(ModelAPI):
    """Answers the agent's first model call only after `nobody` has tried everything on the live episode, then ends
    the episode; keeps what `nobody` got."""

    found: list[dict[str, Any]] = []
    calls = 0

    def __init__(self) -> None:
        self.spec = "intruder"

    async def generate(self, messages: Any, tools: Any = None, config: Any = None) -> ModelOutput:
        Intruder.calls += 1
        if any(message.role == "tool" for message in messages):
            return ModelOutput(text="done", model=self.spec)
        if not Intruder.found:
            prompt = next(m.content for m in messages if m.role == "user" and "The request:" in m.content)
            Intruder.found.append(await probe_as_nobody(prompt.partition("The request:")[2].strip()))
        return ModelOutput(tool_calls=[ToolCall(id="end", name="terminate", arguments={"status": "failure"})],
                           model=self.spec)


@register_backend("intruder", needs_argument=False, help="test model: another user tries the episode, then it ends")
def _intruder(rest: str, options: Any) -> ModelAPI:
    return Intruder()


@as_another_user
@pytest.mark.parametrize("agent", AGENTS, ids=lambda agent: agent.partition(" ")[0].rpartition("/")[2])
def test_another_user_gets_nothing_of_a_live_episode(agent, default_world, tmp_path):
    Intruder.found.clear()
    Intruder.calls = 0
    out = tmp_path / "run"
    ran = CliRunner().invoke(app, ["run", "shoppingbench", "--agent", agent, "--model", "intruder", "--task-id",
                                   "product-0000", "--world", str(default_world.root), "--out", str(out),
                                   "--no-cache", "--timeout", "120"], catch_exceptions=False)
    assert ran.exit_code == 0, ran.output
    (found,) = Intruder.found
    job, got = found["job"], found["got"]
    assert job["files"] and job["pids"] and len(job["mcp"]) == 1 and len(job["bridge"]) == 1
    assert got["parent"][0] == "denied"
    assert all(got[f"file {path}"][0] == "denied" for path in job["files"])
    # (a process of the agent's that exited meanwhile, as its helpers do, is no longer there to be read at all)
    assert all(got[f"environ {pid}"][0] in ("denied", "error") for pid in job["pids"])
    assert [got[f"environ {pid}"][0] for pid in job["pids"]].count("denied") >= 1
    cmdlines = [got[f"cmdline {pid}"] for pid in job["pids"] if got[f"cmdline {pid}"][0] == "ok"]
    assert cmdlines  # anyone reads a command line
    assert not [secret for secret in found["secrets"] for _, line in cmdlines if secret in line]
    assert not any("The request:" in line or "/e/" in line for _, line in cmdlines)
    assert got[f"mcp {job['mcp'][0]}"] == ["http", 401]
    assert got[f"bridge {job['bridge'][0]}"] == ["http", 401]
    log = (out / "run.log").read_text()
    refusals = [line for line in log.splitlines() if "refused a" in line]
    assert any("reserved episode's address" in line for line in refusals)
    assert any("model bridge refused" in line for line in refusals)
    assert all(f"(uid {NOBODY})" in line for line in refusals), refusals  # who it was
    (path,) = iter_episode_files(out)
    trajectory = read_trajectory(path)
    assert [step.tool for step in trajectory.steps] == ["terminate"]  # nothing of nobody's reached the episode
    summary = json.loads((transcript_dir(out, trajectory.start.episode_id) / "agent.json").read_text())
    assert summary["bridge"]["calls"] == Intruder.calls  # nobody's call was neither answered nor counted


@pytest.fixture
def shared_tmp(monkeypatch):
    """A world-writable, sticky temporary folder (what /tmp is), where this run keeps its agent folders."""
    shared = Path(tempfile.mkdtemp(prefix="shared-tmp-"))
    shared.chmod(0o1777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(shared))
    yield shared
    shutil.rmtree(shared, ignore_errors=True)


@as_another_user
def test_a_symlink_planted_where_agent_folders_go_is_refused_in_one_line(shared_tmp, default_world, tmp_path):
    parent = shared_tmp / f"shopbench-agents-{os.geteuid()}"
    planted = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "ln", "-s",
                              str(shared_tmp), str(parent)], capture_output=True, text=True, check=False)
    assert planted.returncode == 0, planted.stderr
    ran = CliRunner().invoke(app, ["run", "shoppingbench", "--agent", COMMAND, "--model", "heuristic", "--task-id",
                                   "product-0000", "--world", str(default_world.root), "--out", str(tmp_path / "run")])
    assert ran.exit_code != 0
    (line,) = ran.output.strip().splitlines()
    assert f"refusing agent folder parent {parent}: it is a symlink" in line
    assert not (tmp_path / "run" / "episodes").exists() or not list((tmp_path / "run" / "episodes").iterdir())


def test_a_shared_or_foreign_parent_is_refused_and_an_existing_file_is_never_written_through(shared_tmp, tmp_path):
    """(The parent sits in a world-writable sticky folder, as /tmp is.)"""
    parent = private_parent()
    assert stat.S_IMODE(parent.stat().st_mode) == 0o700 and parent.parent == shared_tmp
    parent.chmod(0o755)
    with pytest.raises(AgentSetupError, match="has mode 0755, not 0700"):
        private_parent()
    if NOBODY is not None and os.geteuid() == 0:
        parent.chmod(0o700)
        os.chown(parent, NOBODY, -1)
        with pytest.raises(AgentSetupError, match=f"belongs to uid {NOBODY}"):
            private_parent()
    shared_tmp.chmod(0o777)  # world-writable without the sticky bit: anyone may rename the parent away
    with pytest.raises(AgentSetupError, match="without the sticky bit"):
        private_parent()
    target = tmp_path / "elsewhere"
    (tmp_path / "config.json").symlink_to(target)
    with pytest.raises(FileExistsError):
        write_private(tmp_path / "config.json", "{}")
    assert not target.exists()


def shop_then_stop(body: dict[str, Any]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """shopping_policy's three calls, then an answer without a call (which ends the agent's turn)."""
    if sum(1 for message in body.get("messages", []) if message.get("role") == "assistant") >= 3:
        return "Done.", []
    return shopping_policy(body)


def test_a_replayed_episode_is_answered_from_the_cache_though_its_folder_is_random(default_world, tmp_path):
    """Claude Code's system prompt names its working directory, made by mkdtemp; the model sees it under a stable
    name, so the same episode played again asks the same requests."""
    with FakeLLMServer("openai", shop_then_stop) as fake:
        spec = f"openai-compatible:{fake.base_url}#fake-gpt-4.1"
        for name in ("first", "again"):
            ran = CliRunner().invoke(app, ["run", "shoppingbench", "--agent", "claude-code", "--model", spec,
                                           "--task-id", "product-0000", "--world", str(default_world.root), "--out",
                                           str(tmp_path / name), "--timeout", "120"], catch_exceptions=False)
            assert ran.exit_code == 0, ran.output
            if name == "first":
                asked = len(fake.requests)
                assert asked >= 3 and any("shopbench-agents-" in json.dumps(body) for body in fake.requests)
    assert len(fake.requests) == asked  # the replay made no model call
    assert read_manifest(tmp_path / "again").notes["cache_hits"] == asked
    seen = json.dumps(fake.requests)
    assert str(private_parent()) in seen and not re.search(r"product-0000-e0-[a-z0-9_]{8}", seen)
