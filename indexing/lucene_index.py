"""The Lucene backend (pyserini/Anserini): one Lucene index per shard, each with its language's analyzer.

One index per language (and per unit kind and quote status) rather than one index with
per-language fields: Anserini's indexers and ``SimpleSearcher`` take one analyzer per
index (``-language ar`` → ``ArabicAnalyzer``, ``zh`` → ``CJKAnalyzer``, ``en`` → Porter + stop
words), BM25 statistics stay within one language, and a language can be searched alone at no
cost. Lucene documents hold only the unit id and the analysed text; offsets and the original
text live in ``units.sqlite`` (:class:`indexing.units.UnitTable`).

The JVM is started only through :mod:`indexing.jvm`, on first use, never at import.
"""
from __future__ import annotations

import os
import re
from json.encoder import encode_basestring
from pathlib import Path

from indexing import jvm
from indexing.analysis import AnalysisConfig
from indexing.errors import ToolkitError
from indexing.units import POST, Unit, shard_of

NAME = "lucene"
BATCH = 5000  # documents per hand-over to Java: fewer crossings, bounded memory
TRANSPORT: str | None = None  # 'pipe' | 'batch' | None: named pipes where the platform has them
_NON_BMP = re.compile("[\U00010000-\U0010ffff]")


def _escape_non_bmp(m: re.Match) -> str:
    c = ord(m.group(0)) - 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))


def _wide(text: str) -> bool:
    """Whether ``text`` holds characters outside the BMP (emoji, rare Han)."""
    return not text.isascii() and _NON_BMP.search(text) is not None


def json_document(uid: int, text: str, wide: bool | None = None) -> str:
    """The JsonCollection document ``{"id": "<uid>", "contents": text}`` as one JSON string.

    Built by hand with the C string encoder (several times faster than ``json.dumps`` of a dict).
    Characters outside the BMP (emoji, rare Han) are written as surrogate escapes: jnius passes
    strings to Java as modified UTF-8, which would mangle them, while Jackson decodes the escapes.
    ``wide`` says whether ``text`` may hold such characters (None: look).
    """
    body = encode_basestring(text)
    if wide is None:
        wide = _wide(body)
    if wide:
        body = _NON_BMP.sub(_escape_non_bmp, body)
    return f'{{"id":"{uid}","contents":{body}}}'


def is_available() -> bool:
    """True when Java 21 and pyserini's jar can be found (the JVM is not started)."""
    return jvm.is_available()


def lucene_version() -> str:
    """The Anserini jar the indexes are built with (e.g. ``anserini-1.2.0``)."""
    return Path(jvm.anserini_jar()).name.replace("-fatjar.jar", "")


def java_text(text: str):
    """``text`` as jnius should pass it to Java: a ``java.lang.String`` built from UTF-8 when it
    holds characters outside the BMP (jnius' own conversion mangles those), else ``text`` itself."""
    if not _wide(text):
        return text
    return jvm.lucene().autoclass("java.lang.String")(text.encode("utf-8"), "UTF-8")


