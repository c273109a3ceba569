"""One encoder's vectors of an index's threads: ``<index>/vectors/<encoder>/``, memory-mapped.

Every thread contributes rows in order: its units of the kinds the system reads (a headline, what
the thread is about, its sentences), each row pointing at one vector. Each distinct text is
stored and encoded once: ``vectors.npy`` holds the distinct vectors sorted by their text's key
(:mod:`indexing.vectors.keys`), so a run finds any text's vector by binary search, and the rows
(``row_vec.npy``, ``row_kind.npy``) with the threads' spans (``spans.npy``, ``threads.json``) say
which thread each belongs to, so a whole language can be scored at once. Threads are grouped by
language; ``manifest.json`` names the encoder (id and weight hash), the units per language and
the index the vectors were made from.

Files are written beside the table and swapped in whole, so an interrupted build leaves any
previous table as it was. Nothing is read into Python lists but the thread ids.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from indexing.atomic import atomic_write_text, swap_folder
from indexing.errors import ToolkitError
from indexing.vectors.keys import text_key, text_keys

FORMAT = "bolt-vectors/1"
MANIFEST = "manifest.json"
KINDS = {"headline": 0, "about": 1, "sentence": 2, "pasted": 3}
"""The units a row can hold: a thread's headline, what the thread is about (headline and opening), a
sentence of a post's own text, a sentence of a report pasted into a post (read as evidence, never
counted as the thread's own sentences)."""


@dataclass
class TablePlan:
    """The rows of a table being built, thread by thread (threads of one language together)."""

    ids: list[str] = field(default_factory=list)
    langs: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    row_kind: list[int] = field(default_factory=list)
    row_key: list[int] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)  # key -> text, distinct texts in first-seen order

    def add(self, thread: str, lang: str, units: Sequence[tuple[str, str]]) -> None:
        """Add a thread's ``(kind, text)`` units, in the order its rows are to be kept."""
        if self.langs and lang != self.langs[-1] and lang in self.langs:
            raise ValueError(f"thread {thread}: the threads of {lang!r} must be added together")
        self.ids.append(thread)
        self.langs.append(lang)
        self.spans.append((len(self.row_kind), len(units)))
        for kind, text in units:
            key = text_key(text)
            self.texts.setdefault(key, text)
            self.row_kind.append(KINDS[kind])
            self.row_key.append(key)

    def distinct(self) -> tuple[np.ndarray, list[str]]:
        """The distinct texts' keys and texts, in first-seen order (the order they are encoded in)."""
        return np.fromiter(self.texts.keys(), dtype=np.uint64, count=len(self.texts)), list(self.texts.values())


