"""Metric objects (ir_measures style) and the formulas of SPEC §6, hand-computed."""
from __future__ import annotations

import math

import pytest

from evaluation.metrics import (ERR, F_GD, F_c, P_c, P_n, R_c, R_n, REGISTRY, Metric, ParamInfo, TopicStats,
                                holistic, nugget_F, parse_metric, pyramid_F)
from evaluation.metrics.base import Registry
from evaluation.metrics.citation import CitationStats, citation_f, reduce_citations
from evaluation.metrics.err import ErrStats, err_facet, reduce_err
from evaluation.metrics.facet import FacetStats, facet_precision, facet_recall, reduce_facets
from evaluation.metrics.gale import gale_f
from evaluation.metrics.holistic import holistic_score, reduce_holistic
from evaluation.metrics.nugget import (NuggetStats, PyramidStats, f_beta, length_precision, nugget_f, pyramid_f,
                                       reduce_nuggets, reduce_pyramid)


# ---------------------------------------------------------------- the value objects

def test_repr_omits_defaults_and_round_trips():
    assert repr(nugget_F) == "nugget_F"
    assert repr(nugget_F(beta=3)) == "nugget_F"
    assert repr(nugget_F(beta=5)) == "nugget_F(beta=5)"
    assert repr(ERR(denominator="total")) == "ERR(denominator='total')"
    for m in (P_n, R_n, P_c, R_c, F_c, F_GD, ERR, ERR(denominator="total"), nugget_F(beta=5),
              nugget_F(beta=2.5), pyramid_F(beta=1), holistic):
        assert parse_metric(repr(m)) == m
        assert hash(parse_metric(repr(m))) == hash(m)


def test_parse_metric_aliases_and_bare_words():
    assert parse_metric("facet_recall") == R_n
    assert parse_metric("ERR(denominator=total)") == ERR(denominator="total")
    assert parse_metric("nugget_F(beta=5)") != nugget_F


def test_parse_metric_never_evaluates_code():
    with pytest.raises(ValueError):
        parse_metric("__import__('os').system('true')")
    with pytest.raises(ValueError, match="known metrics"):
        parse_metric("nDCG")


def test_bad_params_raise_value_error_naming_allowed_values():
    with pytest.raises(ValueError, match="'residual', 'total'"):
        ERR(denominator="half")
    with pytest.raises(ValueError, match="allowed parameters: beta"):
        nugget_F(alpha=1)
    with pytest.raises(ValueError, match="must be float"):
        nugget_F(beta="5")
    with pytest.raises(ValueError, match="positive"):
        nugget_F(beta=0)


def test_metrics_are_immutable():
    with pytest.raises(AttributeError):
        nugget_F.params = {}


def test_registry_refuses_duplicates_and_alias_clashes():
    reg = Registry({}, {})

    class M(Metric):
        NAME = "X"
        SUPPORTED_PARAMS = {"k": ParamInfo(int, (1, 2), 1, "k")}

    reg.register(M(), aliases=("x",))
    with pytest.raises(ValueError, match="already registered"):
        reg.register(M())
    with pytest.raises(ValueError, match="already registered"):
        REGISTRY.register(F_GD)
    assert reg.get("x") == M()


# ---------------------------------------------------------------- the formulas

def test_spec_worked_example_seed_001():
    # Six nuggets, vital 1-3, okay 4-6; matches 1, 2 (vital) and 4 (okay): r=2, a=1, R=3.
    assert nugget_f(2, 1, 3, 250, beta=5) == pytest.approx(26 * (2 / 3) / (25 + 2 / 3))
    assert round(nugget_f(2, 1, 3, 250, beta=5), 3) == 0.675
    assert length_precision(3, 600) == pytest.approx(0.5)
    assert round(nugget_f(2, 1, 3, 600, beta=5), 3) == 0.658


def test_length_allowance_boundaries():
    assert length_precision(2, 199) == 1.0
    assert length_precision(2, 200) == 1.0           # 1 - 0/200
    assert length_precision(2, 400) == pytest.approx(0.5)
    assert length_precision(0, 10) == 0.0            # no allowance: 1 - 10/10
    assert length_precision(0, 0) == 0.0


def test_beta_3_is_10pr_over_9p_plus_r():
    p, r = 0.8, 0.5
    assert f_beta(p, r, 3) == pytest.approx(10 * p * r / (9 * p + r))
    assert f_beta(0, 0, 3) == 0.0


def test_topic_with_no_vital_facet_scores_zero():
    assert nugget_f(0, 2, 0, 50) == 0.0
    assert pyramid_f(0.0, 0.0, 2, 50) == 0.0


