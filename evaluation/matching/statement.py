"""Does a text *state* a facet's information? A learned decision over specificity and similarity.

The old rules (40% word overlap, cosine 0.45) answer "is this about the same subject?", and in a
forum thread everything is. People ask whether the text states the facet's information: whether
the facet's *distinctive* terms (its rarer words, names, numbers) are there, not just the
subject's common words, and whether one sentence says it. This module turns a (reference,
candidate) pair into a few such features and combines them with a logistic regression whose
coefficients ship as ``statement_model.json`` (fitted on development pairs only: see
``fitting/pairfit.py`` in the repository and the ``assess-calibration`` part of
``scripts/benchmarks/score.py``).

Features (all in [0, 1] or small counts, named so a judgment's evidence reads plainly):

- ``coverage``: fraction of the reference's stemmed content terms found in the candidate
  (POURPRE, ``matching.lexical``);
- ``idf_coverage``: the same, each term weighted by its inverse document frequency in the pool
  (the texts judged together for one topic), so subject words shared by every text weigh little;
- ``sentence_idf_coverage``: the best single sentence's ``idf_coverage`` (a statement is made
  in a sentence, not spread over a paragraph);
- ``distinct_coverage``: fraction of the reference's distinctive terms (the rarer half in the
  pool, by IDF) found in the candidate;
- ``bigram_coverage``: fraction of the reference's adjacent content-term pairs (``Total Football``,
  ``visa on arrival``) found adjacent in the candidate: the same words in the same relation;
- ``number_coverage`` / ``name_coverage``: fraction of the reference's numbers and capitalised
  names found (1.0 when the reference has none, with ``has_numbers`` / ``has_names`` saying so);
- ``cosine`` / ``sentence_cosine``: bi-encoder cosine of the whole candidate and of its best
  sentence with the reference (``matching.semantic``);
- ``missing_max_weight`` (IDF share of the heaviest reference term the candidate lacks),
  ``missing_terms`` / ``reference_terms`` (``ln(1 + n)`` of missing / all reference terms),
  ``number_conflict`` (both give numbers, none shared), ``sentence_coverage`` (the best
  sentence's plain coverage): what a unit needs in full, measured across sources
  (``fitting/transfer.py`` in the repository).
"""
from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from indexing.textfacts import normalize_digits  # the toolkit's one digit folding
from indexing.models.logistic import load_model_json, logistic, shipped_model
from evaluation.matching.lexical import content_terms
from evaluation.matching.text import sentences

FEATURES = ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage", "bigram_coverage",
            "number_coverage", "has_numbers", "name_coverage", "has_names", "cosine", "sentence_cosine",
            "clause_max_coverage", "clause_min_coverage", "clause_sentence_coverage",
            "missing_max_weight", "missing_terms", "reference_terms", "number_conflict", "sentence_coverage")
EMBEDDING_FEATURES = ("cosine", "sentence_cosine")
"""The features read from sentence embeddings (a model without them needs no embedder)."""
MODEL_FILE = "statement_model.json"

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'’-]*[A-Za-z]")
_CLAUSE_BREAK = re.compile(r"\s*;\s*")
CLAUSE_MIN_TERMS = 2
"""A clause of a facet text needs this many content terms to stand alone (a "2 ." or "Yes." does not)."""


class Idf:
    """Inverse document frequencies of stemmed content terms over one pool of texts.

    ``idf(t) = ln((N + 1) / (df(t) + 1)) + 1`` (the smoothed form of scikit-learn's
    ``TfidfVectorizer``), so a term in every text still weighs 1 and an unseen term the most.
    """

    def __init__(self, texts: Iterable[str]) -> None:
        df: Counter[str] = Counter()
        n = 0
        for t in dict.fromkeys(texts):
            df.update(content_terms(t))
            n += 1
        self.n = n
        self.df = df
        self._unseen = math.log(n + 1) + 1.0

    def __call__(self, term: str) -> float:
        d = self.df.get(term)
        return self._unseen if d is None else math.log((self.n + 1) / (d + 1)) + 1.0