def write_table(path: str | os.PathLike, plan: TablePlan, vectors: np.ndarray, manifest: dict) -> dict:
    """Write ``plan``'s table with ``vectors`` (one row per distinct text, in :meth:`TablePlan.distinct`
    order) at ``path``, swapped in whole; returns the manifest written."""
    path = Path(path)
    keys, _ = plan.distinct()
    if len(vectors) != len(keys):
        raise ValueError(f"{len(vectors)} vectors for {len(keys)} distinct texts")
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        np.save(tmp / "keys.npy", sorted_keys)
        out = np.lib.format.open_memmap(tmp / "vectors.npy", mode="w+", dtype=np.float32,
                                        shape=(len(keys), vectors.shape[1] if len(keys) else 0))
        for start in range(0, len(order), 65536):  # in blocks: the permuted copy is never whole in memory
            out[start:start + 65536] = vectors[order[start:start + 65536]]
        out.flush()
        del out
        row_key = np.fromiter(plan.row_key, dtype=np.uint64, count=len(plan.row_key))
        np.save(tmp / "row_vec.npy", np.searchsorted(sorted_keys, row_key).astype(np.int64))
        np.save(tmp / "row_kind.npy", np.asarray(plan.row_kind, dtype=np.int8))
        np.save(tmp / "spans.npy", np.asarray(plan.spans, dtype=np.int64).reshape(-1, 2))
        (tmp / "threads.json").write_text(json.dumps({"ids": plan.ids, "langs": plan.langs}, ensure_ascii=False),
                                          encoding="utf-8")
        full = {"format": FORMAT, **manifest, "rows": len(plan.row_kind), "distinct": int(len(keys)),
                "dimensions": int(vectors.shape[1]) if len(keys) else 0, "threads": _lang_ranges(plan)}
        atomic_write_text(tmp / MANIFEST, json.dumps(full, indent=2, ensure_ascii=False) + "\n")
        swap_folder(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return full


def _lang_ranges(plan: TablePlan) -> dict[str, list[int]]:
    """Per language: [first thread, end thread) of its threads in the table."""
    out: dict[str, list[int]] = {}
    for i, lang in enumerate(plan.langs):
        out.setdefault(lang, [i, i])[1] = i + 1
    return out


class VectorTable:
    """A table written by :func:`write_table`, memory-mapped (read-only)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        try:
            self.manifest = json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))
            if self.manifest.get("format") != FORMAT:
                raise ValueError(f"format {self.manifest.get('format')!r}, expected {FORMAT!r}")
            self.vectors = np.load(self.path / "vectors.npy", mmap_mode="r")
            self.keys = np.load(self.path / "keys.npy", mmap_mode="r")
            self.row_vec = np.load(self.path / "row_vec.npy", mmap_mode="r")
            self.row_kind = np.load(self.path / "row_kind.npy", mmap_mode="r")
            self.spans = np.load(self.path / "spans.npy", mmap_mode="r")
            listing = json.loads((self.path / "threads.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError) as exc:
            raise ToolkitError(f"unreadable vector table: {exc}", file=str(self.path),
                               hint=f"rebuild it with 'bolt index --add-vectors {self.path.parent.parent}'") from exc
        self.ids: list[str] = listing["ids"]
        self.ranges: dict[str, list[int]] = self.manifest["threads"]
        self._position: dict[str, int] | None = None
        self._ann: dict = {}

    @property
    def encoder(self) -> str:
        return self.manifest["encoder"]

    def units(self, lang: str) -> list[str]:
        """The kinds of unit stored for ``lang``'s threads."""
        return list(self.manifest.get("units", {}).get(lang, []))

    def threads(self, lang: str) -> list[str]:
        """The ids of ``lang``'s threads, in the table's order (the thread store's)."""
        first, end = self.ranges.get(lang, (0, 0))
        return self.ids[first:end]

    def position(self, thread: str) -> int | None:
        """The thread's number in the table (None when it has none)."""
        if self._position is None:
            self._position = {t: i for i, t in enumerate(self.ids)}
        return self._position.get(thread)

    def find(self, texts: Sequence[str]) -> np.ndarray:
        """Per text: the row of ``vectors`` holding its vector, -1 for a text the table lacks."""
        if not len(self.keys):
            return np.full(len(texts), -1, dtype=np.int64)
        keys = text_keys(texts)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        return np.where(self.keys[at] == keys, at, -1).astype(np.int64)

    def kind_rows(self, lang: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """The rows of kind ``kind`` among ``lang``'s threads: (thread number within the language, row)."""
        first, end = self.ranges.get(lang, (0, 0))
        if end <= first:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        spans = np.asarray(self.spans[first:end])
        r0, r1 = int(spans[0, 0]), int(spans[-1, 0] + spans[-1, 1])
        owner = np.repeat(np.arange(end - first), spans[:, 1])
        rows = np.arange(r0, r1)
        mask = np.asarray(self.row_kind[r0:r1]) == KINDS[kind]
        return owner[mask], rows[mask]

    def thread_rows(self, thread_numbers: np.ndarray, lang: str, kind: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The rows (of ``kind``, or all) of the given threads (numbers within ``lang``): (thread number, row)."""
        first, _ = self.ranges.get(lang, (0, 0))
        numbers = np.asarray(thread_numbers, dtype=np.int64)
        spans = np.asarray(self.spans)[first + numbers] if len(numbers) else np.zeros((0, 2), dtype=np.int64)
        owner = np.repeat(numbers, spans[:, 1])
        rows = (np.concatenate([np.arange(s, s + n) for s, n in spans]) if len(spans)
                else np.zeros(0, dtype=np.int64)).astype(np.int64)
        if kind is not None and len(rows):
            mask = np.asarray(self.row_kind[rows]) == KINDS[kind]
            owner, rows = owner[mask], rows[mask]
        return owner, rows

    def owners(self, rows: np.ndarray, lang: str) -> np.ndarray:
        """The thread number (within ``lang``) of each row of ``lang``'s threads."""
        first, end = self.ranges.get(lang, (0, 0))
        starts = np.asarray(self.spans[first:end, 0])
        return np.searchsorted(starts, np.asarray(rows, dtype=np.int64), side="right") - 1

    def nearest(self, lang: str):
        """The approximate index of ``lang``'s sentences (:class:`indexing.vectors.ann.NearestSentences`),
        None when the language is scored exactly."""
        entry = self.manifest.get("ann", {}).get(lang)
        if entry is None:
            return None
        if lang not in self._ann:
            from indexing.vectors.ann import NearestSentences

            self._ann[lang] = NearestSentences(self.path / entry["file"])
        return self._ann[lang]

    def cosines(self, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        """The cosine of ``q`` to each row's vector (float32, as the encoder's own product gives)."""
        vec = np.asarray(self.row_vec[rows])
        return np.asarray(self.vectors[vec] @ q, dtype=np.float32) if len(vec) else np.zeros(0, dtype=np.float32)


def open_tables(index_dir: str | os.PathLike) -> dict[str, VectorTable]:
    """The vector tables of an index folder, by encoder name ({} when it has none)."""
    root = Path(index_dir) / "vectors"
    if not root.is_dir():
        return {}
    return {p.name: VectorTable(p) for p in sorted(root.iterdir()) if (p / MANIFEST).is_file()}
