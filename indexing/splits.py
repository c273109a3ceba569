"""A post's sentences and clauses, cut once when the index's vectors are made and read by every run.

Cutting posts is most of a run's first topic (spaCy for English, and importing spaCy itself), and
the vectors' build has just cut every post the encoders read, exactly as a run cuts them. So the
build records each cut (:func:`recording`) and stores it in the index folder (``splits/``):
the 8-byte key of (language, clause limits, text) and its spans. A run opens the store
(:func:`use_store`) and :func:`indexing.sentences.clauses_by_sentence` reads a text's spans from it
instead of cutting; a text the store lacks is cut as before. The store names the digest of the code
that cuts (:func:`code_digest`): a store written by other cutting code is not read.
"""
from __future__ import annotations

import contextlib
import json
from array import array
from pathlib import Path
from typing import Iterator

import numpy as np

from indexing.vectors.keys import text_key

FOLDER = "splits"
KEEP = 4
FORMAT = "bolt-splits/1"
Spans = tuple[tuple[int, int, int], ...]


def split_key(text: str, lang: str, limits: tuple[int, int] | None) -> int:
    """The store's key of a cut: the language and clause limits are part of what was cut."""
    return text_key(f"{lang}\0{limits}\0{text}")


def code_digest() -> str:
    """The digest of the modules whose code decides a cut (a store from other code is not read)."""
    import indexing.analysis
    import indexing.script_fold
    import indexing.sentences
    import indexing.textfacts
    from indexing.cache import digest

    return digest(FORMAT, (), [Path(m.__file__) for m in (indexing.sentences, indexing.analysis,
                                                             indexing.script_fold, indexing.textfacts)])


class Recorder:
    """The cuts made while recording, kept compactly (a BOLT-size build cuts about a million posts)."""

    def __init__(self) -> None:
        self.keys = array("Q")
        self.counts = array("I")
        self.spans = array("i")
        self.seen: set[int] = set()

    def add(self, text: str, lang: str, limits: tuple[int, int] | None, spans: Spans) -> None:
        key = split_key(text, lang, limits)
        if key in self.seen:
            return
        self.seen.add(key)
        self.keys.append(key)
        self.counts.append(len(spans))
        for triple in spans:
            self.spans.extend(triple)

    def write(self, folder: Path) -> dict:
        """Write the store to ``folder`` (replacing one there); returns its manifest."""
        from indexing.atomic import atomic_write_text, swap_folder

        keys = np.frombuffer(self.keys, dtype=np.uint64) if len(self.keys) else np.zeros(0, np.uint64)
        counts = np.frombuffer(self.counts, dtype=np.uint32) if len(self.counts) else np.zeros(0, np.uint32)
        spans = (np.frombuffer(self.spans, dtype=np.int32) if len(self.spans) else np.zeros(0, np.int32)).reshape(-1, 3)
        starts = np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])
        order = np.argsort(keys, kind="stable")
        index = np.stack([starts[:-1][order], counts[order].astype(np.int64)], axis=1)
        tmp = folder.with_name(folder.name + ".tmp")
        tmp.mkdir(parents=True, exist_ok=True)
        np.save(tmp / "keys.npy", keys[order])
        np.save(tmp / "index.npy", index)
        np.save(tmp / "spans.npy", spans)
        manifest = {"format": FORMAT, "code": code_digest(), "texts": int(len(keys)), "spans": int(len(spans))}
        atomic_write_text(tmp / "manifest.json", json.dumps(manifest, indent=2) + "\n")
        swap_folder(tmp, folder)
        return manifest


class SplitStore:
    """A stored set of cuts, memory-mapped."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.manifest = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))
        self.keys = np.load(self.folder / "keys.npy", mmap_mode="r")
        self.index = np.load(self.folder / "index.npy", mmap_mode="r")
        self.spans = np.load(self.folder / "spans.npy", mmap_mode="r")

    def get(self, text: str, lang: str, limits: tuple[int, int] | None) -> Spans | None:
        """The stored spans of the cut, or None when the store lacks it."""
        key = np.uint64(split_key(text, lang, limits))
        at = int(np.searchsorted(self.keys, key))
        if at >= len(self.keys) or self.keys[at] != key:
            return None
        start, n = (int(v) for v in self.index[at])
        return tuple((int(a), int(b), int(c)) for a, b, c in self.spans[start:start + n].tolist())


def open_store(index_dir: str | Path) -> SplitStore | None:
    """The index's store of cuts, None when it has none or one made by other cutting code."""
    folder = Path(index_dir) / FOLDER
    try:
        store = SplitStore(folder)
    except (OSError, ValueError):
        return None
    return store if store.manifest.get("format") == FORMAT and store.manifest.get("code") == code_digest() else None


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Record every cut :func:`indexing.sentences.clauses_by_sentence` makes inside the block."""
    from indexing import sentences

    rec = Recorder()
    sentences.RECORDERS.append(rec)
    try:
        yield rec
    finally:
        sentences.RECORDERS.remove(rec)


def use_store(index_dir: str | Path) -> bool:
    """Read cuts from the index's store from now on in this process; whether it has a usable one."""
    from indexing import sentences

    store = open_store(index_dir)
    if store is not None and all(s.folder != store.folder for s in sentences.STORES):
        sentences.STORES.insert(0, store)
        del sentences.STORES[KEEP:]  # a process that opens many indexes reads the latest few
    return store is not None
