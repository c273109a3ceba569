"""The Lucene backend (pyserini/Anserini): one Lucene index per shard, each with its language's analyzer.

One index per language (and per unit kind and quote status) rather than one index with
per-language fields: Anserini's ``SimpleIndexer`` and ``SimpleSearcher`` take one analyzer per
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
from indexing.units import POST, Unit, shard_of

NAME = "lucene"
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

    Java works while Python reads: batches of JSON documents go through a bounded queue to
    ``threads`` feeder threads, each handing one batch at a time to Anserini's
    ``SimpleIndexer.addRawDocuments`` on a single Java thread. jnius releases the GIL during a Java
    call, so reading XML, cutting units and writing sqlite in Python overlap with Lucene's analysis.
    (Measured: ``SimpleIndexer`` with two Java threads per call waits at the end of every batch for
    its slower thread; two feeders with one Java thread each keep both cores busy and match
    Anserini's own ``IndexCollection`` in speed, 19 vs 22 CPU seconds for the same documents.)

    Collections come a language at a time (LDC ships one folder per language), and committing a
    shard (Lucene writes its in-memory segment to disk) is a large part of the Java work. So when
    the units move on to another language, the previous language's shards are committed and
    closed in the background, once their last batch is indexed, while Python reads the next one.
    Should a closed language come back (interleaved inputs), its shards are reopened in append
    mode and early closing stops. Documents are laid out by Anserini itself
    (``DefaultLuceneDocumentGenerator``), exactly as its ``IndexCollection`` does, so
    Anserini's searcher reads them like any Anserini index.
    """

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig, threads: int = 2,
                 memory_mb: int = 256, batch: int = BATCH) -> None:
        jvm.lucene()
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self.threads = threads
        self.memory_mb = memory_mb
        self.batch = batch
        self._writers: dict[str, object] = {}
        self._batches: dict[str, list[str]] = {}
        self._shard_lang: dict[str, str] = {}
        self._closing: dict[str, Future] = {}  # shard -> its background close
        self._in_flight: dict[str, list[Future]] = {}  # shard -> its batches handed to the feeders
        self._closed_langs: set[str] = set()
        self._early_close = True
        self._lang: str | None = None
        self._queue: queue.Queue = queue.Queue(maxsize=QUEUE * max(1, threads))
        self._error: BaseException | None = None
        self._feeders: list[threading.Thread] = []
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
                w = LuceneIndexer(str(path), args=args, threads=1, append=previous is not None)
            except Exception as exc:
                raise RuntimeUnavailable(f"cannot create a Lucene index at {path}: {exc}",
                                         hint="run 'bolt doctor' for a diagnosis") from exc
            _limit_ram_buffer(w, self.memory_mb)
            self._writers[shard] = w
            self._in_flight[shard] = []
            self._batches[shard] = []
            self._shard_lang[shard] = lang
        return w

    def add_many(self, first: int, units: list[Unit]) -> None:
        """Add one thread's units (as ``indexing.units.iter_units`` gives them: each post unit
        before its passages), which have ids ``first``, ``first + 1``, ..."""
        analysis = self.analysis
        batches = self._batches
        aligned = None  # the prepared text of the last post unit, when passages can slice it
        for uid, unit in enumerate(units, first):
            lang = unit.lang
            if lang != self._lang:
                self._switch(lang)
            if unit.unit == POST:
                aligned = analysis.prepare_aligned(unit.text, lang)
                text = aligned if aligned is not None else analysis.prepare(unit.text, lang)
            elif aligned is not None:
                text = aligned[unit.at:unit.at + len(unit.text)]
            else:
                text = analysis.prepare(unit.text, lang)
            shard = shard_of(lang, unit.unit, unit.quoted)
            batch = batches.get(shard)
            if batch is None:
                self._writer(shard, lang)
                batch = batches[shard]
            batch.append(json_document(uid, text))
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
            # registered now (not by a feeder) so that a reopening of the shard waits for it
            self._closing[shard] = future = Future()
            self._closer.submit(_close_into, self._writers.pop(shard), self._in_flight.pop(shard), future)
            del self._batches[shard]
        self._closed_langs.add(previous)

    def _flush(self, shard: str) -> None:
        batch = self._batches[shard]
        if batch:
            self._raise_feeder_error()
            if not self._feeders:
                self._feeders = [threading.Thread(target=self._feed, name=f"lucene-feeder-{i}", daemon=True)
                                 for i in range(max(1, self.threads))]
                for t in self._feeders:
                    t.start()
            done: Future = Future()
            in_flight = self._in_flight[shard]
            in_flight[:] = [f for f in in_flight if not f.done()]
            in_flight.append(done)
            self._queue.put((self._writers[shard], batch, done))
            self._batches[shard] = []

    def _feed(self) -> None:
        """A feeder thread: hand queued batches to Java until the ``None`` sentinel."""
        while True:
            item = self._queue.get()
            if item is None:
                return
            writer, batch, done = item
            if self._error is None:  # after a failure, drain so that the producer never blocks
                try:
                    writer.add_batch_raw(batch)
                except BaseException as exc:  # re-raised in the producer's thread
                    self._error = exc
            done.set_result(None)

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
            for _ in self._feeders:
                self._queue.put(None)
            for t in self._feeders:
                t.join()
            self._feeders = []
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


def _close_into(writer, in_flight: list[Future], future: Future) -> None:
    """Commit and close a shard once the feeders have indexed its last batch."""
    try:
        for f in in_flight:
            f.result()
        writer.close()
        future.set_result(None)
    except BaseException as exc:
        future.set_exception(exc)


def _limit_ram_buffer(indexer, memory_mb: int) -> None:
    """Give the shard's ``IndexWriter`` a RAM buffer of ``memory_mb``.

    ``SimpleIndexer`` ignores ``-memoryBuffer`` and buffers up to 2 GB, so a language's whole shard
    sat in memory and was flushed, on one thread, only at the end. Its writer is private, so it is
    reached by reflection; should that fail (another Anserini), the build goes on with 2 GB.
    """
    try:
        L = jvm.lucene()
        utils = L.autoclass("org.apache.commons.lang3.reflect.FieldUtils")
        writer = L.cast("org.apache.lucene.index.IndexWriter", utils.readField(indexer.object, "writer", True))
        writer.getConfig().setRAMBufferSizeMB(float(memory_mb))
    except Exception:  # an optimisation only
        pass


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
