"""The metrics of SPEC §6, one named object each (ir_measures style), with a registry and a parser.

>>> from evaluation.metrics import nugget_F, parse_metric
>>> nugget_F(beta=5)
nugget_F(beta=5.0)
>>> parse_metric("nugget_F(beta=5)") == nugget_F(beta=5)
True
"""
from __future__ import annotations

from evaluation.metrics.base import (REGISTRY, SCORE, Metric, ParamInfo, TopicStats, parse_metric, parse_metrics,
                                     reducers_of, register)
from evaluation.metrics.facts import BulletFacts, Reducer, Response, TopicContext
from evaluation.metrics.citation import F_c, P_c, R_c
from evaluation.metrics.err import ERR_ as ERR
from evaluation.metrics.facet import P_n, R_n
from evaluation.metrics.gale import F_GD
from evaluation.metrics.holistic import holistic
from evaluation.metrics.nugget import nugget_F, pyramid_F

#: The metrics ``bolt score`` reports, in SPEC §8 order (pyramid only with votes, holistic only with a file).
DEFAULT_METRICS: tuple[Metric, ...] = (P_n, R_n, P_c, R_c, F_c, F_GD, ERR, nugget_F)

#: The order every table shows metrics in (leaderboards, the report, CSV readers): SPEC §6 order.
METRIC_ORDER: tuple[str, ...] = ("P_n", "R_n", "P_c", "R_c", "F_c", "F_GD", "ERR", "nugget_F", "pyramid_F")

__all__ = ["Metric", "ParamInfo", "TopicStats", "REGISTRY", "SCORE", "register", "parse_metric", "parse_metrics",
           "reducers_of", "BulletFacts", "Reducer", "Response", "TopicContext",
           "P_n", "R_n", "P_c", "R_c", "F_c", "F_GD", "ERR", "nugget_F", "pyramid_F", "holistic",
           "DEFAULT_METRICS", "METRIC_ORDER"]
