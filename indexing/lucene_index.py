"""The Lucene backend (pyserini/Anserini): one Lucene index per language, with its analyzer.

One index per language rather than one index with per-language fields: Anserini's indexers and
``SimpleSearcher`` take one analyzer per index (``-language ar`` → ``ArabicAnalyzer``, ``zh`` →
``CJKAnalyzer``, ``en`` → Porter + stop words), BM25 statistics stay within one language, and a
language can be searched alone at no cost. Every unit of a language (posts and passages, own and
quoted text) is one document of that index, tagged in a ``kind`` field (:func:`indexing.units.kind_of`)
that searches filter on. (Separate indexes per kind and quote status, the first design, cost
Lucene 16–30% more CPU for the same documents, and whole builds about 20% more time: every index
builds and writes its own copy of the vocabulary; see docs/index.md.) Lucene documents hold only the unit id, the analysed text and the
tag; offsets and the original text live in ``units.sqlite`` (:class:`indexing.units.UnitTable`).

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
from indexing.units import POST, Unit, kind_of

NAME = "lucene"
BATCH = 5000  # documents per hand-over to Java: fewer crossings, bounded memory
KIND = "kind"  # the document field holding the unit's kind tag
TRANSPORT: str | None = None  # 'pipe' | 'batch' | None: named pipes where the platform has them
_NON_BMP = re.compile("[\U00010000-\U0010ffff]")


def _escape_non_bmp(m: re.Match) -> str:
    c = ord(m.group(0)) - 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))


def _wide(text: str) -> bool:
    """Whether ``text`` holds characters outside the BMP (emoji, rare Han)."""
    return not text.isascii() and _NON_BMP.search(text) is not None


def json_document(uid: int, text: str, wide: bool | None = None, kind: str | None = None) -> str:
    """The JsonCollection document ``{"id": "<uid>", "contents": text, "kind": kind}`` as one
    JSON string (without ``kind`` when it is None; ``kind`` must need no escaping).

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
    if kind is None:
        return f'{{"id":"{uid}","contents":{body}}}'
    return f'{{"id":"{uid}","contents":{body},"{KIND}":"{kind}"}}'


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
    """Adds units to the per-language Lucene indexes under ``<dir>/lucene/<lang>``, in batches.

    The documents go to Anserini through a transport (:mod:`indexing.lucene_transport`: named
    pipes read by ``IndexCollection``, or jnius batches for ``SimpleIndexer``); either way Java
    indexes on its own threads while Python reads XML, cuts units and writes sqlite.

    Collections come a language at a time (LDC ships one folder per language), and committing an
    index (Lucene writes its in-memory segment to disk) is a large part of the Java work. So when
    the units move on to another language, the previous language's index is finished (committed
    in the background) while Python reads the next one. Should a finished language come back
    (interleaved inputs), its index is reopened in append mode and early finishing stops.
    """

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig, threads: int = 2,
                 memory_mb: int = 256, batch: int = BATCH, transport: str | None = None) -> None:
        from indexing import lucene_transport as lt

        jvm.lucene()
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self.batch = batch
        transport = transport or TRANSPORT
        fields = (KIND,)
        if transport is None:
            self.transport = lt.default_transport(self.root, memory_mb, threads, fields)
        elif transport in ("pipe", "batch"):
            self.transport = (lt.PipeTransport if transport == "pipe" else lt.BatchTransport)(
                self.root, memory_mb, threads, fields)
        else:
            raise ValueError(f"unknown Lucene transport {transport!r}; choose 'pipe' or 'batch'")
        self._batches: dict[str, list[str]] = {}  # lang -> documents not yet handed over
        self._finished: set[str] = set()
        self._early_finish = True
        self._lang: str | None = None

    def add_many(self, first: int, units: list[Unit]) -> None:
        """Add one thread's units (as ``indexing.units.iter_units`` gives them: all of the thread's
        language, each post unit before its passages), which have ids ``first``, ``first + 1``, ..."""
        if not units:
            return
        analysis = self.analysis
        lang = units[0].lang
        if lang != self._lang:
            self._switch(lang)
        batch = self._batches.get(lang)
        if batch is None:
            self.transport.open(lang, analysis.lucene_language(lang))
            batch = self._batches[lang] = []
        aligned = None  # the prepared text of the last post unit, when passages can slice it
        wide = None  # whether that post unit holds characters outside the BMP (so may its passages)
        for uid, unit in enumerate(units, first):
            if unit.lang != lang:
                raise ValueError(f"add_many takes one thread's units, all of one language: {unit.lang} after {lang}")
            if unit.unit == POST:
                aligned = analysis.prepare_aligned(unit.text, lang)
                text = aligned if aligned is not None else analysis.prepare(unit.text, lang)
                wide = _wide(text)
            elif aligned is not None:
                text = aligned[unit.at:unit.at + len(unit.text)]
            else:
                text = analysis.prepare(unit.text, lang)
            batch.append(json_document(uid, text, wide, kind_of(unit.unit, unit.quoted)))
            if len(batch) >= self.batch:
                self._flush(lang)
                batch = self._batches[lang]

    def _switch(self, lang: str) -> None:
        """Units moved on to ``lang``: finish the previous language's index in the background."""
        if lang in self._finished:
            self._early_finish = False  # interleaved languages: keep every index open from now on
        previous, self._lang = self._lang, lang
        if previous is None or not self._early_finish or previous not in self._batches:
            return  # (not in _batches: its index never opened, e.g. the open failed)
        self._flush(previous)
        self.transport.finish(previous)
        del self._batches[previous]
        self._finished.add(previous)

    def _flush(self, lang: str) -> None:
        batch = self._batches[lang]
        if batch:
            self.transport.send(lang, batch)
            self._batches[lang] = []

    def close(self) -> None:
        """Index what is left, then commit and close every index."""
        try:
            for lang in list(self._batches):
                self._flush(lang)
        finally:
            self._batches.clear()
            self.transport.close()

    def __enter__(self) -> "LuceneWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LuceneIndexes:
    """Searches the per-language Lucene indexes of an index folder: ``search(lang, kinds, query, k)``."""

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig) -> None:
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self._searchers: dict[str, object] = {}
        self._filters: dict[tuple[str, tuple[str, ...]], object] = {}

    def _searcher(self, lang: str):
        s = self._searchers.get(lang)
        if s is None:
            L = jvm.lucene()
            path = self.root / lang
            try:
                s = L.SimpleSearcher(str(path))
            except Exception as exc:
                raise ToolkitError(f"cannot open the Lucene index {path}: {exc}", file=str(path),
                                   hint="rebuild it with 'bolt index PATH... --out DIR --force'") from exc
            s.set_language(self.analysis.lucene_language(lang))
            s.set_bm25(float(self.analysis.bm25_k1), float(self.analysis.bm25_b))
            self._searchers[lang] = s
        return s

    def _filter(self, lang: str, kinds: tuple[str, ...]):
        """A Lucene query matching documents tagged with any of ``kinds`` (the tags analysed as
        the documents' were, so whatever the analyzer makes of them matches)."""
        f = self._filters.get((lang, kinds))
        if f is None:
            f = jvm.lucene().bag_of_words.buildQuery(KIND, self._searcher(lang).get_analyzer(), " ".join(kinds))
            self._filters[(lang, kinds)] = f
        return f

    def search(self, lang: str, kinds: tuple[str, ...], query: str, k: int) -> list[tuple[int, float]]:
        """``(unit id, BM25 score)`` pairs of units tagged with one of ``kinds``, best first."""
        if not (self.root / lang).is_dir() or not query.strip():
            return []
        L = jvm.lucene()
        searcher = self._searcher(lang)
        # what SimpleSearcher.search(text, k) runs (a bag of words on "contents"), filtered by tag
        words = L.bag_of_words.buildQuery("contents", searcher.get_analyzer(),
                                          java_text(self.analysis.prepare(query, lang)))
        q = L.BooleanQueryBuilder()
        q.add(words, L.Occur.MUST)
        q.add(self._filter(lang, kinds), L.Occur.FILTER)
        hits = searcher.search(q.build(), k)
        return [(int(h.docid), float(h.score)) for h in hits]

    def close(self) -> None:
        for s in self._searchers.values():
            try:
                s.close()
            except Exception:
                pass
        self._searchers.clear()
        self._filters.clear()
