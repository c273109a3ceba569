"""Answers spread over threads (bolt.pipeline.main.spread): a further thread nearly as relevant as the
best gives its best clusters when they state a query concept no kept bullet states.

Records are built by hand (scores, concepts, thread focus) so each expected pick can be worked out
on paper; the Distiller is a real one over tests/test_pipeline.py's index.
"""
from __future__ import annotations

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.main.gate import CrossLanguageGate
from bolt.pipeline.main.records import Clustering, SentenceScores, ThreadEvidence, TopicSentences
from bolt.pipeline.main.spread import spread_picks
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.translate import QueryPlan
from tests.test_pipeline import THREADS, distiller_for, thread_index_fixture

searcher = thread_index_fixture("spread", THREADS)

# (thread, post, score, concepts); thread "a" is the best (focus 1), "b" 0.8, "c" 0.5
ROWS = [
    ("a", "p1", 0.90, {"ship", "label"}),
    ("a", "p2", 0.80, {"label"}),
    ("a", "p3", 0.70, {"tape"}),
    ("b", "p1", 0.50, {"envelop", "tape"}),  # b's best: its own cut is 0.7 x 0.5 = 0.35
    ("b", "p2", 0.45, {"label"}),  # passes b's cut but says nothing new
    ("b", "p3", 0.40, {"parcel"}),  # passes, new
    ("b", "p4", 0.30, {"mail"}),  # new, but under b's cut
    ("c", "p1", 0.40, {"content"}),  # new, but c is less relevant than spread_focus 0.7
]
FOCUS = {"a": 1.0, "b": 0.8, "c": 0.5}


def _records():
    sents = tuple(Sentence(t, p, "eng", 0, 10, f"{t} {p} says {' '.join(sorted(cs))}.", 0, 1.0, 0)
                  for t, p, _, cs in ROWS)
    n = len(ROWS)
    ev = TopicSentences(frozenset(), sents, (1.0,) * n, ((1.0, 1.0, 1.0),) * n,
                        tuple(frozenset(cs) for *_, cs in ROWS), (0.5,) * n, (0.5,) * n)
    sc = SentenceScores(tuple(s for _, _, s, _ in ROWS), FOCUS)
    clusters = tuple(Cluster(i, [i]) for i in range(n))
    cl = Clustering(tuple(range(n)), 0.9, {"eng": 0.9}, {"eng": 0.63}, clusters)
    gate = CrossLanguageGate(QueryPlan("q", (), ()), {}, 2, 0.5)
    return ThreadEvidence({"a": 1.0, "b": 0.8, "c": 0.5}, gate), ev, sc, cl, list(clusters[:3])


def _picks(searcher, **config) -> list[tuple[str, str]]:
    threads, ev, sc, cl, keep = _records()
    picks = spread_picks(distiller_for(searcher, **config), threads, ev, sc, cl, keep)
    return [(ev.sents[c.head].thread, ev.sents[c.head].post) for c in picks]


def test_a_further_thread_gives_what_the_kept_bullets_do_not_say(searcher):
    # b p1 brings "envelop"; b p2 only "label" (kept); b p3 "parcel"; b p4 is under 0.35; c is too far
    assert _picks(searcher) == [("b", "p1"), ("b", "p3")]


def test_each_further_thread_gives_at_most_spread_bullets(searcher):
    assert _picks(searcher, spread_bullets=1) == [("b", "p1")]


def test_a_less_relevant_thread_joins_when_spread_focus_allows_it(searcher):
    # c (focus 0.5) comes after b; its best is its own cut's reference, and "content" is new
    assert _picks(searcher, spread_focus=0.5) == [("b", "p1"), ("b", "p3"), ("c", "p1")]
    assert _picks(searcher, spread_focus=0.5, spread_threads=1) == [("b", "p1"), ("b", "p3")]


def test_off_when_spread_threads_is_0(searcher):
    assert _picks(searcher, spread_threads=0) == []
