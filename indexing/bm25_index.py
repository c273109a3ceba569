"""The rank-bm25 backend: pure Python, built in memory, same collections and results as the Lucene one.

For small collections and tests: nothing but ``units.sqlite`` is written at build time; opening
the index tokenises each language's units with :meth:`AnalysisConfig.tokens` (a Python mirror of
the Lucene analyzers) and builds one ``rank_bm25`` model per language on its first search. As
in the Lucene backend, that model holds every unit of the language (so the BM25 statistics are
the same) and a search keeps only the units whose kind tag it asks for. Scoring uses Lucene's
BM25 idf, ``log(1 + (N - n + 0.5) / (n + 0.5))``, with the same ``k1``/``b`` as the Lucene
backend and without the constant ``(k1 + 1)`` factor (as Lucene), so scores are comparable in
scale (not identical: the Python analysers mirror Lucene's only approximately).
"""
from __future__ import annotations

import math
from typing import Iterable

from indexing.analysis import AnalysisConfig

NAME = "bm25"


def _model_class():
    from rank_bm25 import BM25Okapi

    class LuceneIdfBM25(BM25Okapi):
        """BM25Okapi with Lucene's always-positive idf (rank-bm25's can go negative)."""

        def _calc_idf(self, nd):  # noqa: N802 (rank-bm25's name)
            n_docs = self.corpus_size
            self.idf = {w: math.log(1 + (n_docs - df + 0.5) / (df + 0.5)) for w, df in nd.items()}

    return LuceneIdfBM25


class Bm25Language:
    """One in-memory BM25 model over the ``(id, kind tag, text)`` units of one language."""

    def __init__(self, items: Iterable[tuple[int, str, str]], lang: str, analysis: AnalysisConfig) -> None:
        self.lang = lang
        self.analysis = analysis
        ids, kinds, docs = [], [], []
        for uid, kind, text in items:
            ids.append(uid)
            kinds.append(kind)
            docs.append(analysis.tokens(text, lang))
        self.ids = ids
        self.kinds = kinds
        self._rows: dict[tuple[str, ...], list[int]] = {}
        self.model = (_model_class()(docs, k1=analysis.bm25_k1, b=analysis.bm25_b)
                      if ids and any(docs) else None)

    def rows(self, kinds: tuple[str, ...]) -> list[int]:
        """The model's rows (in id order) of the units tagged with one of ``kinds``."""
        rows = self._rows.get(kinds)
        if rows is None:
            wanted = set(kinds)
            rows = self._rows[kinds] = [i for i, kind in enumerate(self.kinds) if kind in wanted]
        return rows

    def search(self, kinds: tuple[str, ...], query: str, k: int) -> list[tuple[int, float]]:
        import numpy as np

        terms = self.analysis.tokens(query, self.lang)
        rows = self.rows(kinds)
        if self.model is None or not terms or not rows:
            return []
        # only the wanted units are scored (the statistics are the whole language's);
        # rank-bm25 keeps the classic (k1 + 1) factor that Lucene's BM25 drops: divide it out.
        scores = np.asarray(self.model.get_batch_scores(terms, rows)) / (self.analysis.bm25_k1 + 1)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        ranked = sorted(top, key=lambda i: (-scores[i], i))
        return [(self.ids[rows[i]], float(scores[i])) for i in ranked if scores[i] > 0]


class Bm25Languages:
    """In-memory BM25 over the languages of an index folder's unit table (built lazily per language)."""

    def __init__(self, table, analysis: AnalysisConfig) -> None:
        self.table = table
        self.analysis = analysis
        self._models: dict[str, Bm25Language] = {}

    def search(self, lang: str, kinds: tuple[str, ...], query: str, k: int) -> list[tuple[int, float]]:
        """``(unit id, BM25 score)`` pairs of units tagged with one of ``kinds``, best first."""
        model = self._models.get(lang)
        if model is None:
            model = self._models[lang] = Bm25Language(self.table.iter_lang(lang), lang, self.analysis)
        return model.search(kinds, query, k)

    def close(self) -> None:
        self._models.clear()
