"""Holistic score ``5 C + 0.5 C O`` (AQUAINT definition pilot README, "Holistic" evaluation): content
``C`` and organisation ``O`` on 0..10, averaged over the assessors who scored the response.
"""
from __future__ import annotations

from evaluation.metrics.base import Metric, ParamInfo, TopicStats, register


def holistic_score(content: float, organization: float) -> float:
    """``5 C + 0.5 C O`` (0..100): content matters far more than organisation."""
    return 5.0 * content + 0.5 * content * organization


class Holistic(Metric):
    """The pilot's combined holistic score, from a holistic judgments file."""

    NAME = "holistic"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    NEEDS = "holistic"

    def compute(self, s: TopicStats) -> float:
        return s.holistic if s.holistic is not None else 0.0


holistic = register(Holistic())
