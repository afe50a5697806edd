"""Building a Lucene index from a JSONL file: once per content hash, atomically, streaming, on several threads.

Shared by the product and knowledge indexes. An index lives in `index_root/<content hash of the source file>/`; it is
written into a temporary sibling folder and renamed into place only when complete, so a killed build is never taken
for a finished index. Lines are parsed and turned into Lucene documents on worker threads: Java calls hold
lucene_runtime.java_lock, JSON parsing does not, and pyjnius releases the GIL while Java runs, so Lucene's analysis
on one thread overlaps parsing on another and gzip decompression on the reading thread.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import queue
import shutil
import socket
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from benchmarks.errors import BadInput
from benchmarks.jsonl import DataFileError
from mcp_server.processes import process_running
from mcp_server.shopping.search import lucene_runtime

HASH_LENGTH = 16
"""Hex digits of the SHA-256 kept in index folder names (64 bits: collisions are not a concern)."""

_BATCH_LINES = 512
_RAM_BUFFER_MB = 256.0
_TMP_MARK = ".building-"
_HOST = socket.gethostname().replace("-", "_") or "host"
"""Names this machine in a build's temporary folder ("-" separates the name's parts)."""


class LineIndexer(Protocol):
    """Turns source lines into Lucene documents; one per worker thread, each with its own reusable documents."""

    def parse(self, line: str) -> Any:
        """Pure Python (runs while other threads use Java); raises BadRecord when the line is not a valid record."""

    def write(self, parsed: Any) -> None:
        """Fill this indexer's Lucene document from `parsed` and add it; called holding lucene_runtime.java_lock."""


class BadRecord(BadInput):
    """A source line is not a valid record (reported as DataFileError naming the file and line)."""


class DamagedIndexError(BadInput):
    """An index folder Lucene cannot open (a file missing or cut short). Lucene's own report is a Java stack trace;
    this names the folder, the file when Lucene does, and how to rebuild it."""

    def __init__(self, index_dir: Path, detail: str) -> None:
        self.index_dir, self.detail = index_dir, detail
        super().__init__(f"{index_dir}: the search index is damaged ({detail}); rebuild it with "
                         f"`shopbench world index {index_dir.parent.parent}`, which replaces it")


def check_index(index_dir: Path) -> None:
    """Refuse (DamagedIndexError) an index whose last commit cannot be read or lists a file that is not there."""
    if not any(index_dir.glob("segments_*")):
        raise DamagedIndexError(index_dir, "no segments_N file, the commit that lists its files")
    autoclass = lucene_runtime.autoclass
    with lucene_runtime.java_lock, opening(index_dir):
        directory = autoclass("org.apache.lucene.store.FSDirectory").open(
            autoclass("java.nio.file.Paths").get(str(index_dir)))
        try:
            files = list(autoclass("org.apache.lucene.index.SegmentInfos").readLatestCommit(directory)
                         .files(True).toArray())
        finally:
            directory.close()
    missing = sorted(name for name in files if not (index_dir / name).is_file())
    if missing:
        raise DamagedIndexError(index_dir, f"{', '.join(missing)} missing")


@contextmanager
def opening(index_dir: Path) -> Iterator[None]:
    """Turn a Java exception raised while opening the index at `index_dir` into DamagedIndexError."""
    try:
        yield
    except Exception as error:
        classname = getattr(error, "classname", None)  # pyjnius' JavaException names the Java class it wraps
        if classname is None:
            raise
        message = " ".join(str(getattr(error, "innermessage", None) or "").split())  # one line
        name = str(classname).rsplit(".", 1)[-1]
        raise DamagedIndexError(index_dir, f"{name}: {message}" if message else name) from None


def content_hash(path: Path) -> str:
    """SHA-256 of the file's bytes (streamed), shortened to HASH_LENGTH hex digits."""
    with open(path, "rb") as handle:
        digest = hashlib.file_digest(handle, "sha256")
    return digest.hexdigest()[:HASH_LENGTH]


def open_or_build(
    source: Path,
    index_root: Path,
    build: Callable[[Path], None],
    *,
    is_current: Callable[[Path], bool] = lambda index_dir: True,
) -> tuple[Path, str]:
    """The index folder for `source` (built by `build(tmp_dir)` if missing, or if `is_current` says an existing one
    was written in an older layout), and its content hash."""
    key = content_hash(source)
    final = index_root / key
    if final.is_dir():
        check_index(final)
        with opening(final):
            current = is_current(final)
        if current:
            return final, key
        shutil.rmtree(final)
    index_root.mkdir(parents=True, exist_ok=True)
    _remove_abandoned_builds(index_root, key)
    tmp = index_root / f".{key}{_TMP_MARK}{_HOST}-{os.getpid()}-{threading.get_ident()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        build(tmp)
        try:
            tmp.rename(final)
        except OSError:
            if not final.is_dir():  # anything but "another process finished first" is a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final, key


def _remove_abandoned_builds(index_root: Path, key: str) -> None:
    """Delete temporary folders of this machine's builds whose process is gone (killed mid-build; a zombie, killed
    but not yet reaped, is gone too). A build named by another host is left alone: on a shared filesystem its pid
    means nothing here, and it may still be running."""
    for leftover in index_root.glob(f".{key}{_TMP_MARK}{_HOST}-*"):
        pid = leftover.name.split(f"{_TMP_MARK}{_HOST}-", 1)[1].split("-", 1)[0]
        if pid.isdigit() and not process_running(int(pid)):
            shutil.rmtree(leftover, ignore_errors=True)


