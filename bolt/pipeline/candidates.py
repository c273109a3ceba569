"""Candidate posts from per-language retrieval, and their sentences with exact raw offsets.

A sentence's ``offset`` is the raw offset (SPEC §2) of its first character in the thread's
escaped XML, taken from the post's ``TextMap``; only the author's own text is used, never quotes,
so a citation always points into the post that wrote the words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from indexing.sentences import split_sentences


@dataclass(frozen=True, slots=True)
class CandidatePost:
    """A retrieved post: its language, best passage score, rank within its language and score / top score."""

    thread: str
    post: str
    lang: str
    score: float
    rank: int
    norm: float


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a candidate post: decoded text (whitespace collapsed) and raw [offset, end)."""

    thread: str
    post: str
    lang: str
    offset: int
    end: int
    text: str
    position: int  # 0-based sentence position in the post's own text
    retrieval: float  # the post's normalised retrieval score
    post_rank: int


def candidate_posts(hits: Iterable, lang: str) -> list[CandidatePost]:
    """Group passage hits of one language by post (best score), ranked, ties by thread then post."""
    best: dict[tuple[str, str], float] = {}
    for h in hits:
        if getattr(h, "quoted", False):
            continue
        key = (h.thread, h.post)
        if key not in best or h.score > best[key]:
            best[key] = float(h.score)
    ordered = sorted(best.items(), key=lambda kv: (-kv[1], kv[0][0], _post_num(kv[0][1])))
    top = ordered[0][1] if ordered else 0.0
    return [CandidatePost(t, p, lang, s, i, (s / top) if top > 0 else 0.0)
            for i, ((t, p), s) in enumerate(ordered)]


def _post_num(post_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in post_id if ch.isdigit())
    return (int(digits) if digits else 0, post_id)


def post_sentences(thread, cand: CandidatePost) -> list[Sentence]:
    """Sentences of the post's own text, each with the raw offset of its first character."""
    post = thread.post(cand.post)
    if post is None:
        return []
    tm = thread.text_map(post, quotes=False)
    out = []
    for i, (s, e) in enumerate(split_sentences(tm.text, cand.lang)):
        text = " ".join(tm.text[s:e].split())
        if not text:
            continue
        raw_start, raw_end = tm.raw_span(s, e)
        out.append(Sentence(cand.thread, cand.post, cand.lang, raw_start, raw_end, text, i,
                            cand.norm, cand.rank))
    return out
