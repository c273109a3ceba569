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

import json
import os
from pathlib import Path

from indexing import jvm
from indexing.analysis import AnalysisConfig
from indexing.errors import RuntimeUnavailable, ToolkitError
from indexing.units import Unit, shard_of

NAME = "lucene"
_KEEP: list = []
BATCH = 2000


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


class LuceneWriter:
    """Adds units to per-shard Lucene indexes under ``<dir>/lucene/<shard>``, in batches."""

    def __init__(self, index_dir: str | os.PathLike, analysis: AnalysisConfig, threads: int = 2,
                 memory_mb: int = 256) -> None:
        jvm.lucene()
        _quiet_logs()
        self.root = Path(index_dir) / "lucene"
        self.analysis = analysis
        self.threads = threads
        self.memory_mb = memory_mb
        self._writers: dict[str, object] = {}
        self._batches: dict[str, list[str]] = {}

    def _writer(self, shard: str, lang: str):
        w = self._writers.get(shard)
        if w is None:
            from pyserini.index.lucene import LuceneIndexer

            path = self.root / shard
            path.mkdir(parents=True, exist_ok=True)
            args = ["-index", str(path), "-language", self.analysis.lucene_language(lang),
                    "-memoryBuffer", str(self.memory_mb)]
            try:
                w = LuceneIndexer(str(path), args=args, threads=self.threads)
            except Exception as exc:
                raise RuntimeUnavailable(f"cannot create a Lucene index at {path}: {exc}",
                                         hint="run 'bolt doctor' for a diagnosis") from exc
            self._writers[shard] = w
            self._batches[shard] = []
        return w

    def add(self, uid: int, unit: Unit) -> None:
        shard = shard_of(unit.lang, unit.unit, unit.quoted)
        self._writer(shard, unit.lang)
        batch = self._batches[shard]
        batch.append(json.dumps({"id": str(uid), "contents": self.analysis.prepare(unit.text, unit.lang)},
                                ensure_ascii=False))
        if len(batch) >= BATCH:
            self._flush(shard)

    def _flush(self, shard: str) -> None:
        batch = self._batches[shard]
        if batch:
            self._writers[shard].add_batch_raw(batch)
            batch.clear()

    def close(self) -> None:
        for shard in list(self._writers):
            self._flush(shard)
            self._writers[shard].close()
        self._writers.clear()

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
        hits = self._searcher(shard, lang).search(self.analysis.prepare(query, lang), k)
        return [(int(h.docid), float(h.score)) for h in hits]

    def close(self) -> None:
        for s in self._searchers.values():
            try:
                s.close()
            except Exception:
                pass
        self._searchers.clear()
