"""Dense thread retrieval and the thread sweep for Arabic and Chinese: the threads of a language
nearest the English query by a multilingual encoder, over every thread of that language.

Cross-language retrieval sends the query's translated words; a name the lexicons lack (a company,
a place) is never sent, so the thread that answers may never be a candidate. The multilingual
encoder reads each thread's own text in its own language, so it ranks threads without a
translation. Over an index the vectors come from the index's tables (``bolt index`` encodes them
once; :mod:`indexing.vectors`), and a language too large to score sentence by sentence is searched
through its approximate index; threads held in memory are encoded here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from bolt.pipeline.sweep_weights import SWEEP_WEIGHTS, SweepWeights

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from indexing.vectors.table import VectorTable


def language_threads(corpus, lang: str) -> list[str]:
    """The ids of every thread of ``lang``, in the order they were stored (the index's thread store
    when there is one, else the threads held in memory)."""
    store = getattr(corpus, "store", corpus)
    if hasattr(store, "raw_texts"):
        return store.ids(lang)
    return [t.id for t in corpus.threads() if t.lang == lang]


def stored_table(encoder, lang: str, *kinds: str) -> "VectorTable | None":
    """The index table behind ``encoder`` when it holds ``kinds`` for ``lang`` (None: encode here)."""
    table = getattr(encoder, "table", None)
    if table is None or not set(kinds) <= set(table.units(lang)):
        return None
    return table


def top_k(ids: list[str], sims, k: int) -> list[tuple[str, float]]:
    """The ``k`` ids with the highest ``sims``, best first, ties by id (only the contenders are sorted)."""
    import numpy as np

    sims = np.asarray(sims)
    if k <= 0 or not len(sims):
        return []
    if len(sims) > k:
        floor = np.partition(sims, len(sims) - k)[len(sims) - k]
        contenders = np.flatnonzero(sims >= floor)
    else:
        contenders = np.arange(len(sims))
    order = sorted(contenders.tolist(), key=lambda i: (-float(sims[i]), ids[i]))[:k]
    return [(ids[i], float(sims[i])) for i in order]


def nearest_threads(query: str, lang: str, k: int, corpus, text_of: Callable[[str], str],
                    encoder) -> list[tuple[str, float]]:
    """The ``k`` threads of ``lang`` whose text (``text_of(id)``: headline and opening) has the
    highest cosine to ``query``, best first (ties by id), with that cosine. Over an index, the
    stored vectors of what each thread is about; else every thread's text is encoded."""
    if k <= 0:
        return []
    q = encoder.encode_query(query)
    table = stored_table(encoder, lang, "about")
    if table is not None:
        owner, rows = table.kind_rows(lang, "about")
        ids = table.threads(lang)
        return top_k([ids[i] for i in owner], table.cosines(rows, q), k)
    ids = language_threads(corpus, lang)
    if not ids:
        return []
    return top_k(ids, encoder.encode([text_of(t) for t in ids]) @ q, k)


def sentence_matrix(thread: str, sentences_of: Callable[[str], list[str]], encoder) -> "np.ndarray | None":
    """The encoder's vectors of a thread's sentences (None without sentences)."""
    texts = sentences_of(thread)
    return encoder.encode(texts) if texts else None


@dataclass(frozen=True)
class SweepParts:
    """What a thread's sweep score is made of (``scripts/sweep_weights.py`` chooses the weights on them)."""

    headline: float  # cosine of the query to the headline
    best3: float  # mean of the 3 highest cosines of the query to the thread's sentences (0 without any)
    retrieval: float  # the thread's best retrieval score (0 when retrieval missed it)
    sentences: int  # how many sentences the thread has


def sweep_score(p: SweepParts, w: SweepWeights = SWEEP_WEIGHTS) -> float:
    """``w.headline`` x headline cosine + ``w.best3`` x best-3 mean + ``w.retrieval`` x retrieval score
    - ``w.length`` x ln(1 + sentences)."""
    import math

    return w.headline * p.headline + w.best3 * p.best3 + w.retrieval * p.retrieval - w.length * math.log1p(p.sentences)


def sweep_parts(query: str, threads: list[str], headline_of: Callable[[str], str],
                sentences_of: Callable[[str], list[str]], retrieval: dict[str, float], encoder) -> dict[str, SweepParts]:
    """Per thread: the parts of its sweep score (:class:`SweepParts`), every headline and sentence encoded here."""
    q = encoder.encode_query(query)
    heads = encoder.encode([headline_of(t) for t in threads]) @ q if threads else []
    out: dict[str, SweepParts] = {}
    for t, h in zip(threads, heads):
        mat = sentence_matrix(t, sentences_of, encoder)
        top = sorted((float(v) for v in mat @ q), reverse=True)[:3] if mat is not None else [0.0]
        out[t] = SweepParts(float(h), sum(top) / len(top), retrieval.get(t, 0.0), 0 if mat is None else len(mat))
    return out


