"""Dense thread retrieval for Arabic and Chinese (``xl_dense``, issue 29): the threads of a language
nearest the English query by the multilingual encoder, over every thread of that language.

Cross-language retrieval sends the query's translated words; a name the lexicons lack (a company,
a place) is never sent, so the thread that answers may never be a candidate. The multilingual
encoder reads each thread's own text (headline and opening post: what it is about) in its own
language, so it ranks threads without a translation. Each thread is encoded once per process:
the vectors of a store's threads are kept per (store file, language, encoder, text settings).
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

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


def language_threads(corpus, lang: str) -> list[str]:
    """The ids of every thread of ``lang``: from the index's thread store when there is one (no
    thread parsed), else from threads held in memory, in the order they were stored."""
    store = _store(corpus)
    if store is not None:
        return store.ids(lang)
    return [t.id for t in corpus.threads() if t.lang == lang]


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
    sims = mat @ encoder.encode([query])[0]
    order = sorted(range(len(ids)), key=lambda i: (-float(sims[i]), ids[i]))[:k]
    return [(ids[i], float(sims[i])) for i in order]


_SENT_CACHE: dict[tuple, "np.ndarray"] = {}


def whole_thread_scores(query: str, threads: list[str], sentences_of: Callable[[str], list[str]], encoder,
                        k: int, key: tuple = ()) -> dict[str, float]:
    """Per thread: the mean of the ``k`` highest cosines of the query to the thread's sentences
    (``k`` = 1: the best one), every post read (``xl_whole``, issue 29). A headline and opening post
    say little on a board where every thread shares the query's words; the reply that answers is
    what sets the answering thread apart. Sentence vectors are kept per process, keyed by ``key``
    (the store's file, the encoder, the clause settings) and the thread; a thread without
    sentences scores 0."""
    out: dict[str, float] = {}
    if k <= 0:
        return out
    q = encoder.encode([query])[0]
    for t in threads:
        ck = (*key, t) if key else None
        with _LOCK:
            mat = _SENT_CACHE.get(ck) if ck is not None else None
        if mat is None:
            texts = sentences_of(t)
            mat = encoder.encode(texts) if texts else None
            if ck is not None and mat is not None:
                with _LOCK:
                    _SENT_CACHE[ck] = mat
        if mat is None or not len(mat):
            out[t] = 0.0
            continue
        sims = sorted((float(v) for v in mat @ q), reverse=True)[:k]
        out[t] = max(0.0, sum(sims) / len(sims))
    return out
