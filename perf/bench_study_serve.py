"""The browser study under load: memory per connected participant and keystroke-to-screen latency of
`shopbench study serve` with 1, 10 and 20 participants connected at once (aim: p95 under 150 ms at 20).

Run: .venv/bin/python perf/bench_study_serve.py [--participants 1,10,20] [--keys 20] [--kind annotation|baseline]
A study is made in a temporary folder (annotation: generated SessionIntentBench items, no world; baseline: one
ShoppingBench task of the default world, whose app processes each open the world's search), served on a free loopback
port, and N pages of one headless Debian Chromium (Playwright with the system browser) open N participants' links
and agree to the consent. Then, one participant after another in turn, a key that changes the screen (tab: the focus
moves between the instructions' buttons) is pressed; the latency is from the page sending the key over its websocket
to the first screen update arriving in the page (a WebSocket wrapper in the page timestamps both; xterm.js paints
that frame within the same task). Memory: the resident set of every app process the server started, summed over
/proc, divided by N, and the server's own. Prints medians, p95 and the machine's load.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("SHOPBENCH_HOME", str(REPO / ".shopbench-cache"))

from evaluators.studies.create import StudySettings, create_annotation, create_baseline  # noqa: E402
from evaluators.studies.manifest import Study  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
WRAP_WEBSOCKET = """
(() => {
  const Native = window.WebSocket;
  window.__keys = []; window.__latency = [];
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (typeof data === "string" && data.startsWith('["stdin"')) window.__keys.push(performance.now());
      return send(data);
    };
    socket.addEventListener("message", () => {
      if (window.__keys.length) window.__latency.push(performance.now() - window.__keys.shift());
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();
"""


def make_study(folder: Path, kind: str, participants: int) -> Study:
    settings = StudySettings(participants=participants, raters=1, qualification=0, attention=0, practice=False)
    if kind == "baseline":
        from mcp_server.shopping.world_build import default_world

        task = next(t for t in default_world().tasks("generated") if t.intent == "product")
        return create_baseline(folder, "shoppingbench", settings, task_ids=[task.task_id])
    from tests._study import generated_items

    generated_items(folder.parent / "generated.jsonl")
    return create_annotation(folder, folder.parent / "generated.jsonl", settings)


def descendants_rss(pid: int) -> tuple[int, int]:
    """(app processes under `pid`, their summed resident set in bytes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], list(children.get(pid, []))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, []))
    return len(found), sum(rss(child) for child in found)


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(kind: str, count: int, keys: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        study = make_study(Path(tmp) / "study", kind, count)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, "-m", "shopbench.cli", "study", "serve", str(study.folder),
                                   "--port", str(port), "--max-participants", str(count)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(url + "/", timeout=2)
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                pages = []
                for seat in study.manifest.participants:
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    page.add_init_script(WRAP_WEBSOCKET)
                    page.goto(f"{url}/p/{seat.token}")
                    pages.append(page)
                for page in pages:
                    page.wait_for_selector("body.-first-byte", state="attached", timeout=120_000)
                time.sleep(3)
                for page in pages:  # consent, then the instructions' screen
                    page.locator(".xterm-helper-textarea").focus()
                    page.keyboard.press("y")
                time.sleep(3)
                for page in pages:
                    page.evaluate("window.__latency = []; window.__keys = []")
                for _ in range(keys):
                    for page in pages:
                        page.locator(".xterm-helper-textarea").focus()
                        page.keyboard.press("Tab")
                        page.wait_for_function("window.__keys.length === 0", timeout=10_000)
                latencies = [value for page in pages for value in page.evaluate("window.__latency")]
                processes, app_rss = descendants_rss(server.pid)
                server_rss = rss(server.pid)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    latencies.sort()
    return {"participants": count, "keys": len(latencies), "p50_ms": statistics.median(latencies),
            "p95_ms": latencies[int(0.95 * (len(latencies) - 1))], "processes": processes,
            "mib_per_participant": app_rss / count / 2**20, "server_mib": server_rss / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--participants", default="1,10,20")
    parser.add_argument("--keys", type=int, default=20, help="keys per participant")
    parser.add_argument("--kind", choices=("annotation", "baseline"), default="annotation")
    options = parser.parse_args()
    print(f"study serve ({options.kind}), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at start")
    for count in (int(n) for n in options.participants.split(",")):
        figures = measure(options.kind, count, options.keys)
        print(f"{count:>3} participants: keystroke→screen p50 {figures['p50_ms']:.1f} ms, p95 "
              f"{figures['p95_ms']:.1f} ms over {figures['keys']} keys; {figures['mib_per_participant']:.0f} MiB "
              f"per participant ({figures['processes']} processes), server {figures['server_mib']:.0f} MiB; "
              f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
