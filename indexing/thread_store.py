"""The SQLite store of raw threads kept inside an index folder (``<index>/threads.sqlite``).

An index answers "which posts match"; validation and assessment then need the thread itself at an
offset. Storing each thread's raw XML (with its id, language, source path and line) lets any
command re-create the exact ``Thread`` without the original files: ``ThreadStore.get`` re-parses
the raw text with ``parse_thread_text``, so offsets are the reader's, character for character.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Iterator

from indexing.errors import ToolkitError
from indexing.reader import parse_thread_text
from indexing.records import Thread

FILENAME = "threads.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY,
    lang TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER NOT NULL,
    raw TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class ThreadStoreWriter:
    """Write threads into a new store; the file appears (atomically) only when the writer closes
    without an exception. A thread id seen twice keeps its first copy; ``duplicates`` lists the rest.

    >>> with ThreadStoreWriter(index_dir / "threads.sqlite") as w:   # doctest: +SKIP
    ...     for t in iter_threads(paths): w.add(t)
    """

    def __init__(self, db_path: str | os.PathLike) -> None:
        self.path = Path(db_path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        if self._tmp.exists():
            self._tmp.unlink()
        self._db = sqlite3.connect(self._tmp)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.executescript(_SCHEMA)
        self.count = 0
        self.duplicates: list[str] = []

    def add(self, thread: Thread) -> bool:
        """Store a thread; False (and noted in ``duplicates``) when its id is already stored."""
        cur = self._db.execute("INSERT OR IGNORE INTO threads (id, lang, path, line, raw) VALUES (?, ?, ?, ?, ?)",
                               (thread.id, thread.lang, thread.path, thread.line, thread.raw))
        if cur.rowcount == 0:
            self.duplicates.append(thread.id)
            return False
        self.count += 1
        return True

    def close(self) -> None:
        """Commit and move the finished store into place."""
        if self._db is None:
            return
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('format', 'bolt-threads-1')")
        self._db.commit()
        self._db.close()
        self._db = None
        os.replace(self._tmp, self.path)

    def abort(self) -> None:
        """Drop everything written so far; the target file is left as it was."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._tmp.exists():
            self._tmp.unlink()

    def __enter__(self) -> "ThreadStoreWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class ThreadStore:
    """Read threads back by id from a store written by ``ThreadStoreWriter`` (read-only)."""

    def __init__(self, db_path: str | os.PathLike) -> None:
        self.path = Path(db_path)
        if self.path.is_dir():
            self.path = self.path / FILENAME
        if not self.path.is_file():
            raise ToolkitError(f"no thread store at {self.path}", file=str(self.path),
                               hint="build the index with 'bolt index PATH... --out DIR' first")
        try:
            self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                       check_same_thread=False)
            self._db.execute("SELECT 1 FROM threads LIMIT 1").fetchall()
        except sqlite3.DatabaseError as exc:
            raise ToolkitError(f"not a thread store: {exc}", file=str(self.path),
                               hint="rebuild the index with 'bolt index ... --force'") from exc

    def get(self, thread_id: str) -> Thread | None:
        """The thread with this id, re-parsed from its stored raw XML, or None."""
        row = self._db.execute("SELECT lang, path, line, raw FROM threads WHERE id = ?", (thread_id,)).fetchone()
        if row is None:
            return None
        lang, path, line, raw = row
        return parse_thread_text(raw, path=path, line=line, lang=lang)

    def lang(self, thread_id: str) -> str | None:
        row = self._db.execute("SELECT lang FROM threads WHERE id = ?", (thread_id,)).fetchone()
        return row[0] if row else None

    def raw_texts(self, lang: str) -> Iterator[str]:
        """The raw XML of every stored thread of ``lang`` (for vocabularies: ``indexing.vocabulary``)."""
        for (raw,) in self._db.execute("SELECT raw FROM threads WHERE lang = ? ORDER BY rowid", (lang,)):
            yield raw

    def ids(self, lang: str | None = None) -> list[str]:
        """Every stored thread id (of ``lang`` when given), in the order they were added."""
        if lang is None:
            return [r[0] for r in self._db.execute("SELECT id FROM threads ORDER BY rowid")]
        return [r[0] for r in self._db.execute("SELECT id FROM threads WHERE lang = ? ORDER BY rowid", (lang,))]

    def __contains__(self, thread_id: object) -> bool:
        return isinstance(thread_id, str) and self._db.execute(
            "SELECT 1 FROM threads WHERE id = ?", (thread_id,)).fetchone() is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM threads").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "ThreadStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
