"""Private per-episode state: where an agent's folders live, so no other user of the machine reads its config (its
episode's address and credentials), its prompt or its session files, or plants a symlink the run would follow.

Every agent folder is made by mkdtemp (unpredictable name, mode 0700) inside one parent per user,
`$XDG_RUNTIME_DIR/shopbench-agents-<uid>` (when that directory is this user's) or else `$TMPDIR/shopbench-agents-<uid>`,
which is checked before each use: a real directory (not a symlink), owned by this user, with no access for anyone
else; anything else, or a world-writable base without the sticky bit (where another user could rename it away), is
refused in one line. Config files are written 0600 without following a symlink (adapter.write_private).

The agent's own system prompt names its working directory, and the response cache keys on the whole request, so a
random folder name would make every replayed episode miss the cache. The model therefore sees the folder under a
stable name, `<parent>/<episode_id>` (the path it would have had were it predictable): `HiddenFolder` swaps the
random name for the episode's in every message before the model and its cache read them.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from evaluators.models.base import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ToolSpec, WrappedModel
from evaluators.players.installed.adapter import AgentSetupError

UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class AgentFolders:
    """One episode's agent folders: `root` (mkdtemp) holding `workdir` and `home`; `shown` is what the model sees."""

    root: Path
    workdir: Path
    home: Path
    shown: Path


def private_parent() -> Path:
    """The per-user parent of every agent folder, made 0700 when missing and checked either way."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = Path(runtime if runtime and _owned(Path(runtime)) else tempfile.gettempdir())
    with contextlib.suppress(OSError):
        if os.stat(base).st_mode & (stat.S_IWOTH | stat.S_ISVTX) == stat.S_IWOTH:
            raise AgentSetupError(f"agent folders: {base} is writable by every user without the sticky bit (anyone "
                                  "could replace a folder in it); set TMPDIR to a private directory")
    parent = base / f"shopbench-agents-{os.geteuid()}"
    try:
        os.mkdir(parent, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise AgentSetupError(f"agent folders: cannot make {parent} ({error.strerror}); set TMPDIR to a writable "
                              "directory") from None
    check_private(parent)
    return parent


def _owned(folder: Path) -> bool:
    """Whether `folder` is this user's (a runtime directory another user owns, as under sudo, is not used)."""
    try:
        return os.stat(folder).st_uid == os.geteuid()
    except OSError:
        return False


def check_private(folder: Path) -> None:
    """Refuse `folder` unless it is a directory (not a symlink), owned by this user, that no one else may enter."""
    try:
        info = os.lstat(folder)
    except OSError as error:
        raise AgentSetupError(f"agent folders: cannot use {folder} ({error.strerror})") from None
    problem = ("is a symlink" if stat.S_ISLNK(info.st_mode) else
               "is not a directory" if not stat.S_ISDIR(info.st_mode) else
               f"belongs to uid {info.st_uid}, not {os.geteuid()}" if info.st_uid != os.geteuid() else
               f"has mode {stat.S_IMODE(info.st_mode):04o}, not 0700" if info.st_mode & 0o077 else None)
    if problem is not None:
        raise AgentSetupError(f"refusing agent folder parent {folder}: it {problem} (another user may have made it; "
                              "remove it, or set TMPDIR to a private directory)")


@contextlib.contextmanager
def episode_folders(episode_id: str) -> Iterator[AgentFolders]:
    """A fresh, empty working directory and config home for one episode's agent, deleted afterwards."""
    parent = private_parent()
    name = UNSAFE_NAME.sub("_", episode_id)[:80]
    root = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=parent))
    try:
        workdir, home = root / "work", root / "home"
        workdir.mkdir(mode=0o700)
        home.mkdir(mode=0o700)
        yield AgentFolders(root, workdir, home, parent / name)
    finally:
        shutil.rmtree(root, ignore_errors=True)


class HiddenFolder(WrappedModel):
    """The model, shown an agent folder under a stable name (see the module docstring); `hide` names it once the
    folder exists."""

    def __init__(self, inner: ModelAPI) -> None:
        super().__init__(inner)
        self.real: list[str] = []
        self.shown = ""

    def hide(self, folders: AgentFolders) -> None:
        """Show the folder's random name as its stable one, as written and as agents write a path into a file name
        (Claude Code's and qwen-code's project folders: every character but a letter or digit made a '-')."""
        name = folders.root.name
        self.real = sorted({name, re.sub(r"[^A-Za-z0-9]", "-", name)}, key=len, reverse=True)
        self.shown = folders.shown.name

    async def generate(self, messages: list[ChatMessage], tools: list[ToolSpec] | None = None,
                       config: GenerateConfig | None = None) -> ModelOutput:
        if self.real:
            messages = [self._hidden(message) for message in messages]
        return await self.inner.generate(messages, tools, config)

    def _hidden(self, message: ChatMessage) -> ChatMessage:
        content = message.content
        for real in self.real:
            content = content.replace(real, self.shown)
        return message if content == message.content else message.model_copy(update={"content": content})
