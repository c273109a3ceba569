"""Candidate posts from per-language retrieval, and their sentences with exact raw offsets.

A sentence's ``offset`` is the raw offset (SPEC §2) of its first character in the thread's
escaped XML, taken from the post's ``TextMap``; the author's own text is used, and (with the
``pasted_quotes`` setting) quotes that name no poster and repeat no earlier post, never a quote of
another poster, so a citation always points into the post that brought the words in. Posts are cut by
``indexing.sentences.split_clauses``: English sentences, and for Arabic and Chinese sentences with
long ones cut into clauses (reader comments with little punctuation would otherwise be one
bullet-sized "sentence" per post).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from indexing.sentences import clauses_by_sentence, split_clauses
from indexing.textfacts import count_words

from bolt.pipeline.pasted import pasted_maps


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


_WRAPPED_HAN = re.compile(r"(?<=[\u3400-\u9fff])[ \t]*\n\s*(?=[\u3400-\u9fff])")


def _unwrap(text: str) -> str:
    """``text`` without the line breaks between two Han characters (a wrapped line, which
    ``split_clauses`` joins to the next: Chinese puts no space between words)."""
    return _WRAPPED_HAN.sub("", text) if "\n" in text else text


def post_sentences(thread, cand: CandidatePost,
                   limits: dict[str, tuple[int, int]] | None = None, pasted: bool = False) -> list[Sentence]:
    """Sentences of the post's own text, each with the raw offset of its first character;
    ``limits`` per language replaces ``split_clauses``'s clause limits. With ``pasted``, the
    sentences of the quotes the poster pasted in (:func:`bolt.pipeline.pasted.pasted_maps`) follow,
    cited inside the quote; their positions come after the own text's."""
    post = thread.post(cand.post)
    if post is None:
        return []
    maps = [thread.text_map(post, quotes=False)]
    if pasted:
        maps += pasted_maps(thread, post)
    out = []
    i = 0
    for tm in maps:
        for s, e in split_clauses(tm.text, cand.lang, (limits or {}).get(cand.lang)):
            text = " ".join(_unwrap(tm.text[s:e]).split())
            if text:
                raw_start, raw_end = tm.raw_span(s, e)
                out.append(Sentence(cand.thread, cand.post, cand.lang, raw_start, raw_end, text, i,
                                    cand.norm, cand.rank))
            i += 1
    return out


def clause_window(thread, s: Sentence, after: int, max_words: int,
                  limits: dict[str, tuple[int, int]] | None = None,
                  taken: frozenset[int] = frozenset()) -> str:
    """The text of clause ``s`` joined with up to ``after`` clauses that follow it in the same
    sentence of its post (``indexing.sentences.clauses_by_sentence``), at most ``max_words``
    words, stopping before a clause whose position is in ``taken`` (another bullet's).

    A clause cut from a run-on comment often ends before the word that makes it an answer
    ("... وايه" | "يعنى لما يمثل مع كاميرون دياز هو اقل منها"); its neighbour in the sentence
    completes it. The citation (the clause's first character) is unchanged. ``s.text`` when
    nothing is joined."""
    post = thread.post(s.post) if thread is not None else None
    if post is None or after <= 0:
        return s.text
    tm = thread.text_map(post, quotes=False)
    spans = clauses_by_sentence(tm.text, s.lang, (limits or {}).get(s.lang))
    if s.position >= len(spans):
        return s.text
    sent, start, end = spans[s.position]
    text = s.text
    for k in range(s.position + 1, min(len(spans), s.position + 1 + after)):
        if spans[k][0] != sent or k in taken:
            break
        joined = " ".join(_unwrap(tm.text[start:spans[k][2]]).split())
        if count_words(joined) > max_words:
            break
        text = joined
    return text
