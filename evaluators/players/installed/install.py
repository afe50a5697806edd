"""Where an installed agent's executable comes from: `--agent-bin PATH`, or its pinned npm package, installed once
into $SHOPBENCH_HOME/agents/<package>@<version> with `npm install --prefix` and reused by every later run."""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
from pathlib import Path

from benchmarks.home import shopbench_home
from evaluators.players.installed.adapter import AgentAdapter, AgentSetupError

log = logging.getLogger("shopbench.agents")

INSTALL_TIMEOUT_S = 600.0


def agents_home() -> Path:
    return shopbench_home() / "agents"


def package_folder(package: str) -> Path:
    """$SHOPBENCH_HOME/agents/<package@version>, the scope's slash made a "+" ("@openai+codex@0.169.0")."""
    return agents_home() / package.lstrip("@").replace("/", "+")


def find_executable(adapter: AgentAdapter, agent_bin: Path | None = None) -> Path | None:
    """The agent's executable: `agent_bin` when given, else its pinned package's (installed now if missing);
    None for an agent started from a command template."""
    if agent_bin is not None:
        path = Path(agent_bin).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise AgentSetupError(f"--agent-bin {agent_bin}: not an executable file")
        return path.resolve()
    if adapter.package is None:
        return None
    folder = package_folder(adapter.package)
    executable = folder / "node_modules" / ".bin" / adapter.executable
    if not executable.exists():
        install(adapter.package, folder)
    if not executable.exists():
        raise AgentSetupError(f"npm installed {adapter.package} into {folder}, but it has no {adapter.executable} "
                              "executable; pass --agent-bin PATH")
    return executable


def install(package: str, folder: Path) -> None:
    """`npm install --prefix` into a private folder, renamed into place when complete: an install that fails or is
    interrupted leaves nothing half-installed, and concurrent runs wait for one another (a lock file)."""
    npm = shutil.which("npm")
    if npm is None:
        raise AgentSetupError(f"installing {package} needs npm (Node.js 20 or later): install Node.js, or pass "
                              "--agent-bin PATH to an installed agent")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if folder.exists():
            return
        staging = folder.parent / f".{folder.name}.installing-{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        log.warning("installing %s into %s (once; later runs reuse it)", package, folder)
        try:
            done = subprocess.run([npm, "install", "--prefix", str(staging), "--no-fund", "--no-audit",
                                   "--no-update-notifier", package], capture_output=True, text=True,
                                  timeout=INSTALL_TIMEOUT_S, stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            shutil.rmtree(staging, ignore_errors=True)
            raise AgentSetupError(f"npm install {package} took over {INSTALL_TIMEOUT_S:g} s; try again, or pass "
                                  "--agent-bin PATH") from None
        if done.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            last = (done.stderr or done.stdout).strip().splitlines()
            raise AgentSetupError(f"npm install {package} failed ({last[-1] if last else f'exit {done.returncode}'});"
                                  " pass --agent-bin PATH to an installed agent")
        staging.rename(folder)
