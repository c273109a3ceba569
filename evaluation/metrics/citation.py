"""Citation precision ``P_c``, recall ``R_c`` and the scaled citation F ``F_c`` (BOLT IR phase 1
guidelines v5.0, §"Measures": ``F_c = (2 P_c R_c / (P_c + R_c)) ^ (1/4)``; SPEC §6).

A source unit is (thread id, post element holding the offset). The relevant units of a topic are
the pool: its nugget citations plus every source judged supporting in any run scored together.
"""
from __future__ import annotations

from typing import NamedTuple

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.facts import Response, TopicContext


class CitationStats(NamedTuple):
    """Sources cited, sources judged supporting, distinct units cited in support, units in the pool."""

    sources_total: int
    sources_supporting: int
    units_cited: int
    units_relevant: int


def reduce_citations(response: Response, topic: TopicContext) -> CitationStats:
    """Count the sources and the distinct supporting units over the response's bullets (every
    supporting unit is in the topic's pool by construction)."""
    bullets = response.bullets
    total = supporting = 0
    for b in bullets:
        total += b.sources
        supporting += len(b.supporting)
    cited = {u for b in bullets for u, _ in b.supporting}
    return CitationStats(total, supporting, len(cited), topic.pool_size)


def citation_precision(supporting: int, total: int) -> float:
    """Supporting sources / all sources; a response with no sources scores 0."""
    return supporting / total if total else 0.0


def citation_recall(cited: int, relevant: int) -> float:
    """Distinct relevant units cited / relevant units in the pool; an empty pool scores 0."""
    return cited / relevant if relevant else 0.0


def citation_f(p: float, r: float) -> float:
    """``(2pr / (p + r)) ** 0.25``, 0 when both are 0."""
    if p + r == 0:
        return 0.0
    return (2 * p * r / (p + r)) ** 0.25


class CitationPrecision(Metric):
    """``P_c``: fraction of the response's sources judged to support their bullet."""

    NAME = "P_c"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_citations,)

    def compute(self, s: CitationStats) -> float:
        return citation_precision(s.sources_supporting, s.sources_total)


class CitationRecall(Metric):
    """``R_c``: fraction of the topic's pooled relevant source units the response cites in support."""

    NAME = "R_c"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_citations,)
    READS_UNITS = True

    def compute(self, s: CitationStats) -> float:
        return citation_recall(s.units_cited, s.units_relevant)


class CitationF(Metric):
    """``F_c``: the fourth root of the harmonic mean of ``P_c`` and ``R_c`` (GALE scaling factor)."""

    NAME = "F_c"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    READS_UNITS = True
    REDUCERS = (reduce_citations,)

    def compute(self, s: CitationStats) -> float:
        return citation_f(citation_precision(s.sources_supporting, s.sources_total),
                          citation_recall(s.units_cited, s.units_relevant))


P_c = register(CitationPrecision(), aliases=("citation_precision",))
R_c = register(CitationRecall(), aliases=("citation_recall",))
F_c = register(CitationF(), aliases=("citation_F",))
