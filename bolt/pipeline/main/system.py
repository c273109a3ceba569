"""``main`` as the list of its stages (:mod:`bolt.pipeline.main` describes each)."""
from __future__ import annotations

from typing import NamedTuple

from bolt.pipeline.main.bullets import bullets
from bolt.pipeline.main.candidates import find_candidates
from bolt.pipeline.main.scores import score
from bolt.pipeline.main.selection import clustering, select
from bolt.pipeline.main.sentences import sentence_evidence, similarity
from bolt.pipeline.main.threads import expand, thread_evidence
from bolt.pipeline.main.records import (Clustering, Selection, SentenceScores, SentenceSimilarity,
                                        ThreadEvidence, TopicCandidates, TopicSentences)
from bolt.pipeline.systems import SYSTEM_CLASSES, DistilledBullet, Distiller


class Trace(NamedTuple):
    """Every stage's record for one topic, in stage order (None from the first stage that had nothing
    to work on): what ``distill`` made its bullets from, for tests and for reading a topic closely."""

    candidates: TopicCandidates
    threads: ThreadEvidence
    sentences: TopicSentences | None = None
    similarity: SentenceSimilarity | None = None
    scores: SentenceScores | None = None
    clusters: Clustering | None = None
    selection: Selection | None = None
    bullets: tuple[DistilledBullet, ...] = ()


class MainSystem:
    """``main`` over the shared stages of a :class:`Distiller`; it keeps no per-topic state."""

    def __init__(self, stages: Distiller) -> None:
        self.d = stages
        #: when a list, each topic's English candidates and their ranker features are appended to it
        #: (``scripts/train_ranker.py`` collects training data this way); None: nothing is kept
        self.collect: list | None = None

    def distill(self, query: str) -> list[DistilledBullet]:
        """One topic through main's stages (:meth:`trace`), its bullets."""
        return list(self.trace(query).bullets)

    def trace(self, query: str) -> Trace:
        """One topic through main's stages, each a function of the records before it."""
        d = self.d
        cands = find_candidates(d, query)
        threads = thread_evidence(d, cands)
        sents = d.sentences(expand(d, list(cands.posts), dict(threads.relevance)),
                            questions=not d.config.drop_questions)
        ev = sentence_evidence(d, query, cands.plan, sents) if sents else None
        if ev is None:
            return Trace(cands, threads)
        sim = similarity(d, cands, ev, threads.relevance)
        sc = score(d, cands.plan, ev, sim, threads.relevance, cands.sweep, self.collect)
        cl = clustering(d, ev, sim, sc)
        sel = select(d, cands, threads, ev, sc, cl)
        return Trace(cands, threads, ev, sim, sc, cl, sel, tuple(bullets(d, sel)))


SYSTEM_CLASSES["main"] = MainSystem
