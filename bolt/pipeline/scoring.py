"""Sentence scores: normalised concept BM25 (any language) and plain BM25 (the embedding cosine is in ``main``).

*Concept score*: BM25 with k1 = 0 (a concept counts once per sentence: sentences are short)
over the query's concepts, with a damped idf from the candidate pool (:func:`concept_idf`),
divided by the query's total weight.
So 1.0 means every query concept is in the sentence, in whatever language, and scores of
English, Arabic and Chinese sentences are on one scale.
"""
from __future__ import annotations

import math
from typing import Sequence

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.text import term_set, terms
from bolt.pipeline.translate import QueryPlan, concept_matches


def matched_concepts(plan: QueryPlan, sentences: Sequence[Sentence]) -> list[frozenset[str]]:
    """For each sentence, the stems of the query concepts it expresses."""
    out = []
    for s in sentences:
        tset = term_set(s.text, s.lang)
        out.append(frozenset(c.stem for c in plan.concepts if concept_matches(c, s.lang, s.text, tset)))
    return out


def concept_idf(plan: QueryPlan, matched: Sequence[frozenset[str]]) -> dict[str, float]:
    """Concept weights: 1 + a damped idf from the candidate pool.

    The pool was retrieved *for* the query, so its idf is biased against the query's central words
    (they are in most candidates); damping keeps every concept's weight between 1 and about 2.
    """
    n = len(matched)
    idf = {}
    for c in plan.concepts:
        df = sum(1 for m in matched if c.stem in m)
        idf[c.stem] = 1.0 + 0.5 * math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    return idf


def concept_scores(plan: QueryPlan, matched: Sequence[frozenset[str]]) -> list[float]:
    idf = concept_idf(plan, matched)
    total = sum(idf.values())
    if total <= 0:
        return [0.0] * len(matched)
    return [math.fsum(idf[c] for c in m) / total for m in matched]  # exact: the same in any set order


def expressible(concept, lang: str) -> bool:
    """Whether a sentence in ``lang`` could express the concept at all (English, or a translation exists)."""
    return lang == "eng" or bool(concept.forms_in(lang)) or concept.word.isdigit()


def coverage_scores(plan: QueryPlan, sentences: Sequence[Sentence], matched: Sequence[frozenset[str]]) -> list[float]:
    """Like :func:`concept_scores`, but over the concepts the sentence's language can express.

    An Arabic sentence cannot contain an English word the lexicon does not translate; this score
    does not hold that against it (the plain concept score does).
    """
    idf = concept_idf(plan, matched)
    out = []
    for s, m in zip(sentences, matched):
        total = sum(idf[c.stem] for c in plan.concepts if expressible(c, s.lang))
        out.append(math.fsum(idf[c] for c in m) / total if total > 0 else 0.0)  # exact, in any set order
    return [min(1.0, x) for x in out]


def bm25_scores(plan: QueryPlan, sentences: Sequence[Sentence], k1: float = 1.2, b: float = 0.75) -> list[float]:
    """Okapi BM25 (rank-bm25) of each sentence against its language's query, pooled per language."""
    from rank_bm25 import BM25Okapi

    out = [0.0] * len(sentences)
    by_lang: dict[str, list[int]] = {}
    for i, s in enumerate(sentences):
        by_lang.setdefault(s.lang, []).append(i)
    for lang, idx in sorted(by_lang.items()):
        corpus = [terms(sentences[i].text, lang) or ["\u0000"] for i in idx]
        query = terms(plan.query_for(lang), lang)
        if not query:
            continue
        bm = BM25Okapi(corpus, k1=k1, b=b)
        for i, sc in zip(idx, bm.get_scores(query)):
            out[i] = max(0.0, float(sc))
    return out
