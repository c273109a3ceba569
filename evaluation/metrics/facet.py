"""Facet recall ``R_n`` and facet precision ``P_n`` (BOLT IR phase 1 guidelines v5.0, §"Measures" and
footnote 1; SPEC §6).

``R_n = c / m`` with ``c`` the facets covered by counting bullets. ``P_n = c / (c + e)`` where the
estimated incorrect nuggets ``e`` = redundant or irrelevant words / average words per nugget.
"""
from __future__ import annotations

from typing import NamedTuple

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.facts import Response, TopicContext


class FacetStats(NamedTuple):
    """``covered``: the facet ids newly covered, in bullet order (``N_1 ∪ ... ∪ N_K``); ``wasted_words``:
    words of redundant or irrelevant bullet text; ``avg_nugget_words`` turns them into nuggets."""

    m: int
    covered: tuple[str, ...]
    wasted_words: float
    avg_nugget_words: float


def reduce_facets(response: Response, topic: TopicContext) -> FacetStats:
    """Sum the newly covered facets and the wasted words over the response's bullets."""
    covered: list[str] = []
    wasted = 0.0
    for b in response.bullets:
        wasted += b.wasted_words
        if b.newly_covered:
            covered.extend(b.newly_covered)
    return FacetStats(len(topic.facets), tuple(covered), wasted, topic.avg_nugget_words)


def facet_recall(c: int, m: int) -> float:
    """``c / m``; a topic with no facets (m = 0) scores 0 (nothing can be found, nothing is rewarded)."""
    return c / m if m else 0.0


def facet_precision(c: int, wasted_words: float, avg_nugget_words: float) -> float:
    """``c / (c + e)`` with ``e = wasted_words / avg_nugget_words``; 0 when ``c = 0``."""
    if c == 0:
        return 0.0
    e = wasted_words / avg_nugget_words if avg_nugget_words > 0 else 0.0
    return c / (c + e)


class FacetRecall(Metric):
    """``R_n``: fraction of the topic's facets covered by bullets with a supporting source."""

    NAME = "R_n"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_facets,)

    def compute(self, s: FacetStats) -> float:
        return facet_recall(len(s.covered), s.m)


class FacetPrecision(Metric):
    """``P_n``: correct facet matches over correct plus estimated incorrect nuggets (guidelines fn. 1)."""

    NAME = "P_n"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_facets,)

    def compute(self, s: FacetStats) -> float:
        return facet_precision(len(s.covered), s.wasted_words, s.avg_nugget_words)


R_n = register(FacetRecall(), aliases=("facet_recall",))
P_n = register(FacetPrecision(), aliases=("facet_precision",))
