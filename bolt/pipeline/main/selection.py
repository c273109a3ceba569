"""Stages 5 and 6, clustering and selection: near-duplicates grouped, then the clusters that
become bullets.

Reads the records before it; the thread-first picks (:mod:`bolt.pipeline.main.thread_first`) also
read the thread store and the multilingual encoder. Returns :class:`Clustering`, then
:class:`Selection`.
"""
from __future__ import annotations

from bolt.pipeline.main.reading import is_embedded
from bolt.pipeline.main.records import (Clustering, Selection, SentenceScores, SentenceSimilarity, ThreadEvidence,
                                        TopicCandidates, TopicSentences)
from bolt.pipeline.main.scores import relative_cut
from bolt.pipeline.main.thread_first import thread_first
from bolt.pipeline.redundancy import Cluster, cluster
from bolt.pipeline.systems import Distiller, sentence_key


def clustering(d: Distiller, ev: TopicSentences, sim: SentenceSimilarity, sc: SentenceScores) -> Clustering:
    """Near-duplicates grouped (one bullet per cluster) and the cuts :func:`select` applies: per
    language ``rel_threshold`` (``xl_rel_threshold`` without an embedding) x the language's best,
    at least ``abs_floor``; for English the ranker's stopping cut when it sets one. Only sentences
    that could head or join a kept cluster are clustered."""
    cfg = d.config
    sents, scores, stop = ev.sents, sc.scores, sc.stop
    with d.stage("cluster"):
        order = sorted(range(len(sents)), key=lambda i: (-scores[i], sentence_key(sents[i])))
        best = scores[order[0]]
        # relative to the best sentence of the same language: sentences with and without an
        # embedding are not quite on one scale
        lang_best: dict[str, float] = {}
        for i in order:
            lang_best.setdefault(sents[i].lang, scores[i])
        cut = {lg: max(cfg.abs_floor, (cfg.rel_threshold if is_embedded(lg) else cfg.xl_rel_threshold) * b)
               for lg, b in lang_best.items()}
        if stop is not None and "eng" in lang_best:  # the learned ranker's stopping rule, at least one
            cut["eng"] = stop
        floor = {lg: (cut[lg] if lg == "eng" and stop is not None else cfg.abs_floor) for lg in lang_best}
        order = [i for i in order if scores[i] >= floor[sents[i].lang] * 0.5]
        # no path of ``select`` keeps a cluster whose head scores below its floor (``abs_floor``);
        # with the ranker's floor for English the heads are no longer a prefix of ``order``
        clusters = cluster(order, list(sents), dict(sim.vectors), list(ev.matched), cfg.dup_cosine, cfg.dup_jaccard,
                           cfg.dup_concepts,
                           heads=None if stop is not None else sum(1 for i in order if scores[i] >= cfg.abs_floor))
    return Clustering(tuple(order), best, lang_best, cut, tuple(clusters))


def select(d: Distiller, cands: TopicCandidates, threads: ThreadEvidence, ev: TopicSentences, sc: SentenceScores,
           cl: Clustering) -> Selection:
    """The clusters that become bullets, best first: those :func:`admit` lets in, but none of a
    language the candidates stage made quiet (``eng_below``), at most ``max_bullets``, the
    non-English ones at most half of them, with Arabic and Chinese thread-first picks in that half."""
    cfg = d.config
    with d.stage("select"):
        cap = cfg.max_bullets
        above, extra = admit(d, threads, ev, sc, cl)
        if cands.quiet:  # ``eng_below``: read for evidence, no bullets
            above = [c for c in above if ev.sents[c.head].lang not in cands.quiet]
            extra = [c for c in extra if ev.sents[c.head].lang not in cands.quiet]
        extra = extra[: cfg.max_bullets // 2]
        keep = above[: max(0, cap - len(extra))] + extra
        # thread-first picks share the non-English half of the budget with ``extra`` and take
        # the place of the lowest English bullets when the list is full
        first, sents, scores = thread_first(d, cands, ev, sc, list(cl.order), keep)
        first = first[: max(0, cfg.max_bullets // 2 - len(extra))]
        if first:
            above = above[: max(0, cap - len(extra) - len(first))]
            keep = above + extra + first
        keep.sort(key=lambda c: (-scores[c.head], sentence_key(sents[c.head])))
    return Selection(tuple(keep), tuple(sents), tuple(scores))


def admit(d: Distiller, threads: ThreadEvidence, ev: TopicSentences, sc: SentenceScores,
          cl: Clustering) -> tuple[list[Cluster], list[Cluster]]:
    """Which clusters may become bullets, best first: ``above`` passes its language's cut, or the
    answering thread's lower cut (``focus_rel_threshold``); ``extra`` is a non-English cluster within
    its ``lang_quota`` that covers the query (``min_coverage``). A non-English head must pass the
    cross-language gate; at most ``max_per_post`` come from one post."""
    cfg = d.config
    sents, scores, focus, stop = ev.sents, sc.scores, sc.focus, sc.stop
    # the answering thread (the best of its language) keeps sentences down to a lower cut: its
    # replies answer without repeating the query's words; other threads must score within
    # ``rel_threshold`` of the best. English has none with the learned ranker's stopping rule.
    focus_cut = ({lg: relative_cut(cfg.focus_rel_threshold, b, cfg.abs_floor) for lg, b in cl.lang_best.items()
                  if is_embedded(lg) and not (stop is not None and lg == "eng")}
                 if cfg.focus_rel_threshold > 0 else {})
    above, extra = [], []
    per_lang: dict[str, int] = {}
    per_post: dict[tuple[str, str], int] = {}
    for c in cl.clusters:  # best first
        head = sents[c.head]
        if not threads.gate.admits(head, ev.matched[c.head], focus):
            continue
        if cfg.max_per_post and per_post.get((head.thread, head.post), 0) >= cfg.max_per_post:
            continue
        if scores[c.head] >= cl.cut[head.lang] or (
                head.lang in focus_cut and focus.get(head.thread, 0.0) >= 1.0
                and scores[c.head] >= focus_cut[head.lang]):
            above.append(c)
        elif (head.lang != "eng" and per_lang.get(head.lang, 0) < cfg.lang_quota
              and ev.coverage[c.head] >= cfg.min_coverage and scores[c.head] >= cfg.abs_floor):
            extra.append(c)
        else:
            continue
        per_lang[head.lang] = per_lang.get(head.lang, 0) + 1
        per_post[(head.thread, head.post)] = per_post.get((head.thread, head.post), 0) + 1
    return above, extra
