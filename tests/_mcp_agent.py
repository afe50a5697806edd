"""A small MCP agent for `shopbench run --agent command:…` tests: OpenAI Chat Completions to the model bridge
($OPENAI_BASE_URL), shopbench's tools over streamable HTTP (at the URL it is given, else $SHOPBENCH_MCP_URL, with
$SHOPBENCH_MCP_KEY as its bearer credential), one tool call at a time, until the model answers without a call.

`--hang PIDFILE`: after its first tool call it starts a child that ignores SIGTERM, writes both pids to PIDFILE and
waits forever, ignoring SIGTERM itself (what the harness must end at --timeout). `--strays PIDFILE`: after its first
tool call it leaves a double-forked daemon (one more with an emptied environment) and a `setsid` child behind, all
ignoring SIGTERM (what must not outlive its episode). `--no-tools`: it offers the model no tool (an agent whose MCP
connection silently failed), so the model can only answer in text. `--linger`: once the model answers in text it
prints its result and waits forever with its MCP session open (never closing it: the harness ends it). `--flood
BYTES`: it first writes BYTES of JSON-looking lines to stdout."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

DAEMON = """import os, signal, sys, time
if os.fork():
    sys.exit(0)
os.setsid()
if os.fork():
    sys.exit(0)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(3600)
"""
IGNORE_TERM = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(3600)"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url", nargs="?", help="the MCP address (default: $SHOPBENCH_MCP_URL)")
    parser.add_argument("prompt_file")
    parser.add_argument("--hang")
    parser.add_argument("--strays")
    parser.add_argument("--no-tools", action="store_true")
    parser.add_argument("--linger", action="store_true")
    parser.add_argument("--flood", type=int, default=0)
    args = parser.parse_args()
    prompt = Path(args.prompt_file).read_text(encoding="utf-8")
    base, key = os.environ["OPENAI_BASE_URL"], os.environ["OPENAI_API_KEY"]
    url = args.url or os.environ["SHOPBENCH_MCP_URL"]
    credential = {"Authorization": f"Bearer {os.environ['SHOPBENCH_MCP_KEY']}"}
    flood(args.flood)
    async with (create_mcp_http_client(headers=credential) as transport,
                Client(streamable_http_client(url, http_client=transport), mode="legacy") as session,
                httpx.AsyncClient(timeout=120) as http):
        listed = [] if args.no_tools else (await session.list_tools()).tools
        tools = [{"type": "function", "function": {"name": tool.name, "description": tool.description or "",
                                                   "parameters": tool.input_schema}} for tool in listed]
        messages: list[dict] = [{"role": "user", "content": prompt}]
        for _ in range(50):
            reply = await http.post(f"{base}/chat/completions", headers={"Authorization": f"Bearer {key}"},
                                    json={"model": "any", "messages": messages, **({"tools": tools} if tools else {})})
            reply.raise_for_status()
            message = reply.json()["choices"][0]["message"]
            messages.append(message)
            calls = message.get("tool_calls") or []
            if not calls:
                print(json.dumps({"type": "result", "text": message.get("content")}), flush=True)
                if args.linger:
                    await asyncio.Event().wait()
                return
            for call in calls:
                function = call["function"]
                if args.no_tools:  # it has no tools: whatever the model calls is unknown to it
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": "no such tool"})
                    continue
                result = await session.call_tool(function["name"], json.loads(function["arguments"] or "{}"))
                text = "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
                print(json.dumps({"type": "tool", "name": function["name"]}), flush=True)
                if args.strays:
                    strays(args.strays)
                    args.strays = None
                if args.hang:
                    hang(args.hang)


def strays(pidfile: str) -> None:
    """Leave behind a double-forked daemon, another started with an empty environment, and a `setsid` child, all
    ignoring SIGTERM; their pids go to PIDFILE."""
    daemon, scrubbed = Path(pidfile + ".daemon"), Path(pidfile + ".scrubbed")
    subprocess.run([sys.executable, "-c", DAEMON, str(daemon)], check=True)
    subprocess.run(["env", "-i", sys.executable, "-c", DAEMON, str(scrubbed)], check=True)
    while not (daemon.exists() and scrubbed.exists()):
        time.sleep(0.01)
    child = subprocess.Popen([sys.executable, "-c", IGNORE_TERM], start_new_session=True)
    Path(pidfile).write_text(json.dumps({"daemon": int(daemon.read_text()), "scrubbed": int(scrubbed.read_text()),
                                         "setsid": child.pid}))


def flood(size: int) -> None:
    line = json.dumps({"type": "noise", "text": "x" * 200}).encode() + b"\n"
    block = line * (1024 * 1024 // len(line))
    for _ in range(size // len(block)):
        sys.stdout.buffer.write(block)
    sys.stdout.buffer.flush()


def hang(pidfile: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", IGNORE_TERM])
    with open(pidfile, "w") as out:
        json.dump([os.getpid(), child.pid], out)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    asyncio.run(main())
