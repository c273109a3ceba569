"""``main`` as the list of its stages (:mod:`bolt.pipeline.main` describes each)."""
from __future__ import annotations

from bolt.pipeline.main.bullets import bullets
from bolt.pipeline.main.candidates import find_candidates
from bolt.pipeline.main.scores import score
from bolt.pipeline.main.selection import clustering, select
from bolt.pipeline.main.sentences import sentence_evidence, similarity
from bolt.pipeline.main.threads import expand, thread_evidence
from bolt.pipeline.systems import SYSTEM_CLASSES, DistilledBullet, Distiller


class MainSystem:
    """``main`` over the shared stages of a :class:`Distiller`; it keeps no per-topic state."""

    def __init__(self, stages: Distiller) -> None:
        self.d = stages
        #: when a list, each topic's English candidates and their ranker features are appended to it
        #: (``scripts/train_ranker.py`` collects training data this way); None: nothing is kept
        self.collect: list | None = None

    def distill(self, query: str) -> list[DistilledBullet]:
        """One topic through main's stages, each a function of the records before it."""
        d = self.d
        cands = find_candidates(d, query)
        threads = thread_evidence(d, cands)
        sents = d.sentences(expand(d, list(cands.posts), dict(threads.relevance)),
                            questions=not d.config.drop_questions)
        ev = sentence_evidence(d, query, cands.plan, sents) if sents else None
        if ev is None:
            return []
        sim = similarity(d, cands, ev, threads.relevance)
        sc = score(d, cands.plan, ev, sim, threads.relevance, cands.sweep, self.collect)
        cl = clustering(d, ev, sim, sc)
        return bullets(d, select(d, cands, threads, ev, sc, cl))


SYSTEM_CLASSES["main"] = MainSystem
