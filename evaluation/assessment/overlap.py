"""The "overlap" decision (the 0.1 rules): a unit matches a facet text by stemmed-term overlap or by cosine."""
from __future__ import annotations

from typing import TYPE_CHECKING

from evaluation.assessment.config import AssessorConfig
from evaluation.assessment.records import Ref, TopicPrep
from evaluation.matching import lexical

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def match_overlap(prep: TopicPrep, units: list[str], sims: "np.ndarray | None", cfg: AssessorConfig) -> None:
    """Each unit's best reference per (facet, rule) that passes ``lexical_threshold`` (with
    ``lexical_min_terms``) or ``semantic_threshold`` (``sims``: unit x reference cosines, or None)."""
    for i, u in enumerate(units):
        uterms = lexical.content_terms(u)
        best: dict[tuple[str, str], dict] = {}
        for j, ref in enumerate(prep.refs):
            ov = lexical.overlap(ref.terms, uterms)
            if lexical.lexical_match(ov, cfg.lexical_threshold, cfg.lexical_min_terms):
                _keep(best, ref, "lexical", ov.score, cfg.lexical_threshold)
            if sims is not None:
                s = float(sims[i, j])
                if s >= cfg.semantic_threshold:
                    _keep(best, ref, "semantic", s, cfg.semantic_threshold)
        prep.matches[u] = list(best.values())


def _keep(best: dict, ref: Ref, rule: str, score: float, threshold: float) -> None:
    """Keep the best-scoring reference per (facet, rule): the evidence a judgment shows."""
    key = (ref.facet, rule)
    if key not in best or score > best[key]["score"]:
        best[key] = {"facet": ref.facet, "nugget": ref.nugget, "rule": rule,
                     "score": round(score, 4), "threshold": threshold}
