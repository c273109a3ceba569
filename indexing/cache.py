"""Things built once per machine, not once per process: a lexicon table, a parsed tokenizer.

Kept in the user's cache folder (``$BOLT_CACHE_DIR``, else ``~/.cache/bolt-distill``), each under a
name that digests everything it is made from: the code that builds it and each input file's path,
size and modification time. Any change to those gives a new name, so a stale copy is never read;
a cache that cannot be written or read only costs the build.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any, Callable, Iterable

ENV = "BOLT_CACHE_DIR"


def cache_dir() -> Path:
    return Path(os.environ.get(ENV) or Path.home() / ".cache" / "bolt-distill")


def digest(name: str, inputs: Iterable[Path], code: Iterable[Path] = ()) -> str:
    """The digest naming a cached ``name`` built from ``inputs`` by the source files ``code``."""
    h = hashlib.sha256(name.encode("utf-8"))
    for p in code:
        h.update(Path(p).read_bytes())
    for p in inputs:
        st = Path(p).stat()
        h.update(f"\0{p}\0{st.st_size}\0{st.st_mtime_ns}".encode("utf-8"))
    return h.hexdigest()[:20]


def _cached(path_of: Callable[[], Path], read: Callable[[Path], Any], write: Callable[[Path, Any], None],
            build: Callable[[], Any]) -> Any:
    try:
        path = path_of()
    except OSError:
        return build()
    try:
        return read(path)
    except Exception:  # missing, truncated or from another version: build it again
        pass
    value = build()
    try:
        write(path, value)
    except OSError:
        pass
    return value


def cached_object(name: str, inputs: list[Path], code: list[Path], build: Callable[[], Any]) -> Any:
    """``build()``, or its pickled copy cached for these ``inputs`` and ``code`` (only ever read
    from the user's own cache folder, which only this module writes)."""
    from indexing.atomic import atomic_open

    def write(p: Path, v: Any) -> None:
        with atomic_open(p, "wb") as fh:
            pickle.dump(v, fh, protocol=pickle.HIGHEST_PROTOCOL)

    return _cached(lambda: cache_dir() / f"{name}-{digest(name, inputs, code)}.pickle",
                   lambda p: pickle.loads(p.read_bytes()), write, build)
