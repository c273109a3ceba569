"""Run scores from the machine's judgments, corrected by people's judgments of a random sample of
bullets (a difference estimator, the idea behind prediction-powered inference).

Every bullet has the machine's judgment; people judged a simple random sample of them. For a
run with ``N`` judged bullets, ``n`` of them sampled, the score from the machine's judgments
``θ_M`` is corrected by what the sample says the machine gets wrong:

    θ̂ = θ_M + (N / n) Σ_{i in sample} δ_i

where ``δ_i`` is the change in the run's mean score (over its topics) when bullet ``i``'s machine
judgment is replaced by the person's. Under simple random sampling ``(N/n) Σ δ_i`` is unbiased
for ``Σ_i δ_i`` over all the run's bullets, which is the whole machine-minus-person difference
when the bullets' corrections add up: for R_n unless two wrongly judged bullets of a topic touch
the same facet; P_n and F_GD are ratios, so theirs add nearly (corrected with every bullet of the
bundled sample, each lands within 0.0005 of the people's score).
The interval is a t interval of that sum with the finite-population correction,
``Var = N² (1 - n/N) s²_δ / n``, where ``s²_δ`` is taken over the sampled ``δ`` plus two
pseudo-observations ``+b`` and ``-b`` (``b``: the largest ``|δ|`` the whole sample shows for the
metric, else one facet of an average topic, ``1 / (mean facets × topics)``). Machine errors are
sparse: most sampled bullets have ``δ = 0``, and without the pseudo-observations a sample that
happens to hold no error gives an interval of zero width (on the bundled sample, 40 bullets drawn
at random: 15-50% coverage for a nominal 95%); with them it covers 81-100% at 40 bullets and
94-100% at 100 (``scripts/correction_coverage.py``), as adding pseudo-counts does for a proportion
(Agresti and Coull). A sample of every bullet gives the people's score and no width.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

import numpy as np

from evaluation.agreement import AGREEMENT_METRICS, topic_scores

LEVEL = 0.95


@dataclasses.dataclass(frozen=True)
class Corrected:
    """One run's metric: the machine's score, the corrected estimate and its interval."""

    machine: float
    estimate: float
    ci: tuple[float, float] | None  # None: fewer than two sampled bullets, no interval
    sampled: int
    bullets: int

    def as_dict(self) -> dict[str, Any]:
        return {"machine": round(self.machine, 4), "estimate": round(self.estimate, 4),
                "ci": None if self.ci is None else [round(self.ci[0], 4), round(self.ci[1], 4)], "sampled": self.sampled, "bullets": self.bullets}


def _interval(deltas: Sequence[float], n_all: int, level: float, b: float) -> tuple[float, float | None]:
    """The estimated total correction ``(N/n) Σ δ`` and its half-width (t, finite population, the
    variance over the deltas and ``±b``; None from one sampled bullet of several, 0 when every
    bullet was sampled)."""
    from scipy.stats import t as student_t

    n = len(deltas)
    total = n_all / n * math.fsum(deltas)
    if n < 2:
        return total, None if n < n_all else 0.0
    s2 = float(np.var([*deltas, b, -b], ddof=1))
    var = n_all ** 2 * (1 - n / n_all) * s2 / n
    return total, float(student_t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(max(var, 0.0))


@dataclasses.dataclass(frozen=True)
class Swaps:
    """What each bullet's person judgment would change: per run and metric the machine's mean over
    topics, per bullet key the change ``δ`` of the run's mean, and each run's bullet count."""

    machine: dict[str, dict[str, float]]
    delta: dict[tuple[str, str, int], dict[str, float]]
    bullets: dict[str, int]


def swaps(topics: Sequence[Any], machine: Sequence[Any], people: Sequence[Any],
          metrics: Sequence[str] = AGREEMENT_METRICS) -> Swaps:
    """``δ`` of every bullet ``people`` judged (keys the machine did not judge are ignored), scored
    as ``bolt agree`` scores (``agreement.topic_scores``: SPEC §6, offsets standing for posts)."""
    mine = {j.key: j for j in machine}
    theirs = {k: j for k, j in ((j.key, j) for j in people) if k in mine}
    keys = sorted(mine)
    base = topic_scores(topics, list(mine.values()), keys)
    n_topics = {r: len(by_t) for r, by_t in base.items()}
    delta = {}
    for k, person in sorted(theirs.items()):
        t, r, _ = k
        same_topic = [x for x in keys if x[0] == t]  # every run of the topic: the citation pool stays the same
        swapped = topic_scores(topics, [mine[x] for x in same_topic if x != k] + [person], same_topic)[r][t]
        delta[k] = {m: (swapped[m] - base[r][t][m]) / n_topics[r] for m in metrics}
    means = {r: {m: math.fsum(s[m] for s in by_t.values()) / n_topics[r] for m in metrics}
             for r, by_t in base.items() if by_t}
    return Swaps(means, delta, {r: sum(1 for k in keys if k[1] == r) for r in base})


def estimate(sw: Swaps, sample: Sequence[tuple[str, str, int]], topics: Sequence[Any],
             level: float = LEVEL) -> dict[str, dict[str, Corrected]]:
    """The corrected estimate per run and metric from the ``δ`` of the sampled keys."""
    metrics = list(next(iter(sw.machine.values()), {}))
    deltas = {r: {m: [sw.delta[k][m] for k in sample if k[1] == r] for m in metrics} for r in sw.machine}
    bound = _pseudo(deltas, topics, metrics)
    out: dict[str, dict[str, Corrected]] = {}
    for r, by_m in sw.machine.items():
        out[r] = {}
        for m, theta in by_m.items():
            ds = deltas[r][m]
            if not ds:
                out[r][m] = Corrected(theta, theta, None, 0, sw.bullets[r])
                continue
            total, half = _interval(ds, sw.bullets[r], level, bound[m])
            ci = None if half is None else (theta + total - half, theta + total + half)
            out[r][m] = Corrected(theta, theta + total, ci, len(ds), sw.bullets[r])
    return out


def corrected_scores(topics: Sequence[Any], machine: Sequence[Any], people: Sequence[Any],
                     metrics: Sequence[str] = AGREEMENT_METRICS, level: float = LEVEL) -> dict[str, dict[str, Corrected]]:
    """Per run and metric: the machine's mean over topics and the sample-corrected estimate.

    ``machine`` judges every bullet; ``people`` judge a random sample of the same (topic, run,
    bullet) keys (keys the machine did not judge are ignored).
    """
    sw = swaps(topics, machine, people, metrics)
    return estimate(sw, sorted(sw.delta), topics, level)


def _pseudo(deltas: dict[str, dict[str, list[float]]], topics: Sequence[Any], metrics: Sequence[str]) -> dict[str, float]:
    """Per metric the pseudo-observation ``b``: the largest ``|δ|`` of the whole sample, else one
    facet of an average topic over every topic."""
    facets = [len(t.facets) for t in topics]
    one = 1.0 / (max(sum(facets) / len(facets), 1.0) * len(facets)) if facets else 0.0
    out = {}
    for m in metrics:
        seen = [abs(d) for by_m in deltas.values() for d in by_m[m]]
        out[m] = max(seen) if seen and max(seen) > 0 else one
    return out
