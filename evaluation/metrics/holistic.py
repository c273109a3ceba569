"""Holistic score ``5 C + 0.5 C O`` (AQUAINT definition pilot README, "Holistic" evaluation): content
``C`` and organisation ``O`` on 0..10, averaged over the assessors who scored the response.
"""
from __future__ import annotations

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.facts import Response, TopicContext


def reduce_holistic(response: Response, topic: TopicContext) -> float | None:
    """The mean ``5C + 0.5CO`` over the assessors who scored the response; None when none did."""
    scores = topic.holistic.get(response.run)
    return sum(scores) / len(scores) if scores else None


def holistic_score(content: float, organization: float) -> float:
    """``5 C + 0.5 C O`` (0..100): content matters far more than organisation."""
    return 5.0 * content + 0.5 * content * organization


class Holistic(Metric):
    """The pilot's combined holistic score, from a holistic judgments file."""

    NAME = "holistic"
    SUPPORTED_PARAMS: dict[str, ParamInfo] = {}
    REDUCERS = (reduce_holistic,)

    def compute(self, mean_score: float | None) -> float:
        return mean_score if mean_score is not None else 0.0


holistic = register(Holistic())
