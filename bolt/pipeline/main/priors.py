"""The prior of a candidate sentence: informativeness x answer position x role, read from its thread.

Reads the thread store only. :mod:`bolt.pipeline.informative` says whether a sentence informs or
chats; :mod:`bolt.pipeline.forum` weighs the opening question and the asker's follow-ups, drops
signatures and counts the specific statements before a sentence in its post (replies answer first).
"""
from __future__ import annotations

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.forum import content_positions, normalised, position_weight, role_weight, signatures, thread_roles
from bolt.pipeline.informative import SPECIFIC, informativeness
from bolt.pipeline.systems import Distiller
from bolt.pipeline.text import length_estimate

PriorParts = tuple[float, float, float]


def prior_parts(d: Distiller, sents: list[Sentence],
                subject: frozenset[str] = frozenset()) -> list[PriorParts | None]:
    """Per sentence: (informativeness, answer-position weight, role weight), None for a signature."""
    cfg = d.config
    threads = {s.thread: s.lang for s in sents}
    sigs = signatures((d.thread(t) for t in sorted(threads)),
                      lambda th: d.thread_sentences(th.id, threads[th.id])) if cfg.drop_signatures else ()
    roles = {t: thread_roles(d.thread(t), d.thread_sentences(t, lg), cfg.strict_questions) for t, lg in threads.items()}
    known: dict[tuple[str, str], float] = {}

    def info_of(s: Sentence) -> float:
        """informativeness, once per distinct (text, language): the answer position reads every
        sentence of the candidate threads, the loop below the candidates among them again."""
        k = (s.text, s.lang)
        if k not in known:
            known[k] = informativeness(s.text, s.lang, subject)
        return known[k]

    where: dict[str, dict[tuple[str, int], int]] = {}
    if cfg.position_decay > 0:
        where = {t: content_positions(d.thread_sentences(t, lg),
                                      lambda s: length_estimate(s.text, s.lang) >= cfg.min_words
                                      and info_of(s) >= SPECIFIC)
                 for t, lg in threads.items()}
    out: list[PriorParts | None] = []
    for s in sents:
        th = d.thread(s.thread)
        post = th.post(s.post) if th is not None else None
        if sigs and post is not None and (post.author, normalised(s.text)) in sigs:
            out.append(None)
            continue
        info = info_of(s) if cfg.informative else 1.0
        pos = position_weight(where[s.thread].get((s.post, s.position), 0), cfg.position_decay) if where else 1.0
        out.append((info, pos, role_weight(th, s.post, roles[s.thread], cfg.opening_weight, cfg.asker_weight)))
    return out


def prior_products(parts: list[PriorParts | None]) -> list[float]:
    """Each sentence's prior from :func:`prior_parts`: their product; 0 for a signature."""
    return [0.0 if p is None else p[0] * p[1] * p[2] for p in parts]


def priors(d: Distiller, sents: list[Sentence], subject: frozenset[str] = frozenset()) -> list[float]:
    """Per sentence: informativeness x role weight x answer-position weight; 0 for a signature (dropped)."""
    return prior_products(prior_parts(d, sents, subject))
