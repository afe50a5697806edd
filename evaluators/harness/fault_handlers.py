"""Keep the process's handlers for SIGSEGV and SIGBUS across `ray.init` and `ray.shutdown`.

`ray.init` installs Ray's failure-signal handler for both, over whatever the process had, and `ray.shutdown` resets
SIGSEGV to the default action. The JVM under Pyserini
(a world's search, when the driver opened one) takes SIGSEGV and SIGBUS for its own implicit null checks and
safepoints, so a JVM already running in the process died at its next such fault: seen as a SIGSEGV in a test
searching the default world after an in-process `--executor ray` run. A handler the process already had is put
back; where it had none, Ray's stays (it reports a driver's crash).
"""

from __future__ import annotations

import ctypes
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

KEPT_SIGNALS = (signal.SIGSEGV, signal.SIGBUS)
SIGACTION_BYTES = 256
"""Room for libc's `struct sigaction` (152 bytes on Linux x86-64 and arm64), which is handed back as it came."""


@contextmanager
def fault_handlers_kept() -> Iterator[None]:
    """Put back, after the block, the SIGSEGV and SIGBUS handlers installed before it (Linux; elsewhere a no-op)."""
    if sys.platform != "linux":
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    saved = {number: ctypes.create_string_buffer(SIGACTION_BYTES) for number in KEPT_SIGNALS}
    for number, action in saved.items():
        libc.sigaction(number, None, action)
    try:
        yield
    finally:
        for number, action in saved.items():
            if ctypes.c_void_p.from_buffer(action).value not in (None, int(signal.SIG_IGN)):  # None: SIG_DFL
                libc.sigaction(number, action, None)


def fault_handler(number: int) -> int | None:
    """The address of the handler installed for signal `number` (None: the default action)."""
    action = ctypes.create_string_buffer(SIGACTION_BYTES)
    ctypes.CDLL(None).sigaction(number, None, action)
    return ctypes.c_void_p.from_buffer(action).value
