"""An agent's stdout or stderr kept in a file of bounded size: the first OUTPUT_CAP_BYTES as written, then one line
saying how much more was dropped. An agent that writes without end (a loop printing its state, a 200 MB dump) fills
neither the disk nor the harness's memory: the pipe is read as it comes and what is past the cap is read and dropped,
so the agent never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from collections.abc import AsyncIterator
from pathlib import Path

OUTPUT_CAP_BYTES = 16 * 1024 * 1024
"""The most of one stream kept in an episode's transcript (a Claude Code episode writes tens of kB of JSON lines)."""
PIPE_BYTES = 1024 * 1024
"""The pipe's buffer (Linux's default 64 KiB could make an agent wait on the harness's busy event loop; 1 MiB is
what an unprivileged process may ask for)."""
DRAIN_S = 2.0
"""How long the pipe is read after the agent's tree has ended, for a process outside it that still holds it open."""
CUT = "\n[shopbench: {name} cut here at {cap} bytes; the agent wrote {total} bytes in all]\n"
"""The marker that ends a cut transcript (on a line of its own)."""


class CappedFile(asyncio.Protocol):
    """Writes what arrives on the pipe to `out` up to `cap` bytes, counts the rest."""

    def __init__(self, out: Path, cap: int) -> None:
        self.file = open(out, "wb")  # noqa: SIM115 - closed in connection_lost, when the pipe is
        self.cap, self.total = cap, 0
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        room = self.cap - self.total
        if room > 0 and not self.file.closed:
            try:
                self.file.write(data[:room])
            except OSError:  # a full disk: the transcript stops here, the agent goes on
                self.cap = self.total
        self.total += len(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.finish()

    def finish(self) -> None:
        if self.file.closed:
            return
        if self.total > self.cap:
            name = Path(self.file.name).name
            self.file.write(CUT.format(name=name, cap=self.cap, total=self.total).encode())
        self.file.close()
        if not self.closed.done():
            self.closed.set_result(None)


@contextlib.asynccontextmanager
async def capped_output(out: Path, cap: int | None = None) -> AsyncIterator[int]:
    """A pipe whose write end (the yielded file descriptor) is the agent's stdout or stderr, its output kept in
    `out` up to `cap` bytes (OUTPUT_CAP_BYTES by default). On the way out, once the agent's tree is gone, the rest
    is read until the pipe closes (at most DRAIN_S) and the file is closed."""
    read_end, write_end = os.pipe()
    with contextlib.suppress(OSError, AttributeError):  # Linux: room for a burst while the event loop is busy
        fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    loop = asyncio.get_running_loop()
    try:
        transport, sink = await loop.connect_read_pipe(lambda: CappedFile(out, OUTPUT_CAP_BYTES if cap is None
                                                                          else cap), os.fdopen(read_end, "rb", 0))
    except BaseException:
        os.close(read_end)
        os.close(write_end)
        raise
    try:
        yield write_end
    finally:
        os.close(write_end)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(sink.closed), DRAIN_S)
        transport.close()
        sink.finish()
