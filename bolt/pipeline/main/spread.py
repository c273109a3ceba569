"""Answers spread over several threads: the selection's two ways past the best thread.

The thread focus (``thread_focus``) keeps the best thread's replies and drops its neighbours', which
is right when one thread answers; when the answer is spread, a second thread's clusters either pass
the cut but lose their places to the best thread's weaker ones (``thread_share`` orders them
first), or fall under the cut through the focus alone (``spread_focus`` and ``spread_close`` let
that thread's best cluster fill a place the list leaves free). English only: the other languages
have their own quota and thread-first picks.
"""
from __future__ import annotations

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.main.records import Clustering, SentenceScores, ThreadEvidence, TopicSentences
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.systems import Distiller


def share(above: list[Cluster], sents: tuple[Sentence, ...], n: int) -> list[Cluster]:
    """``above`` with each thread's English clusters after its ``n``-th moved behind every other
    cluster (in their order): one thread no longer takes every place (``n`` <= 0: unchanged)."""
    if n <= 0:
        return above
    first, later, count = [], [], {}
    for c in above:
        head = sents[c.head]
        count[head.thread] = count.get(head.thread, 0) + (head.lang == "eng")
        (later if head.lang == "eng" and count[head.thread] > n else first).append(c)
    return first + later


def further(d: Distiller, threads: ThreadEvidence, ev: TopicSentences, sc: SentenceScores, cl: Clustering,
            kept: list[Cluster]) -> list[Cluster]:
    """The best English cluster of each thread no kept cluster comes from, when the thread's relevance
    is at least ``spread_focus`` x the best thread's and the cluster is under the cut only through
    the thread focus: its score / focus ** ``thread_focus`` passes the cut and ``spread_close`` x the
    best English score. Best first; the caller puts them after every cluster that passes."""
    cfg = d.config
    if cfg.spread_focus <= 0 or "eng" not in cl.cut:
        return []
    sents, scores, focus = ev.sents, sc.scores, sc.focus
    cut, best = cl.cut["eng"], cl.lang_best["eng"]
    seen = {sents[c.head].thread for c in kept}
    out = []
    for c in cl.clusters:  # best first: a thread's first cluster here is its best
        head = sents[c.head]
        if head.lang != "eng" or head.thread in seen:
            continue
        seen.add(head.thread)
        f = focus.get(head.thread, 0.0)
        if not cfg.spread_focus <= f < 1.0 or scores[c.head] >= cut:
            continue
        own = scores[c.head] / f ** cfg.thread_focus
        if own >= max(cut, cfg.spread_close * best) and threads.gate.admits(head, ev.matched[c.head], focus):
            out.append(c)
    return out
