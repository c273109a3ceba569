"""POURPRE-style lexical matching: the fraction of a reference's content terms found in a candidate.

Lin & Demner-Fushman (2005, "Automatically evaluating answers to definition questions") score a
nugget against a response by the overlap of their stemmed, stop-word-free unigrams, normalised by
the nugget's length. We use the same statistic as a binary decision with a threshold, plus a
minimum number of shared terms so that a two-term reference cannot match on one common word.

English terms are Snowball-stemmed (``snowballstemmer``) after removing spaCy's English stop
words; other scripts keep their tokens as they are (Chinese: one term per character, folded to
Simplified by ``indexing.script_fold``), which is enough for the rare same-language comparisons
the assessor makes outside English.
"""
from __future__ import annotations

import functools
import re
from typing import NamedTuple

from indexing.terms import stem  # the toolkit's one English stemmer (Snowball)

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)


@functools.lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


@functools.lru_cache(maxsize=500_000)
def content_terms(text: str) -> frozenset[str]:
    """Stemmed content unigrams: lower-cased, stop words and one-letter tokens dropped, digits kept."""
    from evaluation.matching.text import _CJK_CHAR
    from indexing.script_fold import fold_chinese

    stop = _stop_words()
    terms: set[str] = set()
    for tok in _TOKEN.findall(text.lower()):
        if _CJK_CHAR.search(tok):  # one script for both (indexing.script_fold): 銀 and 银 are one term
            terms.update(ch for ch in fold_chinese(tok) if not ch.isspace())
            continue
        if tok in stop or (len(tok) < 2 and not tok.isdigit()):
            continue
        terms.add(stem(tok))
    return frozenset(terms)


class Overlap(NamedTuple):
    """How much of a reference a candidate covers: ``score = shared / reference``."""

    score: float
    shared: int
    reference: int


def overlap(reference: frozenset[str], candidate: frozenset[str]) -> Overlap:
    """Fraction of the reference's terms that the candidate contains (0 for an empty reference)."""
    if not reference:
        return Overlap(0.0, 0, 0)
    shared = len(reference & candidate)
    return Overlap(shared / len(reference), shared, len(reference))


def lexical_match(ov: Overlap, threshold: float, min_terms: int) -> bool:
    """A match needs ``score >= threshold`` and ``min(min_terms, reference)`` shared terms."""
    return ov.reference > 0 and ov.score >= threshold and ov.shared >= min(min_terms, ov.reference)