class LuceneWriter:
    """Adds units to per-shard Lucene indexes under ``<dir>/lucene/<shard>``, in batches.

    The documents go to Anserini through a transport (:mod:`indexing.lucene_transport`: named
    pipes read by ``IndexCollection``, or jnius batches for ``SimpleIndexer``); either way Java
    indexes on its own threads while Python reads XML, cuts units and writes sqlite.

    Collections come a language at a time (LDC ships one folder per language), and committing a
    shard (Lucene writes its in-memory segment to disk) is a large part of the Java work. So when
    the units move on to another language, the previous language's shards are finished (committed
    in the background) while Python reads the next one. Should a finished language come back
    (interleaved inputs), its shards are reopened in append mode and early finishing stops.
    """

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig, threads: int = 2,
                 memory_mb: int = 256, batch: int = BATCH, transport: str | None = None) -> None:
        from indexing import lucene_transport as lt

        jvm.lucene()
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self.batch = batch
        transport = transport or TRANSPORT
        if transport is None:
            self.transport = lt.default_transport(self.root, memory_mb, threads)
        elif transport in ("pipe", "batch"):
            self.transport = (lt.PipeTransport if transport == "pipe" else lt.BatchTransport)(
                self.root, memory_mb, threads)
        else:
            raise ValueError(f"unknown Lucene transport {transport!r}; choose 'pipe' or 'batch'")
        self._batches: dict[str, list[str]] = {}
        self._shard_lang: dict[str, str] = {}
        self._finished_langs: set[str] = set()
        self._early_finish = True
        self._lang: str | None = None

    def add_many(self, first: int, units: list[Unit]) -> None:
        """Add one thread's units (as ``indexing.units.iter_units`` gives them: each post unit
        before its passages), which have ids ``first``, ``first + 1``, ..."""
        analysis = self.analysis
        batches = self._batches
        aligned = None  # the prepared text of the last post unit, when passages can slice it
        wide = None  # whether that post unit holds characters outside the BMP (so may its passages)
        for uid, unit in enumerate(units, first):
            lang = unit.lang
            if lang != self._lang:
                self._switch(lang)
            if unit.unit == POST:
                aligned = analysis.prepare_aligned(unit.text, lang)
                text = aligned if aligned is not None else analysis.prepare(unit.text, lang)
                wide = _wide(text)
            elif aligned is not None:
                text = aligned[unit.at:unit.at + len(unit.text)]
            else:
                text = analysis.prepare(unit.text, lang)
            shard = shard_of(lang, unit.unit, unit.quoted)
            batch = batches.get(shard)
            if batch is None:
                self.transport.open(shard, analysis.lucene_language(lang))
                batch = batches[shard] = []
                self._shard_lang[shard] = lang
            batch.append(json_document(uid, text, wide))
            if len(batch) >= self.batch:
                self._flush(shard)

    def _switch(self, lang: str) -> None:
        """Units moved on to ``lang``: finish the previous language's shards in the background."""
        if lang in self._finished_langs:
            self._early_finish = False  # interleaved languages: keep every shard open from now on
        previous, self._lang = self._lang, lang
        if previous is None or not self._early_finish:
            return
        for shard in [s for s in self._batches if self._shard_lang[s] == previous]:
            self._flush(shard)
            self.transport.finish(shard)
            del self._batches[shard]
        self._finished_langs.add(previous)

    def _flush(self, shard: str) -> None:
        batch = self._batches[shard]
        if batch:
            self.transport.send(shard, batch)
            self._batches[shard] = []

    def close(self) -> None:
        """Index what is left, then commit and close every shard."""
        try:
            for shard in list(self._batches):
                self._flush(shard)
        finally:
            self._batches.clear()
            self.transport.close()

    def __enter__(self) -> "LuceneWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LuceneShards:
    """Searches the per-shard Lucene indexes of an index folder: ``search(shard, lang, query, k)``."""

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig) -> None:
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self._searchers: dict[str, object] = {}

    def shards(self) -> list[str]:
        return sorted(p.name for p in self.root.iterdir() if p.is_dir()) if self.root.is_dir() else []

    def _searcher(self, shard: str, lang: str):
        s = self._searchers.get(shard)
        if s is None:
            L = jvm.lucene()
            path = self.root / shard
            try:
                s = L.SimpleSearcher(str(path))
            except Exception as exc:
                raise ToolkitError(f"cannot open the Lucene index {path}: {exc}", file=str(path),
                                   hint="rebuild it with 'bolt index PATH... --out DIR --force'") from exc
            s.set_language(self.analysis.lucene_language(lang))
            s.set_bm25(float(self.analysis.bm25_k1), float(self.analysis.bm25_b))
            self._searchers[shard] = s
        return s

    def search(self, shard: str, lang: str, query: str, k: int) -> list[tuple[int, float]]:
        """``(unit id, BM25 score)`` pairs, best first."""
        if not (self.root / shard).is_dir() or not query.strip():
            return []
        hits = self._searcher(shard, lang).search(java_text(self.analysis.prepare(query, lang)), k)
        return [(int(h.docid), float(h.score)) for h in hits]

    def close(self) -> None:
        for s in self._searchers.values():
            try:
                s.close()
            except Exception:
                pass
        self._searchers.clear()
