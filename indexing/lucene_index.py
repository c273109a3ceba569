"""The Lucene backend (pyserini/Anserini): one Lucene index per shard, each with its language's analyzer.

One index per language (and per unit kind and quote status) rather than one index with
per-language fields: Anserini's ``SimpleIndexer`` and ``LuceneSearcher`` take one analyzer per
index (``-language ar`` → ``ArabicAnalyzer``, ``zh`` → ``CJKAnalyzer``, ``en`` → Porter + stop
words), BM25 statistics stay within one language, and a language can be searched alone at no
cost. Lucene documents hold only the unit id and the analysed text; offsets and the original
text live in ``units.sqlite`` (:class:`indexing.units.UnitTable`).

The JVM is started only through :mod:`indexing.jvm`, on first use, never at import.
"""
from __future__ import annotations

import os
import queue
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from json.encoder import encode_basestring
from pathlib import Path

from indexing import jvm
from indexing.analysis import AnalysisConfig
from indexing.errors import RuntimeUnavailable, ToolkitError
from indexing.units import Unit, shard_of

NAME = "lucene"
_KEEP: list = []
BATCH = 5000  # documents per Java call: fewer Python<->Java crossings, bounded memory
QUEUE = 3  # batches waiting for the feeder thread (back-pressure on the reader)
_NON_BMP = re.compile("[\U00010000-\U0010ffff]")


def _escape_non_bmp(m: re.Match) -> str:
    c = ord(m.group(0)) - 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (c >> 10), 0xDC00 + (c & 0x3FF))


def json_document(uid: int, text: str) -> str:
    """The JsonCollection document ``{"id": "<uid>", "contents": text}`` as one JSON string.

    Built by hand with the C string encoder (several times faster than ``json.dumps`` of a dict).
    Characters outside the BMP (emoji, rare Han) are written as surrogate escapes: jnius passes
    strings to Java as modified UTF-8, which would mangle them, while Jackson decodes the escapes.
    """
    body = encode_basestring(text)
    if not body.isascii() and _NON_BMP.search(body):
        body = _NON_BMP.sub(_escape_non_bmp, body)
    return f'{{"id":"{uid}","contents":{body}}}'


def is_available() -> bool:
    """True when Java 21 and pyserini's jar can be found (the JVM is not started)."""
    return jvm.is_available()


def _quiet_logs() -> None:
    """Anserini logs every index it opens at INFO on stderr; keep warnings only."""
    try:
        L = jvm.lucene()
        level = L.autoclass("org.apache.logging.log4j.Level")
        L.autoclass("org.apache.logging.log4j.core.config.Configurator").setRootLevel(level.WARN)
        jul = L.autoclass("java.util.logging.Logger").getLogger("org.apache.lucene")
        jul.setLevel(L.autoclass("java.util.logging.Level").WARNING)
        _KEEP.append(jul)  # java.util.logging holds loggers weakly
    except Exception:  # logging set-up is cosmetic
        pass


def lucene_version() -> str:
    """The Anserini jar the indexes are built with (e.g. ``anserini-1.2.0``)."""
    return Path(jvm.anserini_jar()).name.replace("-fatjar.jar", "")


def java_text(text: str):
    """``text`` as jnius should pass it to Java: a ``java.lang.String`` built from UTF-8 when it
    holds characters outside the BMP (jnius' own conversion mangles those), else ``text`` itself."""
    if text.isascii() or not _NON_BMP.search(text):
        return text
    return jvm.lucene().autoclass("java.lang.String")(text.encode("utf-8"), "UTF-8")


