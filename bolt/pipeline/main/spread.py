"""Answers spread over threads (part of selection): a further thread that says what the bullets so
far do not gets its best clusters in place of the best thread's weakest.

The thread focus sharpens every score by its thread's relevance relative to the best thread of its
language, so the best thread's replies fill the list: a second thread that answers another part of
the question loses to the first thread's weakest bullets, or falls under the cut over the whole
ranking, however good its own replies are. Whether an answer is spread is read from the threads
themselves: a further thread nearly as relevant as the best (``spread_focus``) whose own best
clusters (within ``rel_threshold`` of that thread's best) express a query concept that no bullet
kept so far expresses. Reads the records before it only.
"""
from __future__ import annotations

from typing import Mapping

from bolt.pipeline.main.reading import is_embedded
from bolt.pipeline.main.records import Clustering, SentenceScores, ThreadEvidence, TopicSentences
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.systems import Distiller


def spread_picks(d: Distiller, threads: ThreadEvidence, ev: TopicSentences, sc: SentenceScores, cl: Clustering,
                 keep: list[Cluster]) -> list[Cluster]:
    """Clusters of at most ``spread_threads`` further threads (relative relevance at least
    ``spread_focus``, in that order, of an embedded language), each passing its own thread's cut and
    bringing a query concept none of ``keep`` nor the picks before it express; at most
    ``spread_bullets`` per thread and ``max_per_post`` per post. Empty when off or when no further thread says anything new."""
    cfg = d.config
    if cfg.spread_threads <= 0 or cfg.spread_bullets <= 0:
        return []
    sents, scores, focus = ev.sents, sc.scores, sc.focus
    kept = {id(c) for c in keep}
    covered = set().union(*(ev.matched[c.head] for c in keep)) if keep else set()
    own: dict[str, list[Cluster]] = {}
    top: dict[str, float] = {}  # each thread's best clustered score, kept or not: its own cut's reference
    for c in cl.clusters:  # best first
        h = sents[c.head]
        top.setdefault(h.thread, scores[c.head])
        if (id(c) not in kept and is_embedded(h.lang)
                and cfg.spread_focus <= focus.get(h.thread, 0.0) < 1.0
                and threads.gate.admits(h, ev.matched[c.head], focus)):
            own.setdefault(h.thread, []).append(c)
    further = sorted(own, key=lambda t: (-focus[t], t))[: cfg.spread_threads]
    picks: list[Cluster] = []
    per_post: dict[tuple[str, str], int] = {}
    for c in keep:
        key = (sents[c.head].thread, sents[c.head].post)
        per_post[key] = per_post.get(key, 0) + 1
    if cfg.spread_unsaid:  # only what the best thread never says counts as new
        covered |= said_by_best(d, threads, ev, focus)
    for t in further:
        cut = max(cfg.abs_floor, cfg.rel_threshold * top[t])
        taken = 0
        for c in own[t]:
            if taken >= cfg.spread_bullets or scores[c.head] < cut:
                break
            new = ev.matched[c.head] - covered
            key = (t, sents[c.head].post)
            if not new or (cfg.max_per_post and per_post.get(key, 0) >= cfg.max_per_post):
                continue
            per_post[key] = per_post.get(key, 0) + 1
            picks.append(c)
            covered |= new
            taken += 1
    return picks


def said_by_best(d: Distiller, threads: ThreadEvidence, ev: TopicSentences, focus: Mapping[str, float]) -> set[str]:
    """The query concepts the best thread of each embedded language expresses anywhere."""
    best = {(s.thread, s.lang) for s in ev.sents if is_embedded(s.lang) and focus.get(s.thread, 0.0) >= 1.0}
    return set().union(*(d.thread_concepts(threads.gate.plan, t, lg) for t, lg in sorted(best)))