def english_analyzer() -> Any:
    """Anserini's default analyzer (Porter stemming, stopwords): what its searcher applies to queries."""
    return lucene_runtime.autoclass("io.anserini.analysis.DefaultEnglishAnalyzer").newDefaultInstance()


def index_jsonl(
    source: Path,
    out_dir: Path,
    make_indexer: Callable[[Any], LineIndexer],
    *,
    label: str,
    progress: bool,
    threads: int = 2,
    sort_by: str | None = None,
) -> int:
    """Index every non-blank line of `source` into a new index at `out_dir`; returns the number of documents.

    `make_indexer(writer)` is called once per worker thread. Java calls hold lucene_runtime.java_lock; parsing does
    not, so one thread parses while another is in Java, and the reading thread decompresses. At most a few batches
    of lines are in memory, whatever the file size. With `sort_by` (a SortedDocValues field the indexer writes) the
    index ends as one segment whose documents are in that field's order, so Lucene's document order is that order.
    """
    java_lock = lucene_runtime.java_lock
    with java_lock:
        writer = _open_writer(out_dir, sort_by)
    batches: queue.Queue[list[tuple[int, str]] | None] = queue.Queue(maxsize=threads * 4)
    failures: list[BaseException] = []

    def work() -> None:
        indexers = []  # dropped before the thread detaches from the JVM
        try:
            with java_lock:
                indexers.append(make_indexer(writer))
            while (batch := batches.get()) is not None:
                if failures:
                    continue
                for number, line in batch:
                    try:
                        parsed = indexers[0].parse(line)
                    except BadRecord as error:
                        raise DataFileError(source, number, str(error)) from None
                    with java_lock:
                        indexers[0].write(parsed)
        except BaseException as error:  # handed to the reading thread, which raises it
            failures.append(error)
            while batches.get() is not None:  # keep draining so the reader never blocks
                pass
        finally:
            with java_lock:
                indexers.clear()
            lucene_runtime.detach_thread()

    workers = [threading.Thread(target=work, name=f"index-{label}-{i}", daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    count = 0
    try:
        count = _feed(source, batches, failures, label=label, progress=progress)
    finally:
        for _ in workers:
            batches.put(None)
        for worker in workers:
            worker.join()
    with java_lock:
        if failures:
            writer.rollback()
        else:
            if sort_by is not None:
                writer.forceMerge(1)
            writer.commit()
            writer.close()
    if failures:
        error = failures[0]
        if isinstance(error, DataFileError):
            raise error
        raise RuntimeError(f"indexing {source} failed: {error}") from error
    return count


def index_order(field: str) -> Any:
    """The Lucene index sort that puts documents in the order of the SortedDocValues field `field`."""
    autoclass = lucene_runtime.autoclass
    sort_field = autoclass("org.apache.lucene.search.SortField")
    return autoclass("org.apache.lucene.search.Sort")(
        sort_field(field, autoclass("org.apache.lucene.search.SortField$Type").STRING)
    )


def _open_writer(out_dir: Path, sort_by: str | None) -> Any:
    autoclass = lucene_runtime.autoclass
    config = autoclass("org.apache.lucene.index.IndexWriterConfig")(english_analyzer())
    if sort_by is not None:
        config.setIndexSort(index_order(sort_by))
    config.setOpenMode(autoclass("org.apache.lucene.index.IndexWriterConfig$OpenMode").CREATE)
    config.setSimilarity(autoclass("org.apache.lucene.search.similarities.BM25Similarity")())
    config.setRAMBufferSizeMB(_RAM_BUFFER_MB)
    config.setUseCompoundFile(False)
    path = autoclass("java.nio.file.Paths").get(str(out_dir))
    directory = autoclass("org.apache.lucene.store.FSDirectory").open(path)
    return autoclass("org.apache.lucene.index.IndexWriter")(directory, config)


def _feed(
    source: Path, batches: queue.Queue, failures: list[BaseException], *, label: str, progress: bool
) -> int:
    """Read `source` (gzip or plain) into batches of (line number, line); returns the number of lines queued."""
    count = 0
    with _Progress(source, label, enabled=progress) as bar, open(source, "rb") as raw:
        stream = gzip.GzipFile(fileobj=raw) if source.suffix == ".gz" else raw
        lines = io.TextIOWrapper(stream, encoding="utf-8", newline="\n")
        batch: list[tuple[int, str]] = []
        number = 0
        try:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    batch.append((number, line))
                if len(batch) == _BATCH_LINES:
                    if failures:
                        return count
                    batches.put(batch)
                    count += len(batch)
                    batch = []
                    bar.update(count, raw.tell())
        except UnicodeDecodeError:
            raise DataFileError(source, number + 1, "not valid UTF-8") from None
        except EOFError:
            raise DataFileError(source, number + 1, "the gzip stream ends early (a truncated file?)") from None
        except (gzip.BadGzipFile, zlib.error) as error:
            raise DataFileError(source, number + 1, f"corrupt gzip data ({error})") from None
        batches.put(batch)
        return count + len(batch)


class _Progress:
    """A rich progress bar over the bytes read from the source file (on stderr: stdout may carry MCP stdio)."""

    def __init__(self, source: Path, label: str, *, enabled: bool) -> None:
        self.enabled, self.total, self.label = enabled, source.stat().st_size, label

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[docs]:,} docs"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self.progress.start()
            self.task = self.progress.add_task(f"Indexing {self.label}", total=self.total, docs=0)
        return self

    def update(self, docs: int, position: int) -> None:
        if self.enabled:
            self.progress.update(self.task, completed=position, docs=docs)

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.progress.update(self.task, completed=self.total)
            self.progress.stop()