class LuceneWriter:
    """Adds units to per-shard Lucene indexes under ``<dir>/lucene/<shard>``, in batches.

    Java works while Python reads: batches of JSON documents go through a bounded queue to a
    feeder thread that hands them to Anserini's ``SimpleIndexer.addRawDocuments`` (which analyses
    them on ``threads`` Java threads). jnius releases the GIL during a Java call, so reading XML,
    cutting units and writing sqlite in Python overlap with Lucene's analysis on the other core.

    Collections come a language at a time (LDC ships one folder per language), and committing a
    shard (Lucene writes its in-memory segment to disk) is a large part of the Java work. So when
    the units move on to another language, the previous language's shards are committed and
    closed in the background while Python reads the next one. Should a closed language come back
    (interleaved inputs), its shards are reopened in append mode and early closing stops.
    Documents are laid out by Anserini itself (``DefaultLuceneDocumentGenerator``), exactly as its
    ``IndexCollection`` does, so ``LuceneSearcher`` reads them like any Anserini index.
    """

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig, threads: int = 2,
                 memory_mb: int = 256, batch: int = BATCH) -> None:
        jvm.lucene()
        _quiet_logs()
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self.threads = threads
        self.memory_mb = memory_mb
        self.batch = batch
        self._writers: dict[str, object] = {}
        self._batches: dict[str, list[str]] = {}
        self._shard_lang: dict[str, str] = {}
        self._closing: dict[str, Future] = {}  # shard -> its background close
        self._closed_langs: set[str] = set()
        self._early_close = True
        self._lang: str | None = None
        self._queue: queue.Queue = queue.Queue(maxsize=QUEUE)
        self._error: BaseException | None = None
        self._feeder: threading.Thread | None = None
        self._closer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lucene-close")

    def _writer(self, shard: str, lang: str):
        w = self._writers.get(shard)
        if w is None:
            from pyserini.index.lucene import LuceneIndexer

            path = self.root / shard
            path.mkdir(parents=True, exist_ok=True)
            previous = self._closing.pop(shard, None)
            if previous is not None:
                previous.result()  # the shard's lock is released once its close is done
            args = ["-index", str(path), "-language", self.analysis.lucene_language(lang),
                    "-memoryBuffer", str(self.memory_mb)]
            try:
                w = LuceneIndexer(str(path), args=args, threads=self.threads, append=previous is not None)
            except Exception as exc:
                raise RuntimeUnavailable(f"cannot create a Lucene index at {path}: {exc}",
                                         hint="run 'bolt doctor' for a diagnosis") from exc
            self._writers[shard] = w
            self._batches[shard] = []
            self._shard_lang[shard] = lang
        return w

    def add(self, uid: int, unit: Unit) -> None:
        if unit.lang != self._lang:
            self._switch(unit.lang)
        shard = shard_of(unit.lang, unit.unit, unit.quoted)
        batch = self._batches.get(shard)
        if batch is None:
            self._writer(shard, unit.lang)
            batch = self._batches[shard]
        batch.append(json_document(uid, self.analysis.prepare(unit.text, unit.lang)))
        if len(batch) >= self.batch:
            self._flush(shard)

    def _switch(self, lang: str) -> None:
        """Units moved on to ``lang``: close the previous language's shards in the background."""
        if lang in self._closed_langs:
            self._early_close = False  # interleaved languages: keep every writer open from now on
        previous, self._lang = self._lang, lang
        if previous is None or not self._early_close:
            return
        for shard in [s for s in self._writers if self._shard_lang[s] == previous]:
            self._flush(shard)
            self._send(("close", shard, self._writers.pop(shard)))
            del self._batches[shard]
        self._closed_langs.add(previous)

    def _flush(self, shard: str) -> None:
        batch = self._batches[shard]
        if batch:
            self._send(("add", shard, self._writers[shard], batch))
            self._batches[shard] = []

    def _send(self, item: tuple) -> None:
        self._raise_feeder_error()
        if self._feeder is None:
            self._feeder = threading.Thread(target=self._feed, name="lucene-feeder", daemon=True)
            self._feeder.start()
        if item[0] == "close":
            # registered now (not by the feeder) so that a reopening waits for it
            self._closing[item[1]] = future = Future()
            item = (*item, future)
        self._queue.put(item)

    def _feed(self) -> None:
        """The feeder thread: hand queued batches to Java, in order, until the ``None`` sentinel."""
        while True:
            item = self._queue.get()
            if item is None:
                return
            if item[0] == "close":
                _, _, writer, future = item
                self._closer.submit(_close_into, writer, future)
                continue
            if self._error is not None:
                continue  # drain after a failure so the producer never blocks
            try:
                item[2].add_batch_raw(item[3])
            except BaseException as exc:  # re-raised in the producer's thread
                self._error = exc

    def _raise_feeder_error(self) -> None:
        if self._error is not None:
            raise ToolkitError(f"Lucene failed while indexing under {self.root}: {self._error}",
                               hint="run 'bolt doctor'; rebuild with --force") from self._error

    def close(self) -> None:
        """Index what is left, then commit and close every shard (open ones in parallel)."""
        try:
            for shard in list(self._writers):
                self._flush(shard)
        finally:
            if self._feeder is not None:
                self._queue.put(None)
                self._feeder.join()
                self._feeder = None
            writers = list(self._writers.values())
            self._writers.clear()
            self._batches.clear()
            if writers:
                with ThreadPoolExecutor(max_workers=min(len(writers), 2 * max(1, self.threads))) as pool:
                    list(pool.map(lambda w: w.close(), writers))
            self._closer.shutdown(wait=True)
            closing, self._closing = list(self._closing.values()), {}
        for future in closing:
            future.result()
        self._raise_feeder_error()

    def __enter__(self) -> "LuceneWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _close_into(writer, future: Future) -> None:
    try:
        writer.close()
        future.set_result(None)
    except BaseException as exc:
        future.set_exception(exc)


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
            _quiet_logs()
            path = self.root / shard
            try:
                s = L.LuceneSearcher(str(path))
            except Exception as exc:
                raise ToolkitError(f"cannot open the Lucene index {path}: {exc}", file=str(path),
                                   hint="rebuild it with 'bolt index PATH... --out DIR --force'") from exc
            s.set_language(self.analysis.lucene_language(lang))
            s.set_bm25(self.analysis.bm25_k1, self.analysis.bm25_b)
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
