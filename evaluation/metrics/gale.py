"""GALE distillation F ``F_GD = 2 P_n F_c R_n / (P_n + F_c R_n)``: the primary measure of the BOLT IR
phase 1 guidelines v5.0 (§"Measures"), the F1 of facet precision and citation-scaled facet recall.
"""
from __future__ import annotations

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.citation import CitationStats, citation_f, citation_precision, citation_recall, reduce_citations
from evaluation.metrics.facet import FacetStats, facet_precision, facet_recall, reduce_facets


def gale_f(p_n: float, f_c: float, r_n: float) -> float:
    """``2 P_n F_c R_n / (P_n + F_c R_n)``, 0 when the denominator is 0."""
    den = p_n + f_c * r_n
    return 2 * p_n * f_c * r_n / den if den else 0.0


class GaleF(Metric):
    """``F_GD``: GALE distillation F (guidelines v5.0)."""

    NAME = "F_GD"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_facets, reduce_citations)
    READS_UNITS = True

    def compute(self, s: FacetStats, cit: CitationStats) -> float:
        c = len(s.covered)
        f_c = citation_f(citation_precision(cit.sources_supporting, cit.sources_total),
                         citation_recall(cit.units_cited, cit.units_relevant))
        return gale_f(facet_precision(c, s.wasted_words, s.avg_nugget_words), f_c, facet_recall(c, s.m))


F_GD = register(GaleF(), aliases=("gale_F", "F_gd"))
