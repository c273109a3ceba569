"""The "statement" decision: does a unit *state* a facet's information? (``matching.statement``)"""
from __future__ import annotations

from typing import TYPE_CHECKING

from evaluation.assessment.records import TopicPrep
from evaluation.matching.semantic import EmbeddingTable
from evaluation.matching.text import sentences

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from evaluation.matching.statement import StatementModel


def match_statements(prep: TopicPrep, units: list[str], sims: "np.ndarray | None", model: "StatementModel",
                     threshold: float, table: EmbeddingTable) -> None:
    """Each unit's probability of stating each facet text.

    IDF comes from the topic's pool (its facet texts and every bullet unit judged with it), so
    words every bullet of the topic shares weigh little. Every facet's best probability is
    kept (``prep.probabilities``) for the judgment, matched or not.
    """
    from evaluation.matching.statement import Idf, Reference, features

    idf = Idf([r.text for r in prep.refs] + units)
    refs = [Reference.of(r.text, idf) for r in prep.refs]
    for i, u in enumerate(units):
        sents = sentences(u, "eng")
        best: dict[str, dict] = {}
        for j, (ref, r) in enumerate(zip(refs, prep.refs)):
            if sims is not None:
                cos = float(sims[i, j])
                sc = max((table.cosine(s, r.text) for s in sents if s in table), default=cos)
            else:
                cos = sc = 0.0
            feats = features(ref, u, sents, cos, sc)
            prob = model.probability(feats)
            if r.facet not in best or prob > best[r.facet]["score"]:
                best[r.facet] = {"facet": r.facet, "nugget": r.nugget, "rule": "statement",
                                 "score": round(prob, 4), "threshold": threshold,
                                 "features": {f: round(feats[f], 4) for f in model.features}}
        prep.matches[u] = [m for m in best.values() if m["score"] >= threshold]
        prep.probabilities[u] = {f: m["score"] for f, m in best.items()}
