"""The cross-language gate: whether an Arabic or Chinese sentence may head a bullet.

A single translated word is weak evidence (a lexicon entry is ambiguous out of context), so a
non-English head needs enough distinct query concepts, a shared anchor, or one concept in a thread
that covers the query (:func:`concept_evidence`). Some threads are context enough on their own:
the exceptions are held here, in one object, with the thread evidence the gate reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from bolt.pipeline.anchors import sentence_anchors
from bolt.pipeline.candidates import Sentence
from bolt.pipeline.scoring import expressible
from bolt.pipeline.translate import QueryPlan


def concept_evidence(plan: QueryPlan, s: Sentence, matched: frozenset[str], thread_relevance: float,
                     min_concepts: int, thread_coverage: float) -> bool:
    """A non-English sentence speaks of the query: at least ``min_concepts`` distinct concepts (or
    all its language can express, if fewer), a shared anchor, or one concept in a thread whose
    evidence is at least ``thread_coverage``."""
    if not plan.concepts:
        return True
    need = min(min_concepts, sum(1 for c in plan.concepts if expressible(c, s.lang)) or 1)
    if len(matched) >= need or (matched and thread_relevance >= thread_coverage):
        return True
    return bool(plan.anchors) and not sentence_anchors(s.text).isdisjoint(plan.anchors)


@dataclass(frozen=True)
class CrossLanguageGate:
    """What the gate reads, and its exceptions.

    ``thread_evidence``: per thread, the relevance the gate compares with ``thread_coverage`` (the
    thread relevance before the sweep rewrites it; a dense or swept thread at least
    ``thread_coverage``: the thread that a second retriever found is the context that makes one
    shared concept evidence). Exceptions, which pass without concept evidence: a thread of
    ``anchored`` (``lang_anchor`` 3: replies answer without the query's words) and a thread of
    ``sweep_read`` that is the most relevant of its language (``xl_sweep_read``: the swept thread
    that answers).
    """

    plan: QueryPlan
    thread_evidence: Mapping[str, float]
    min_concepts: int
    thread_coverage: float
    anchored: frozenset[str] = frozenset()
    sweep_read: frozenset[str] = frozenset()

    def admits(self, s: Sentence, matched: frozenset[str], focus: Mapping[str, float]) -> bool:
        """Whether ``s`` (its matched concepts ``matched``; ``focus``: thread relevance relative to the
        best of its language) may head a bullet. English always may."""
        if s.lang == "eng" or s.thread in self.anchored:
            return True
        if s.thread in self.sweep_read and focus.get(s.thread, 0.0) >= 1.0:
            return True
        return concept_evidence(self.plan, s, matched, self.thread_evidence.get(s.thread, 0.0),
                                self.min_concepts, self.thread_coverage)