def test_facet_precision_and_recall():
    assert facet_recall(1, 3) == pytest.approx(1 / 3)
    assert facet_recall(0, 0) == 0.0                  # m = 0
    # c=2, 6 wasted words at 4 words/nugget -> e = 1.5
    assert facet_precision(2, 6, 4) == pytest.approx(2 / 3.5)
    assert facet_precision(0, 0, 4) == 0.0            # empty response
    assert facet_precision(1, 0, 4) == 1.0            # nothing wasted


def test_citation_f_is_fourth_root():
    assert citation_f(0.5, 0.5) == pytest.approx(0.5 ** 0.25)
    assert citation_f(1.0, 0.5) == pytest.approx((2 / 3) ** 0.25)
    assert citation_f(0, 0) == 0.0


def test_gale_f():
    assert gale_f(0.5, 1.0, 0.5) == pytest.approx(0.5)
    assert gale_f(0.4, 0.81, 0.25) == pytest.approx(2 * 0.4 * 0.81 * 0.25 / (0.4 + 0.81 * 0.25))
    assert gale_f(0, 0, 0) == 0.0


def test_err_cascade_residual_and_total():
    # |C|=2; bullet 1 brings 1 new unit, 80% responsive; bullet 2 brings the other, fully responsive.
    steps = [(1, 2, 2, 0.8), (1, 1, 2, 1.0)]
    assert err_facet(steps, residual=True) == pytest.approx(0.4 + 1.0 * 0.6)
    assert err_facet(steps, residual=False) == pytest.approx(0.4 + 0.5 * 0.6)
    assert err_facet([(0, 2, 2, 1.0)]) == 0.0       # addresses the facet, cites nothing relevant
    assert err_facet([(1, 0, 0, 1.0)]) == 0.0       # no relevant units known: no division by zero


def test_holistic_score():
    assert holistic_score(6, 4) == pytest.approx(5 * 6 + 0.5 * 6 * 4)
    assert holistic_score(0, 10) == 0.0


def _stats(responded: bool = True, pyramid: PyramidStats | None = None, hol: float | None = None) -> TopicStats:
    """Each family's statistics of one response: m = 3, two vital facets, facets 1 (vital) and 3 covered."""
    return TopicStats("1.001", "r", responded, {
        reduce_facets: FacetStats(m=3, covered=("1", "3"), wasted_words=6.0, avg_nugget_words=4.0),
        reduce_citations: CitationStats(sources_total=4, sources_supporting=2, units_cited=1, units_relevant=4),
        reduce_err: ErrStats(m=3, err_residual=0.9, err_total=0.6),
        reduce_nuggets: NuggetStats(n_vital=2, vital_covered=1, okay_covered=1, length=250),
        reduce_pyramid: pyramid, reduce_holistic: hol})


def test_metric_objects_compute_from_statistics():
    s = _stats()
    assert P_n.score(s) == pytest.approx(2 / 3.5)
    assert R_n.score(s) == pytest.approx(2 / 3)
    assert P_c.score(s) == pytest.approx(0.5)
    assert R_c.score(s) == pytest.approx(0.25)
    fc = (2 * 0.5 * 0.25 / 0.75) ** 0.25
    assert F_c.score(s) == pytest.approx(fc)
    assert F_GD.score(s) == pytest.approx(2 * (2 / 3.5) * fc * (2 / 3) / (2 / 3.5 + fc * 2 / 3))
    assert ERR.score(s) == pytest.approx(0.3)
    assert ERR(denominator="total").score(s) == pytest.approx(0.2)
    # r=1 of R=2, allowance 200 < 250 -> P = 0.8
    assert nugget_F.score(s) == pytest.approx(10 * 0.8 * 0.5 / (9 * 0.8 + 0.5))
    assert nugget_F(beta=5).score(s) == pytest.approx(26 * 0.8 * 0.5 / (25 * 0.8 + 0.5))


def test_no_response_gets_the_declared_default():
    s = _stats(responded=False)
    for m in (P_n, R_n, P_c, R_c, F_c, F_GD, ERR, nugget_F):
        assert m.score(s) == m.DEFAULT == 0.0


def test_pyramid_and_holistic_need_their_inputs():
    s = _stats()
    assert not pyramid_F.available(s) and not holistic.available(s)
    s = _stats(pyramid=PyramidStats(matched_weight=1.5, total_weight=2.0, matched=2, length=250), hol=40.0)
    assert pyramid_F.available(s)
    assert pyramid_F.score(s) == pytest.approx(f_beta(0.8, 0.75, 3))
    assert holistic.score(s) == 40.0
    assert not math.isnan(pyramid_F.score(s))
