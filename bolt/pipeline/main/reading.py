"""What every stage of ``main`` reads besides its input records: a thread's text, the encoders,
the candidate threads' languages and best retrieval scores.

Each function takes the :class:`bolt.pipeline.systems.Distiller` (the index, the thread store, the
settings) so the stages stay functions of their inputs; encoders are loaded once per process.
"""
from __future__ import annotations

from bolt.pipeline.candidates import CandidatePost
from bolt.pipeline.systems import Distiller


def is_embedded(lang: str) -> bool:
    """Whether sentences and threads of ``lang`` are scored with the embedding model (English)."""
    return lang == "eng"


def embedder(d: Distiller):
    """The English model ``model`` (English sentences and threads): over an index's vectors of it,
    those vectors and a query encoder (:func:`indexing.models.embedding.get_query_embedder`), else
    the sentence-transformers model encoding everything."""
    from indexing.models.embedding import get_embedder, get_query_embedder
    from bolt.vectors.needs import embedding_spec

    key = embedding_spec(d.config).key
    if d.has_vectors(key):  # only queries are encoded here: without torch when the model allows
        return d.with_vectors(get_query_embedder(d.config.model), key)
    return get_embedder(d.config.model)


def xl_encoder(d: Distiller, name: str | None = None):
    """The multilingual encoder ``name`` (default ``xl_encoder``), loaded once per process, reading
    the index's vectors of it when there are some."""
    from indexing.models.multilingual import get_encoder

    name = name or d.config.xl_encoder
    if d.has_vectors(name):  # only queries are encoded here: one thread (as the index's USE vectors were)
        return d.with_vectors(get_encoder(name, threads=1), name)
    return get_encoder(name)


def thread_text(d: Distiller, thread_id: str, lang: str) -> str:
    """Headline plus the opening post's first sentences: what the thread is about (only the opening
    post is cut into sentences: a long thread's replies cost seconds and are not read here)."""
    from bolt.pipeline.candidates import post_sentences

    th = d.thread(thread_id)
    if th is None:
        return ""
    first = CandidatePost(thread_id, th.posts[0].id, lang, 0.0, 0, 0.0) if th.posts else None
    opening = [s.text for s in post_sentences(th, first, d.config.clause_limits())][:3] if first else []
    return " ".join([th.headline, *opening])[:400]


def thread_candidates(d: Distiller, thread_id: str, lang: str, rank: int, score: float) -> list[CandidatePost]:
    """Every post of a thread a second retriever found (``xl_dense``, ``xl_sweep``) as candidates:
    ranks from ``rank`` on, ``score`` (0..1, relative to that retriever's best) as retrieval score."""
    th = d.thread(thread_id)
    return [CandidatePost(thread_id, post.id, lang, 0.0, rank + i, score)
            for i, post in enumerate(th.posts if th is not None else ())]


def best_per_thread(posts: list[CandidatePost]) -> tuple[dict[str, str], dict[str, float]]:
    """Per candidate thread: its language (of its first post) and its best retrieval score; what
    both thread relevances (English and cross-language) start from."""
    langs: dict[str, str] = {}
    best: dict[str, float] = {}
    for p in posts:
        langs.setdefault(p.thread, p.lang)
        best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
    return langs, best


def top_threads(langs: dict[str, str], best: dict[str, float], languages: list[str], n: int) -> list[str]:
    """The ``n`` best-retrieved threads of each of ``languages`` (in that order; ties by thread id):
    the threads worth the cost of an embedding."""
    out: list[str] = []
    for lang in languages:
        mine = sorted((t for t, lg in langs.items() if lg == lang), key=lambda t: (-best[t], t))
        out.extend(mine[:n])
    return out
