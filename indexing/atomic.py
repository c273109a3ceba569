"""Atomic file writes: write a temp file beside the target, then ``os.replace`` it into place.

An interrupted run (crash, Ctrl-C, full disk) leaves either the old file or the new one, never a
half-written file. Every writer of the toolkit goes through here.
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def atomic_open(path: str | os.PathLike, mode: str = "w", *, newline: str | None = "\n") -> Iterator[IO]:
    """Open a temp file beside ``path`` for writing; on success it replaces ``path``, on error it is removed."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode must be 'w' or 'wb', not {mode!r}")
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        if mode == "wb":
            fh = os.fdopen(fd, "wb")
        else:
            fh = os.fdopen(fd, "w", encoding="utf-8", newline=newline)
        with fh:
            yield fh
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the file the usual permissions
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike, text: str, *, newline: str | None = "\n") -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns the path."""
    with atomic_open(path, "w", newline=newline) as fh:
        fh.write(text)
    return Path(path)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path."""
    with atomic_open(path, "wb") as fh:
        fh.write(data)
    return Path(path)


def swap_folder(tmp: Path, target: Path) -> None:
    """Rename the finished folder ``tmp`` into place at ``target``; a previous ``target`` is renamed
    away first and removed only after the swap, so an interruption never leaves neither."""
    import shutil

    old = None
    if target.exists():
        old = target.parent / f"{target.name}.old-{os.getpid()}"
        os.rename(target, old)
    os.rename(tmp, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)

