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

from typing import Mapping, NamedTuple

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.facts import Response, TopicContext

ALLOWANCE_PER_NUGGET = 100


class NuggetStats(NamedTuple):
    """Vital facets of the topic, vital and okay facets the response newly covers, its length in
    non-white-space characters."""

    n_vital: int
    vital_covered: int
    okay_covered: int
    length: int


class PyramidStats(NamedTuple):
    """Pyramid weight the response matched, the topic's total weight, facets matched, length."""

    matched_weight: float
    total_weight: float
    matched: int
    length: int


def reduce_nuggets(response: Response, topic: TopicContext) -> NuggetStats:
    """Count the vital and okay facets the bullets newly cover and sum their lengths."""
    vital = topic.vital
    n_vital = n_okay = length = 0
    for b in response.bullets:
        length += b.length
        for f in b.newly_covered:
            if f in vital:
                n_vital += 1
            else:
                n_okay += 1
    return NuggetStats(len(vital), n_vital, n_okay, length)


def pyramid_weights(facets: tuple[str, ...], votes: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """A facet's vital votes over the most vital votes of any facet of the topic (0 when none has any)."""
    vital_votes = {fid: float(votes.get(fid, {}).get("vital", 0)) for fid in facets}
    top = max(vital_votes.values(), default=0.0)
    return {fid: (v / top if top > 0 else 0.0) for fid, v in vital_votes.items()}


def reduce_pyramid(response: Response, topic: TopicContext) -> PyramidStats | None:
    """Sum the pyramid weights of the newly covered facets; None without a votes file."""
    if topic.votes is None:
        return None
    weights = pyramid_weights(topic.facets, topic.votes)
    covered = [f for b in response.bullets for f in b.newly_covered]
    return PyramidStats(sum(weights[f] for f in covered), sum(weights.values()), len(covered),
                        sum(b.length for b in response.bullets))


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
    REDUCERS = (reduce_nuggets,)

    def compute(self, s: NuggetStats) -> float:
        return nugget_f(s.vital_covered, s.okay_covered, s.n_vital, s.length, self.params["beta"])


class PyramidF(Metric):
    """Nugget-pyramid F(β) from several assessors' vital/okay votes (Lin & Demner-Fushman 2006)."""

    NAME = "pyramid_F"
    SUPPORTED_PARAMS = {"beta": _BETA}
    REDUCERS = (reduce_pyramid,)

    def compute(self, s: PyramidStats | None) -> float:
        if s is None:
            return 0.0
        return pyramid_f(s.matched_weight, s.total_weight, s.matched, s.length, self.params["beta"])


nugget_F = register(NuggetF(), aliases=("trec_nugget_F", "nugget_f"))
pyramid_F = register(PyramidF(), aliases=("pyramid_f",))