def numbers(text: str) -> frozenset[str]:
    """Numbers written in the text (Arabic-Indic, Persian, full-width digits as ASCII; no separators)."""
    return frozenset(m.replace(",", "") for m in _NUMBER.findall(normalize_digits(text)))


@functools.lru_cache(maxsize=100_000)
def names(text: str) -> frozenset[str]:
    """Capitalised words not at a sentence start (names, brands, models), stemmed like terms."""
    out: set[str] = set()
    for m in _NAME.findall(text):
        out |= content_terms(m)
    return frozenset(out)


@functools.lru_cache(maxsize=200_000)
def bigrams(text: str) -> frozenset[tuple[str, str]]:
    """Adjacent pairs of stemmed content terms (stop words skipped, so "visa on arrival" -> visa, arriv)."""
    seq = [t for tok in _TOKEN.findall(text.lower()) for t in sorted(content_terms(tok))]
    return frozenset(zip(seq, seq[1:]))


@dataclass(frozen=True)
class Reference:
    """A facet text prepared once: its terms, their weights, the distinctive half, numbers, names."""

    text: str
    terms: frozenset[str]
    weights: Mapping[str, float]
    distinct: frozenset[str]
    numbers: frozenset[str]
    names: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    clauses: tuple[frozenset[str], ...] = ()

    @functools.cached_property
    def weight_total(self) -> float:
        """Sum of the term weights, once per reference (every candidate sentence divides by it)."""
        return sum(self.weights.values())

    @classmethod
    def of(cls, text: str, idf: Idf) -> "Reference":
        terms = content_terms(text)
        weights = {t: idf(t) for t in terms}
        ranked = sorted(terms, key=lambda t: (-weights[t], t))
        distinct = frozenset(ranked[:max(1, (len(ranked) + 1) // 2)]) if ranked else frozenset()
        return cls(text, terms, weights, distinct, numbers(text), names(text) & terms, bigrams(text),
                   clause_terms(text, terms))


def clauses(text: str) -> tuple[str, ...]:
    """The clauses of a facet text (its sentences, split again at semicolons) that hold at least
    :data:`CLAUSE_MIN_TERMS` content terms; ``()`` when fewer than two do (the text is one statement).

    A long nugget ("X costs 25 dollars. A multiple entry visa is 60 dollars.") makes several
    statements, and a person may credit a text that states some of them.
    """
    parts = [c.strip() for s in sentences(text, "eng") for c in _CLAUSE_BREAK.split(s)]
    out = tuple(c for c in parts if len(content_terms(c)) >= CLAUSE_MIN_TERMS)
    return out if len(out) > 1 else ()


def clause_terms(text: str, terms: frozenset[str]) -> tuple[frozenset[str], ...]:
    """The content terms of each of the text's :func:`clauses`; ``(terms,)`` for a one-statement text."""
    return tuple(content_terms(c) & terms for c in clauses(text)) or (terms,)


def _weighted(ref: Reference, cand: frozenset[str]) -> float:
    """IDF-weighted share of the reference's terms found in ``cand`` (0.0 for a reference without terms)."""
    total = ref.weight_total
    return sum(w for t, w in ref.weights.items() if t in cand) / total if total else 0.0


def _clause_weighted(ref: Reference, clause: frozenset[str], cand: frozenset[str]) -> float:
    """IDF-weighted share of one clause's terms found in ``cand``."""
    total = sum(ref.weights[t] for t in clause)
    return sum(ref.weights[t] for t in clause if t in cand) / total if total else 0.0


def features(ref: Reference, candidate: str, sentences: Sequence[str],
             cosine: float = 0.0, sentence_cosine: float | None = None) -> dict[str, float]:
    """The named features of one (reference, candidate) pair; ``sentences`` split the candidate."""
    cand = content_terms(candidate)
    n_terms = len(ref.terms)
    coverage = len(ref.terms & cand) / n_terms if n_terms else 0.0
    sent_terms = [content_terms(s) for s in sentences]
    sent_cov = max((_weighted(ref, st) for st in sent_terms), default=0.0)
    idf_cov = _weighted(ref, cand)
    if len(ref.clauses) > 1:  # a multi-part facet text; with one clause every clause feature is the whole's
        per_clause = [_clause_weighted(ref, c, cand) for c in ref.clauses]
        clause_sent = max((_clause_weighted(ref, c, st) for c in ref.clauses for st in sent_terms), default=0.0)
    else:
        per_clause, clause_sent = [idf_cov], sent_cov
    distinct = len(ref.distinct & cand) / len(ref.distinct) if ref.distinct else 0.0
    cand_numbers = numbers(candidate) if ref.numbers else frozenset()
    num = len(ref.numbers & cand_numbers) / len(ref.numbers) if ref.numbers else 1.0
    name = len(ref.names & cand) / len(ref.names) if ref.names else 1.0
    bigram = len(ref.bigrams & bigrams(candidate)) / len(ref.bigrams) if ref.bigrams else coverage
    total = ref.weight_total
    missing = [w for t, w in ref.weights.items() if t not in cand]
    sent_plain = max((len(ref.terms & st) / n_terms for st in sent_terms), default=0.0) if n_terms else 0.0
    return {"coverage": coverage, "idf_coverage": idf_cov, "sentence_idf_coverage": sent_cov,
            "distinct_coverage": distinct, "bigram_coverage": bigram, "number_coverage": num, "has_numbers": float(bool(ref.numbers)),
            "name_coverage": name, "has_names": float(bool(ref.names)), "cosine": float(cosine),
            "sentence_cosine": float(cosine if sentence_cosine is None else sentence_cosine),
            "clause_max_coverage": max(per_clause), "clause_min_coverage": min(per_clause),
            "clause_sentence_coverage": clause_sent,
            "missing_max_weight": max(missing) / total if missing and total else 0.0,
            "missing_terms": math.log1p(len(missing)), "reference_terms": math.log1p(n_terms),
            "number_conflict": float(bool(ref.numbers) and bool(cand_numbers) and not (ref.numbers & cand_numbers)),
            "sentence_coverage": sent_plain}


@dataclass(frozen=True)
class StatementModel:
    """A fitted logistic regression over :data:`FEATURES`: ``p = sigmoid(b + sum(w_i * x_i))``.

    ``threshold`` is the probability at which a pair counts as a match (chosen on development
    topics, see ``fit_notes``); ``name`` goes into each judgment's evidence and the file header.
    """

    name: str
    features: tuple[str, ...]
    coefficients: tuple[float, ...]
    intercept: float
    threshold: float
    fit_notes: Mapping[str, object]

    @property
    def needs_embeddings(self) -> bool:
        """Whether the model reads a cosine feature, so its callers must embed texts at all."""
        return any(f in EMBEDDING_FEATURES for f in self.features)

    def probability(self, feats: Mapping[str, float]) -> float:
        return logistic(self.intercept + sum(w * feats[f] for f, w in zip(self.features, self.coefficients)))

    def to_dict(self) -> dict:
        return {"name": self.name, "features": list(self.features), "coefficients": list(self.coefficients),
                "intercept": self.intercept, "threshold": self.threshold, "fit_notes": dict(self.fit_notes)}

    @classmethod
    def from_dict(cls, d: Mapping) -> "StatementModel":
        feats = tuple(d["features"])
        unknown = [f for f in feats if f not in FEATURES]
        if unknown or len(d["coefficients"]) != len(feats):
            raise ValueError(f"statement model {d.get('name')!r}: unknown features {unknown} or "
                             "coefficient count differs; refit with 'scripts/bench.py score --part "
                             "assess-calibration --write-model FILE'")
        return cls(str(d["name"]), feats, tuple(float(c) for c in d["coefficients"]), float(d["intercept"]),
                   float(d["threshold"]), dict(d.get("fit_notes", {})))


@functools.lru_cache(maxsize=4)
def load_model(path: str | None = None) -> StatementModel:
    """The shipped model (``evaluation/matching/statement_model.json``) or the one at ``path``."""
    return load_model_json(path if path is not None else shipped_model(__package__, MODEL_FILE),
                           StatementModel.from_dict, what="statement model",
                           hint="give a model JSON written by 'scripts/bench.py score --part assess-calibration "
                                "--write-model FILE', or none for the shipped one")
