"""The forum operating point's stated error (``evaluation.matching.operating_point``): the lines
``bolt assess`` and ``bolt score`` print, from a point file written by hand."""
from __future__ import annotations

from evaluation.matching.operating_point import OperatingPoint


def _fig(b, lo, hi):
    return {"bias": b, "ci": [lo, hi]}


POINT = {"domain": "forum", "regenerate": "x", "languages": {
    "cmn": {"threshold": 0.11, "bias_from": "held out by site", "relevance_kappa": {"kappa": 0.661},
            "bias": {"R_n": _fig(-0.036, -0.055, -0.019), "P_n": _fig(-0.024, -0.035, -0.014)},
            "bias_by_site": {"weibo": {"topics": 7, "R_n": _fig(0.046, 0.0, 0.11)},
                             "ptt": {"topics": 101, "R_n": _fig(-0.046, -0.07, -0.03)}}},
    "eng": {"threshold": 0.31, "bias_from": "held out by board", "bias": {"R_n": _fig(-0.012, -0.035, 0.012)},
            "bias_by_site": {"DF-215": {"topics": 51, "R_n": _fig(-0.01, -0.03, 0.01)}}}}}


def test_stated_error_lists_languages_in_order_and_sites_when_there_are_several():
    lines = OperatingPoint.from_dict(POINT).stated_error()
    assert lines == [
        "English bullets (p >= 0.31): R_n -0.012 [-0.035, +0.012] (held out by board)",
        "Chinese bullets (p >= 0.11): R_n -0.036 [-0.055, -0.019], P_n -0.024 [-0.035, -0.014]; bullet kappa 0.66"
        " (held out by site)",
        "  R_n per board or site: ptt -0.046 [-0.070, -0.030], weibo +0.046 [+0.000, +0.110]",
    ]
