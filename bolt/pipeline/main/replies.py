"""``reply_focus``: an English thread's focus read from its posts as well as its headline.

Thread relevance reads the headline and the opening post: what the asker asked. A thread whose
opening asks something else can still hold replies that answer the query (and a thread that asks
the query can hold replies that do not), so the focus that scales a thread's sentences also reads
how near the thread's posts come to the query: each candidate post's vector is the mean of its
sentences' vectors, a thread's post nearness the mean cosine of its two nearest posts.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from bolt.pipeline.main.reading import embedder
from bolt.pipeline.main.records import TopicSentences
from bolt.pipeline.systems import Distiller

NEAREST_POSTS = 2  # a thread's post nearness: the mean cosine of this many of its nearest posts


def post_nearness(d: Distiller, query: str, ev: TopicSentences) -> dict[str, float]:
    """Per English candidate thread: the mean cosine to the query of its ``NEAREST_POSTS`` nearest
    candidate posts (fewer when it has fewer), a post's vector the normalised mean of its candidate
    sentences' vectors; cosines below 0 count as 0."""
    idx = [i for i, s in enumerate(ev.sents) if s.lang == "eng"]
    if not idx:
        return {}
    emb = embedder(d)
    mat = np.asarray(emb.encode([ev.sents[i].text for i in idx]), dtype=np.float32)
    q = np.asarray(emb.encode_query(query), dtype=np.float32)
    rows: dict[tuple[str, str], list[int]] = {}
    for row, i in enumerate(idx):
        rows.setdefault((ev.sents[i].thread, ev.sents[i].post), []).append(row)
    per_thread: dict[str, list[float]] = {}
    for (thread, _), r in rows.items():
        v = mat[r].mean(axis=0)
        norm = float(np.linalg.norm(v))
        per_thread.setdefault(thread, []).append(max(0.0, float(v @ q) / norm) if norm > 0 else 0.0)
    return {t: float(np.mean(sorted(c, reverse=True)[:NEAREST_POSTS])) for t, c in per_thread.items()}


def with_posts(focus: Mapping[str, float], nearness: Mapping[str, float]) -> dict[str, float]:
    """The English threads' focus as the geometric mean of their focus and their post nearness
    relative to the best thread's, over the best such mean (so the best thread is 1 again); other
    threads keep theirs."""
    top = max(nearness.values(), default=0.0)
    if top <= 0:
        return dict(focus)
    mixed = {t: math.sqrt(focus.get(t, 0.0) * n / top) for t, n in nearness.items()}
    best = max(mixed.values())
    out = dict(focus)
    if best > 0:
        out.update({t: m / best for t, m in mixed.items()})
    return out
