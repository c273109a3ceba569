"""Dense thread retrieval for Arabic and Chinese (``xl_dense``): the threads of a language
nearest the English query by the multilingual encoder, over every thread of that language.

Cross-language retrieval sends the query's translated words; a name the lexicons lack (a company,
a place) is never sent, so the thread that answers may never be a candidate. The multilingual
encoder reads each thread's own text (headline and opening post: what it is about) in its own
language, so it ranks threads without a translation. Each thread is encoded once per process:
the vectors of a store's threads are kept per (store file, language, encoder, text settings).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from bolt.pipeline.sweep_weights import SWEEP_WEIGHTS, SweepWeights

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

_CACHE: dict[tuple, tuple[list[str], "np.ndarray | None"]] = {}
_LOCK = threading.Lock()


def _store(corpus):
    """The index's thread store behind ``corpus`` (or ``corpus`` itself), None for threads in memory."""
    store = getattr(corpus, "store", corpus)
    return store if hasattr(store, "raw_texts") else None


def store_path(corpus) -> str | None:
    """The file of the thread store behind ``corpus``: what per-process vector caches are keyed by
    (None for threads held in memory, which rely on the encoder's own per-text cache)."""
    store = _store(corpus)
    return str(store.path) if store is not None else None


_IDS_CACHE: dict[tuple[str, str], list[str]] = {}


def language_threads(corpus, lang: str) -> list[str]:
    """The ids of every thread of ``lang``: from the index's thread store when there is one (no
    thread parsed; listed once per process per store file and language, since ``xl_sweep`` needs the
    listing for every topic), else from threads held in memory, in the order they were stored."""
    store = _store(corpus)
    if store is None:
        return [t.id for t in corpus.threads() if t.lang == lang]
    key = (str(store.path), lang)
    with _LOCK:
        ids = _IDS_CACHE.get(key)
    if ids is None:
        ids = store.ids(lang)
        with _LOCK:
            _IDS_CACHE[key] = ids
    return ids


def nearest_threads(query: str, lang: str, k: int, corpus, text_of: Callable[[str], str], encoder,
                    settings: str = "", max_threads: int | None = None) -> list[tuple[str, float]]:
    """The ``k`` threads of ``lang`` whose text (``text_of(id)``) has the highest cosine to ``query``,
    best first (ties by id), with that cosine; none when ``lang`` has more than ``max_threads``
    threads (nothing is encoded then). A store's thread vectors (or that refusal) are cached for the
    process, keyed by the store's file, ``lang``, the encoder, ``settings`` (whatever ``text_of``
    depends on) and ``max_threads``; threads held in memory rely on the encoder's own per-text cache."""
    if k <= 0:
        return []
    path = store_path(corpus)
    key = (path, lang, encoder.model_id, settings, max_threads) if path is not None else None
    with _LOCK:
        hit = _CACHE.get(key) if key is not None else None
    if hit is None:
        ids = language_threads(corpus, lang)
        too_many = max_threads is not None and len(ids) > max_threads
        hit = (ids, None if too_many else encoder.encode([text_of(t) for t in ids]))
        if key is not None:
            with _LOCK:
                _CACHE[key] = hit
    ids, mat = hit
    if not ids or mat is None:
        return []
    sims = mat @ encoder.encode_query(query)
    order = sorted(range(len(ids)), key=lambda i: (-float(sims[i]), ids[i]))[:k]
    return [(ids[i], float(sims[i])) for i in order]


_SENT_CACHE: dict[tuple, "np.ndarray"] = {}


def sentence_matrix(thread: str, sentences_of: Callable[[str], list[str]], encoder, key: tuple = ()) -> "np.ndarray | None":
    """The encoder's vectors of a thread's sentences (None without sentences), kept per process by
    ``key`` (the store's file, the encoder, the clause settings) and the thread."""
    ck = (*key, thread) if key else None
    with _LOCK:
        mat = _SENT_CACHE.get(ck) if ck is not None else None
    if mat is None:
        texts = sentences_of(thread)
        mat = encoder.encode(texts) if texts else None
        if ck is not None and mat is not None:
            with _LOCK:
                _SENT_CACHE[ck] = mat
    return mat if mat is not None and len(mat) else None


_HEAD_CACHE: dict[tuple, str] = {}


def _headline(thread: str, headline_of: Callable[[str], str], key: tuple) -> str:
    """A thread's headline, kept per process by ``key`` and the thread (a sweep reads every thread's
    headline for every topic; parsing each thread again would cost more than the encoder)."""
    if not key:
        return headline_of(thread)
    ck = (*key, thread)
    with _LOCK:
        hit = _HEAD_CACHE.get(ck)
    if hit is None:
        hit = headline_of(thread)
        with _LOCK:
            _HEAD_CACHE[ck] = hit
    return hit


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
                sentences_of: Callable[[str], list[str]], retrieval: dict[str, float], encoder,
                key: tuple = ()) -> dict[str, SweepParts]:
    """Per thread: the parts of its sweep score (:class:`SweepParts`); headlines and sentence vectors
    are kept per process by ``key`` (see :func:`sentence_matrix`)."""
    q = encoder.encode_query(query)
    heads = encoder.encode([_headline(t, headline_of, key) for t in threads]) @ q if threads else []
    out: dict[str, SweepParts] = {}
    for t, h in zip(threads, heads):
        mat = sentence_matrix(t, sentences_of, encoder, key)
        top = sorted((float(v) for v in mat @ q), reverse=True)[:3] if mat is not None else [0.0]
        out[t] = SweepParts(float(h), sum(top) / len(top), retrieval.get(t, 0.0), 0 if mat is None else len(mat))
    return out


def sweep_scores(query: str, threads: list[str], headline_of: Callable[[str], str],
                 sentences_of: Callable[[str], list[str]], retrieval: dict[str, float], encoder,
                 key: tuple = (), w: SweepWeights = SWEEP_WEIGHTS) -> dict[str, float]:
    """Per thread (every thread of a language, ``xl_sweep``): its :func:`sweep_score`. On a one-subject
    board (every thread about stocks) the translated words reach many threads and miss the one that
    answers; the encoder over every sentence finds the reply that answers, the headline says what
    the thread is about, and the length term keeps long chatter threads from winning by their size
    alone."""
    parts = sweep_parts(query, threads, headline_of, sentences_of, retrieval, encoder, key)
    return {t: sweep_score(p, w) for t, p in parts.items()}
