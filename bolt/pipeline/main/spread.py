"""Answers spread over several threads: the selection's ways past the best thread.

The thread focus (``thread_focus``) keeps the best thread's replies and drops its neighbours', which
is right when one thread answers; when the answer is spread, a second thread's clusters either pass
the cut but lose their places to the best thread's weaker ones (``thread_share`` orders them
first), or fall under the cut through the focus alone: ``spread_focus``, ``spread_close`` and
``spread_fill`` let such a thread give clusters whose own score (the score without the focus)
passes, ``own_heads`` lets its sentences head clusters by that own score, and ``spread_place``
gives them places rather than the free ones. English only: the other languages have their own
quota and thread-first picks.
"""
from __future__ import annotations

from typing import Sequence

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.config import SystemConfig
from bolt.pipeline.main.records import Clustering, SentenceScores, ThreadEvidence, TopicSentences
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.systems import Distiller


def share(above: list[Cluster], sents: Sequence[Sentence], n: int) -> tuple[list[Cluster], list[Cluster]]:
    """``above`` split in two, each in its order: the clusters up to each thread's ``n``-th English
    one, and the English clusters after it (``n`` <= 0: all in the first)."""
    if n <= 0:
        return list(above), []
    first, later, count = [], [], {}
    for c in above:
        head = sents[c.head]
        count[head.thread] = count.get(head.thread, 0) + (head.lang == "eng")
        (later if head.lang == "eng" and count[head.thread] > n else first).append(c)
    return first, later


def own_scores(cfg: SystemConfig, sents: Sequence[Sentence], scores: Sequence[float],
               focus: dict[str, float]) -> dict[int, float]:
    """By sentence index, the own score (score / focus ** ``thread_focus``) of the English sentences
    of the further threads ``spread_focus`` reaches; the others have none."""
    if cfg.spread_focus <= 0:
        return {}
    return {i: scores[i] / focus[s.thread] ** cfg.thread_focus for i, s in enumerate(sents)
            if s.lang == "eng" and cfg.spread_focus <= focus.get(s.thread, 0.0) < 1.0}


def further(d: Distiller, threads: ThreadEvidence, ev: TopicSentences, sc: SentenceScores, cl: Clustering,
            kept: list[Cluster]) -> list[Cluster]:
    """Up to ``spread_fill`` English clusters of each thread no kept cluster comes from, when the
    thread's relevance is at least ``spread_focus`` x the best thread's and the cluster is under the
    cut only through the thread focus: its own score passes the cut and ``spread_close`` x the best
    English score. Best first; the caller places them."""
    cfg = d.config
    if cfg.spread_focus <= 0 or "eng" not in cl.cut:
        return []
    sents, scores = ev.sents, sc.scores
    own = own_scores(cfg, sents, scores, dict(sc.focus))
    low = max(cl.cut["eng"], cfg.spread_close * cl.lang_best["eng"])
    kept_threads = {sents[c.head].thread for c in kept}
    given: dict[str, int] = {}
    out = []
    for c in cl.clusters:  # best first
        head = sents[c.head]
        if (c.head not in own or head.thread in kept_threads or given.get(head.thread, 0) >= cfg.spread_fill
                or scores[c.head] >= cl.cut["eng"] or own[c.head] < low):
            continue
        if threads.gate.admits(head, ev.matched[c.head], sc.focus):
            out.append(c)
            given[head.thread] = given.get(head.thread, 0) + 1
    return out
