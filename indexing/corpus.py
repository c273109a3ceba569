"""One way to reach threads by id, whether from the thread files or from an index folder.

``open_corpus(paths=...)`` reads every thread into memory (a dict id -> Thread): right for the
validation-sized collections a submission cites, not for a whole LDC release; for those, pass
``index_dir=`` and threads are read one at a time from the index's ``threads.sqlite``.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator, Protocol

from indexing.encoding import STRICT, resolve_policy
from indexing.errors import ToolkitError
from indexing.manifest import recorded_policy
from indexing.reader import BadThreads, iter_threads
from indexing.records import Thread
from indexing.thread_store import FILENAME, ThreadStore


class Corpus(Protocol):
    """What callers may rely on: ``get``, ``in``, iteration over ids, ``len``."""

    def get(self, thread_id: str) -> Thread | None: ...
    def __contains__(self, thread_id: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def __len__(self) -> int: ...


class MemoryCorpus:
    """Threads read from files, held in memory. ``bad`` is the reader's log (threads skipped with
    ``skip_bad``, repaired, or read once though repeated); ``duplicates`` the ids met more than
    once (the first copy is kept). ``encoding_errors`` is the policy the threads were read with,
    ``note`` what to tell the user about it (or None)."""

    def __init__(self, threads: Iterable[Thread], bad: BadThreads | None = None,
                 encoding_errors: str = STRICT, note: str | None = None) -> None:
        self._threads: dict[str, Thread] = {}
        self.duplicates: list[str] = []
        for t in threads:
            if t.id in self._threads:
                self.duplicates.append(t.id)
            else:
                self._threads[t.id] = t
        self.bad = bad if bad is not None else BadThreads()
        self.duplicates[:0] = [d.thread for d in self.bad.duplicates]
        self.encoding_errors = encoding_errors
        self.note = note

    def get(self, thread_id: str) -> Thread | None:
        return self._threads.get(thread_id)

    def __contains__(self, thread_id: object) -> bool:
        return thread_id in self._threads

    def __iter__(self) -> Iterator[str]:
        return iter(self._threads)

    def __len__(self) -> int:
        return len(self._threads)

    def threads(self) -> Iterator[Thread]:
        return iter(self._threads.values())


class StoreCorpus:
    """Threads read on demand from an index folder's ``threads.sqlite`` (a small cache of recent ones),
    as the index's build read them (``encoding_errors``: the policy its manifest records)."""

    def __init__(self, store: ThreadStore, cache_size: int = 64, encoding_errors: str = STRICT,
                 note: str | None = None) -> None:
        self.store = store
        self.encoding_errors = encoding_errors
        self.note = note
        self.bad = BadThreads()
        self._cache: dict[str, Thread | None] = {}
        self._cache_size = cache_size

    def get(self, thread_id: str) -> Thread | None:
        if thread_id in self._cache:
            return self._cache[thread_id]
        t = self.store.get(thread_id)
        if len(self._cache) >= self._cache_size:
            self._cache.pop(next(iter(self._cache)))
        self._cache[thread_id] = t
        return t

    def __contains__(self, thread_id: object) -> bool:
        return thread_id in self.store

    def __iter__(self) -> Iterator[str]:
        return iter(self.store)

    def __len__(self) -> int:
        return len(self.store)


def open_corpus(paths: Iterable[str | os.PathLike] | str | os.PathLike | None = None,
                index_dir: str | os.PathLike | None = None, *, lang: str | None = None,
                skip_bad: bool = False, encoding_errors: str | None = None) -> MemoryCorpus | StoreCorpus:
    """The threads of ``paths`` (files, archives, folders) or of an index folder, by id.

    Exactly one of ``paths`` and ``index_dir`` is given. Missing paths raise ``ToolkitError``
    with a hint; bad threads raise ``CorpusError`` unless ``skip_bad`` (then see ``corpus.bad``).
    ``encoding_errors`` (``indexing.encoding``; None: not stated) reads files with that policy
    (strict when not stated); an index folder holds threads as its build read them, so there
    the policy recorded in its manifest is used, and a stated one that differs is an error.
    """
    if (paths is None or paths == []) == (index_dir is None):
        raise ToolkitError("give either corpus paths or an index folder, not both or neither",
                           hint="use --corpus PATH... or --index DIR")
    if index_dir is not None:
        d = Path(index_dir)
        if not d.is_dir():
            raise ToolkitError(f"no such index folder: {d}", file=str(d),
                               hint="build one with 'bolt index PATH... --out DIR'")
        policy, note = resolve_policy(encoding_errors, [(recorded_policy(d), str(d))])
        return StoreCorpus(ThreadStore(d / FILENAME), encoding_errors=policy, note=note)
    bad = BadThreads()
    policy = encoding_errors or STRICT
    return MemoryCorpus(iter_threads(paths, lang=lang, skip_bad=skip_bad, bad=bad, encoding_errors=policy), bad,
                        encoding_errors=policy)
