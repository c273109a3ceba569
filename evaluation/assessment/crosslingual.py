"""Arabic and Chinese bullets matched to a topic's facets by the fitted per-language model of
``matching.crosslingual``: cosine with the facet's English texts, cosine with its nuggets in the
bullet's language, the share of a nugget's terms the bullet holds, and whether it cites a thread
that holds one of the facet's nuggets."""
from __future__ import annotations

from typing import Any, Sequence

from evaluation.assessment.records import Ref, TopicPrep
from evaluation.matching.text import script_lang

Features = dict[str, tuple[Ref, dict[str, float]]]  # facet -> its best English text and the features


def cross_features(enc: Any, prep: TopicPrep, units: Sequence[str]) -> list[Features]:
    """For each non-English unit, per facet: its best English facet text (by ``enc``'s cosine) and the
    features of ``matching.crosslingual.XFEATURES`` (``scripts/xl_assessor.py`` fits the model on these)."""
    from evaluation.matching.crosslingual import native_coverage

    sims = enc.similarities(list(units), [r.text for r in prep.refs])
    threads = {f.id: {n.post for n in f.nuggets if n.post} for f in prep.topic.facets}
    out = []
    for i, u in enumerate(units):
        nuggets = prep.native.get(script_lang(u), {})
        best: dict[str, tuple[Ref, float]] = {}
        for j, ref in enumerate(prep.refs):
            if ref.facet not in best or sims[i, j] > best[ref.facet][1]:
                best[ref.facet] = (ref, float(sims[i, j]))
        row = {}
        cited = prep.xunits.get(u) or set()
        for facet, (ref, xcos) in best.items():
            nat = nuggets.get(facet, [])
            row[facet] = (ref, {"xcos": xcos, "ncos": float(enc.similarities([u], nat).max()) if nat else 0.0,
                                "ncov": native_coverage(u, nat, script_lang(u)),
                                "nthread": float(bool(cited & threads.get(facet, set())))})
        out.append(row)
    return out


def cross_matches(model: Any, lang: str, threshold: float | None, row: Features) -> list[dict]:
    """The facets a unit in ``lang`` matches: probability at least ``threshold`` (None: the model's
    own for that language), each with its features as evidence."""
    if threshold is None:
        threshold = model.thresholds[lang]
    out = []
    for facet, (ref, feats) in row.items():
        prob = model.probability(lang, feats)
        if prob >= threshold:
            out.append({"facet": facet, "nugget": ref.nugget, "rule": "crosslingual",
                        "score": round(prob, 4), "threshold": threshold,
                        "features": {f: round(v, 4) for f, v in feats.items()}})
    return out


def cross_probabilities(model: Any, lang: str, row: Features) -> dict[str, float]:
    """Every facet's probability for a unit in ``lang``, matched or not (how close each decision
    was; what a calibration of the threshold reads)."""
    return {facet: round(model.probability(lang, feats), 4) for facet, (_, feats) in row.items()}
