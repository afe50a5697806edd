"""The run's log file (run.log in the run folder): every failed episode's traceback and the run's warnings."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

LOG_FILE = "run.log"
"""In the run folder: every failed episode's traceback (and the run's warnings)."""


class RunLog(logging.FileHandler):
    """The run's log file, which drops a record it cannot write (a full disk) and keeps the first such failure:
    logging's default printed each failed record's traceback and call stack to stderr, tens of thousands of lines
    when the disk filled under a run."""

    failure: BaseException | None = None

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        if self.failure is None:
            self.failure = sys.exc_info()[1]


def file_log(path: Path) -> tuple[RunLog, int]:
    """The run's log file: tracebacks of failed episodes (shopbench's DEBUG records) and every warning or error
    logged during the run. Returns the handler and the "shopbench" logger's level to restore. The file is opened
    now: OSError when it cannot be (the run then stops before any episode)."""
    handler = RunLog(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)
    logger = logging.getLogger("shopbench")
    level = logger.level
    logger.setLevel(logging.DEBUG)
    return handler, level


