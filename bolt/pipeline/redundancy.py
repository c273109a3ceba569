"""Redundancy removal: greedy clustering of near-duplicate sentences across posts and languages.

Sentences are visited best first; each joins the first existing cluster whose head it duplicates,
else it starts a new cluster. Duplicate means: embedding cosine >= ``dup_cosine`` (when both have
an embedding), or character 4-gram Jaccard >= ``dup_jaccard`` (any languages: catches quoted and
re-posted text), or, across languages, the same query concepts (Jaccard >= ``dup_concepts`` over
at least three concepts), which is how a Chinese and an English report of one fact meet.
"""
from __future__ import annotations

import math
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
    both = len(a & b)
    return both / (len(a) + len(b) - both)  # |a | b| without building the union


def cluster(order: Sequence[int], sentences: Sequence[Sentence], vectors: dict, concepts: Sequence[frozenset],
            dup_cosine: float, dup_jaccard: float, dup_concepts: float,
            heads: int | None = None) -> list[Cluster]:
    """Clusters in visiting order (``order``: sentence indices, best first).

    With ``heads``, only the first ``heads`` sentences of ``order`` may start a cluster; the
    others only join one (the caller never keeps a cluster headed below its floor, but a sentence
    below it still cites its post for the sentence it repeats).

    A sentence joins the first cluster (in creation order) whose head it duplicates. Only heads
    that *could* be duplicates are tested: those with an embedding when the sentence has one,
    those of another language with three or more concepts when it has three, and those sharing a
    character n-gram with it in their prefix filters whose overlap can still reach the threshold
    (:func:`_near`). The result is the same as testing
    every head, without the quadratic cost in a 600-post thread (thousands of candidates).
    """
    grams = {i: char_ngrams(sentences[i].text) for i in order}
    rank = _gram_order(grams.values())
    clusters: list[Cluster] = []
    by_gram: dict[str, list[tuple[int, int]]] = {}  # n-gram -> (cluster, its place) for heads with it in their prefix
    sizes: list[int] = []  # per cluster, its head's number of n-grams
    embedded: list[int] = []  # clusters whose head has an embedding
    conceptual: dict[str, list[int]] = {}  # per language, clusters whose head has >= 3 concepts
    for n, i in enumerate(order):
        many = i < len(concepts) and len(concepts[i]) >= 3  # concepts are only read across languages
        cands: set[int] = set(range(len(clusters))) if dup_jaccard <= 0 else set()
        if i in vectors:
            cands.update(embedded)
        if many:  # the concept rule joins sentences of different languages only
            for lang, ks in conceptual.items():
                if lang != sentences[i].lang:
                    cands.update(ks)
        prefix = _prefix(grams[i], rank, dup_jaccard)
        near = _near(prefix, by_gram, len(grams[i]), sizes, dup_jaccard)
        cands.update(near)
        home = None
        for k in sorted(cands):
            if _duplicate(i, clusters[k].head, sentences, vectors, grams, concepts, dup_cosine,
                          dup_jaccard if dup_jaccard <= 0 or k in near else None, dup_concepts):
                home = clusters[k]
                break
        if home is not None:
            home.members.append(i)
            continue
        if heads is not None and n >= heads:
            continue
        k = len(clusters)
        clusters.append(Cluster(i, [i]))
        if i in vectors:
            embedded.append(k)
        if many:
            conceptual.setdefault(sentences[i].lang, []).append(k)
        sizes.append(len(grams[i]))
        for q, g in enumerate(prefix):
            by_gram.setdefault(g, []).append((k, q))
    return clusters


def _near(prefix: list[str], by_gram: dict[str, list[tuple[int, int]]], size: int, sizes: list[int],
          t: float) -> set[int]:
    """The heads whose n-gram Jaccard with a sentence (its ordered ``prefix``, ``size`` n-grams) can
    reach ``t``: they share a prefix n-gram, and what follows the first one they share is enough.
    Positional filter: every n-gram the two share comes at or after that first one in both (an
    earlier shared one would be in both prefixes and found first), so they share at most
    min(size - p, |head| - q) (p, q: its positions); Jaccard rises with the overlap."""
    seen: set[int] = set()
    near: set[int] = set()
    for p, g in enumerate(prefix):
        for k, q in by_gram.get(g, ()):
            if k in seen:
                continue
            seen.add(k)
            most = min(size - p, sizes[k] - q)
            if most / (size + sizes[k] - most) >= t:
                near.add(k)
    return near


def _gram_order(gram_sets) -> dict[str, tuple[int, str]]:
    """A total order on n-grams, rarest first (short prefixes, few candidates): (frequency, gram)."""
    freq: dict[str, int] = {}
    for gs in gram_sets:
        for g in gs:
            freq[g] = freq.get(g, 0) + 1
    return {g: (n, g) for g, n in freq.items()}


def _prefix(grams: set[str], rank: dict[str, tuple[int, str]], t: float) -> list[str]:
    """Prefix filter for Jaccard >= ``t``: two sets that similar share an n-gram among the first
    ``|x| - ceil(t |x|) + 1`` of each in one global order; ``floor`` keeps a prefix at least that
    long (never misses a pair). Empty sets are never duplicates (Jaccard 0). At t = 0 the prefix is
    every n-gram (``cluster`` then tests every head anyway)."""
    ordered = sorted(grams, key=rank.__getitem__)
    return ordered[: len(ordered) - math.floor(t * len(ordered)) + 1]


def _duplicate(i, h, sentences, vectors, grams, concepts, dup_cosine, dup_jaccard: float | None,
               dup_concepts) -> bool:
    """Whether sentence ``i`` duplicates head ``h``; ``dup_jaccard`` None: the prefix and
    positional filters (:func:`_near`) have already shown their n-gram Jaccard is below it."""
    if i in vectors and h in vectors and float(vectors[i] @ vectors[h]) >= dup_cosine:
        return True
    a, b = grams[i], grams[h]
    # Jaccard <= min/max of the sizes (the same division, so the same float): a cheap exact filter;
    # at dup_jaccard <= 0 every pair is a duplicate (Jaccard is never below 0)
    if dup_jaccard is not None and (
            dup_jaccard <= 0 or (a and b and min(len(a), len(b)) / max(len(a), len(b)) >= dup_jaccard
                                 and jaccard(a, b) >= dup_jaccard)):
        return True
    if sentences[i].lang != sentences[h].lang:
        a, b = concepts[i], concepts[h]
        if len(a) >= 3 and len(b) >= 3 and jaccard(a, b) >= dup_concepts:
            return True
    return False
