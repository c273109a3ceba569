"""Redundancy removal: greedy clustering of near-duplicate sentences across posts and languages.

Sentences are visited best first; each joins the first existing cluster whose head it duplicates,
else it starts a new cluster. Duplicate means: embedding cosine >= ``dup_cosine`` (when both have
an embedding), or character 4-gram Jaccard >= ``dup_jaccard`` (any languages: catches quoted and
re-posted text), or, across languages, the same query concepts (Jaccard >= ``dup_concepts`` over
at least three concepts), which is how a Chinese and an English report of one fact meet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.text import char_ngrams


@dataclass
class Cluster:
    head: int  # index of the best sentence
    members: list[int] = field(default_factory=list)


def jaccard(a: set | frozenset, b: set | frozenset) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def cluster(order: Sequence[int], sentences: Sequence[Sentence], vectors: dict, concepts: Sequence[frozenset],
            dup_cosine: float, dup_jaccard: float, dup_concepts: float) -> list[Cluster]:
    """Clusters in visiting order (``order``: sentence indices, best first)."""
    grams = {i: char_ngrams(sentences[i].text) for i in order}
    clusters: list[Cluster] = []
    for i in order:
        home = None
        for c in clusters:
            h = c.head
            if _duplicate(i, h, sentences, vectors, grams, concepts, dup_cosine, dup_jaccard, dup_concepts):
                home = c
                break
        if home is None:
            clusters.append(Cluster(i, [i]))
        else:
            home.members.append(i)
    return clusters


def _duplicate(i, h, sentences, vectors, grams, concepts, dup_cosine, dup_jaccard, dup_concepts) -> bool:
    if i in vectors and h in vectors and float(vectors[i] @ vectors[h]) >= dup_cosine:
        return True
    if jaccard(grams[i], grams[h]) >= dup_jaccard:
        return True
    if sentences[i].lang != sentences[h].lang:
        a, b = concepts[i], concepts[h]
        if len(a) >= 3 and len(b) >= 3 and jaccard(a, b) >= dup_concepts:
            return True
    return False