def best3_per_thread(owner: "np.ndarray", sims: "np.ndarray", size: int) -> tuple["np.ndarray", "np.ndarray"]:
    """Per thread number ``0..size-1``: the mean of its 3 highest cosines (0 without any, summed in
    descending order as :func:`sweep_parts` does) and how many it has."""
    import numpy as np

    if not len(owner):
        return np.zeros(size), np.zeros(size, dtype=np.int64)
    order = np.lexsort((-sims, owner))
    o, v = owner[order], sims[order].astype(np.float64)
    starts = np.r_[0, np.flatnonzero(np.diff(o)) + 1]
    rank = np.arange(len(o)) - np.repeat(starts, np.diff(np.r_[starts, len(o)]))
    keep = rank < 3
    sums = np.bincount(o[keep], weights=v[keep], minlength=size)
    n3 = np.bincount(o[keep], minlength=size)
    return np.where(n3 > 0, sums / np.maximum(n3, 1), 0.0), np.bincount(o, minlength=size)


def stored_sweep_parts(query: str, lang: str, retrieval: dict[str, float], encoder,
                       table: "VectorTable") -> dict[str, SweepParts]:
    """:func:`sweep_parts` from the index's vectors. Every thread of ``lang`` is scored exactly, unless
    the language has an approximate index: then the threads of the query's nearest sentences, of
    its nearest headlines and of the retrieved ``retrieval`` threads are (a thread none of them
    reaches has no sentence near the query and cannot be among the best swept)."""
    import numpy as np

    from indexing.vectors.ann import HITS

    q = encoder.encode_query(query)
    ids = table.threads(lang)
    head_owner, head_rows = table.kind_rows(lang, "headline")
    heads = np.zeros(len(ids), dtype=np.float32)
    heads[head_owner] = table.cosines(head_rows, q)
    ann = table.nearest(lang)
    if ann is None:
        owner, rows = table.kind_rows(lang, "sentence")
        chosen = np.arange(len(ids))
    else:
        chosen = np.unique(np.concatenate([
            table.owners(ann.search(q), lang), np.argsort(-heads, kind="stable")[:HITS],
            np.asarray([p for p in (table.position(t) for t in retrieval) if p is not None], dtype=np.int64)
            - table.ranges[lang][0]]))
        chosen = chosen[(chosen >= 0) & (chosen < len(ids))]
        owner, rows = table.thread_rows(chosen, lang, "sentence")
    best3, counts = best3_per_thread(owner, table.cosines(rows, q), len(ids))
    return {ids[i]: SweepParts(float(heads[i]), float(best3[i]), retrieval.get(ids[i], 0.0), int(counts[i]))
            for i in chosen.tolist()}


def sweep_scores(query: str, threads: list[str], headline_of: Callable[[str], str],
                 sentences_of: Callable[[str], list[str]], retrieval: dict[str, float], encoder,
                 w: SweepWeights = SWEEP_WEIGHTS) -> dict[str, float]:
    """Per thread of ``threads``: its :func:`sweep_score`, everything encoded here."""
    parts = sweep_parts(query, threads, headline_of, sentences_of, retrieval, encoder)
    return {t: sweep_score(p, w) for t, p in parts.items()}


def language_sweep(query: str, lang: str, corpus, headline_of: Callable[[str], str],
                   sentences_of: Callable[[str], list[str]], retrieval: dict[str, float], encoder,
                   w: SweepWeights = SWEEP_WEIGHTS) -> dict[str, float]:
    """Per thread of ``lang`` (``xl_sweep``): its :func:`sweep_score`. On a one-subject board (every
    thread about stocks) the translated words reach many threads and miss the one that answers;
    the encoder over every sentence finds the reply that answers, the headline says what the
    thread is about, and the length term keeps long chatter threads from winning by their size
    alone. From the index's vectors when it has them (:func:`stored_sweep_parts`)."""
    parts = language_sweep_parts(query, lang, corpus, headline_of, sentences_of, retrieval, encoder)
    return {t: sweep_score(p, w) for t, p in parts.items()}


def language_sweep_parts(query: str, lang: str, corpus, headline_of: Callable[[str], str],
                         sentences_of: Callable[[str], list[str]], retrieval: dict[str, float],
                         encoder) -> dict[str, SweepParts]:
    """Per thread of ``lang``: the parts of its sweep score, from the index's vectors when it has
    them (:func:`stored_sweep_parts`), else encoded here (:func:`sweep_parts`)."""
    table = stored_table(encoder, lang, "headline", "sentence")
    if table is not None:
        return stored_sweep_parts(query, lang, retrieval, encoder, table)
    return sweep_parts(query, language_threads(corpus, lang), headline_of, sentences_of, retrieval, encoder)
