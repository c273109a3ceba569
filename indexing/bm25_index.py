"""The rank-bm25 backend: pure Python, built in memory, same shards and results as the Lucene one.

For small collections and tests: nothing but ``units.sqlite`` is written at build time; opening
the index tokenises each shard with :meth:`AnalysisConfig.tokens` (a Python mirror of the Lucene
analyzers) and builds a ``rank_bm25`` model per shard on first search. Scoring uses Lucene's
BM25 idf, ``log(1 + (N - n + 0.5) / (n + 0.5))``, with the same ``k1``/``b`` as the Lucene
backend and without the constant ``(k1 + 1)`` factor (as Lucene), so scores are comparable in
scale (not identical: the Python analysers mirror Lucene's only approximately).
"""
from __future__ import annotations

import math
from typing import Iterable

from indexing.analysis import AnalysisConfig

NAME = "bm25"


def is_available() -> bool:
    try:
        import rank_bm25  # noqa: F401
    except ImportError:
        return False
    return True


def _model_class():
    from rank_bm25 import BM25Okapi

    class LuceneIdfBM25(BM25Okapi):
        """BM25Okapi with Lucene's always-positive idf (rank-bm25's can go negative)."""

        def _calc_idf(self, nd):  # noqa: N802 (rank-bm25's name)
            n_docs = self.corpus_size
            self.idf = {w: math.log(1 + (n_docs - df + 0.5) / (df + 0.5)) for w, df in nd.items()}

    return LuceneIdfBM25


class Bm25Shard:
    """One in-memory BM25 model over ``(id, text)`` pairs of one language."""

    def __init__(self, items: Iterable[tuple[int, str]], lang: str, analysis: AnalysisConfig) -> None:
        self.lang = lang
        self.analysis = analysis
        ids, docs = [], []
        for uid, text in items:
            ids.append(uid)
            docs.append(analysis.tokens(text, lang))
        self.ids = ids
        self.model = (_model_class()(docs, k1=analysis.bm25_k1, b=analysis.bm25_b)
                      if ids and any(docs) else None)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        import numpy as np

        terms = self.analysis.tokens(query, self.lang)
        if self.model is None or not terms:
            return []
        # rank-bm25 keeps the classic (k1 + 1) factor that Lucene's BM25 drops: divide it out.
        scores = self.model.get_scores(terms) / (self.analysis.bm25_k1 + 1)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        ranked = sorted(top, key=lambda i: (-scores[i], i))
        return [(self.ids[i], float(scores[i])) for i in ranked if scores[i] > 0]


class Bm25Shards:
    """In-memory BM25 over the shards of an index folder's unit table (built lazily per shard)."""

    def __init__(self, table, analysis: AnalysisConfig) -> None:
        self.table = table
        self.analysis = analysis
        self._models: dict[str, Bm25Shard] = {}

    def shards(self) -> list[str]:
        return self.table.shards()

    def search(self, shard: str, lang: str, query: str, k: int) -> list[tuple[int, float]]:
        model = self._models.get(shard)
        if model is None:
            model = self._models[shard] = Bm25Shard(self.table.iter_shard(shard), lang, self.analysis)
        return model.search(query, k)

    def close(self) -> None:
        self._models.clear()
