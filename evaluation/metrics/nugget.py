"""TREC nugget F with the length allowance, and the nugget-pyramid F.

Nugget F (AQUAINT definition pilot README; Voorhees 2003, "Evaluating answers to definition
questions"; Voorhees 2005 on question series): recall ``r / R`` over vital facets; allowance
``α = 100 (r + a)`` non-white-space characters; precision 1 if ``l < α`` else ``1 − (l − α) / l``;
``F_β = (β² + 1) P R / (β² P + R)``. β = 3 as in TREC 2004/2005; β = 5 reproduces TREC 2003 and the pilot.

Pyramid F (Lin & Demner-Fushman 2006, "Will pyramids built of nuggets topple over?"): a facet's
weight is its vital votes over the most vital votes of any facet of the topic; recall is matched
weight over total weight; the allowance counts every matched facet.
"""
from __future__ import annotations

from evaluation.metrics.base import Metric, ParamInfo, TopicStats, register

ALLOWANCE_PER_NUGGET = 100


def length_precision(matched: int, length: int, per_nugget: int = ALLOWANCE_PER_NUGGET) -> float:
    """1 if the response is shorter than the allowance ``per_nugget × matched``, else ``1 − (l − α)/l``."""
    allowance = per_nugget * matched
    if length < allowance:
        return 1.0
    return 1.0 - (length - allowance) / length if length else 0.0


def f_beta(p: float, r: float, beta: float) -> float:
    """``(β² + 1) P R / (β² P + R)``, 0 when the denominator is 0."""
    b2 = beta * beta
    den = b2 * p + r
    return (b2 + 1) * p * r / den if den else 0.0


def nugget_f(vital: int, okay: int, n_vital: int, length: int, beta: float = 3.0) -> float:
    """TREC nugget F; a topic with no vital facet has undefined recall and scores 0 (see docs/metrics.md)."""
    if n_vital == 0:
        return 0.0
    return f_beta(length_precision(vital + okay, length), vital / n_vital, beta)


def pyramid_f(matched_weight: float, total_weight: float, matched: int, length: int, beta: float = 3.0) -> float:
    """Nugget pyramid F; a topic whose facets got no vital vote has undefined recall and scores 0."""
    if total_weight <= 0:
        return 0.0
    return f_beta(length_precision(matched, length), matched_weight / total_weight, beta)


_BETA = ParamInfo(float, None, 3.0, "weight of recall over precision in F (3: TREC 2004+; 5: TREC 2003, pilot)")


class NuggetF(Metric):
    """TREC nugget F(β) with the 100-characters-per-nugget length allowance."""

    NAME = "nugget_F"
    SUPPORTED_PARAMS = {"beta": _BETA}

    def compute(self, s: TopicStats) -> float:
        return nugget_f(s.vital_covered, s.okay_covered, s.n_vital, s.length, self.params["beta"])


class PyramidF(Metric):
    """Nugget-pyramid F(β) from several assessors' vital/okay votes (Lin & Demner-Fushman 2006)."""

    NAME = "pyramid_F"
    SUPPORTED_PARAMS = {"beta": _BETA}
    NEEDS = "pyramid_total"

    def compute(self, s: TopicStats) -> float:
        if s.pyramid_total is None:
            return 0.0
        return pyramid_f(s.pyramid_matched or 0.0, s.pyramid_total, len(s.covered), s.length, self.params["beta"])


nugget_F = register(NuggetF(), aliases=("trec_nugget_F", "nugget_f"))
pyramid_F = register(PyramidF(), aliases=("pyramid_f",))
