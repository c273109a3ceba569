"""Run scores from the machine's judgments, corrected by people's judgments of a random sample of
bullets (a difference estimator, the idea behind prediction-powered inference).

Every bullet has the machine's judgment; people judged a simple random sample of them. For a
run with ``N`` judged bullets, ``n`` of them sampled, the score from the machine's judgments
``θ_M`` is corrected by what the sample says the machine gets wrong:

    θ̂ = θ_M + (N / n) Σ_{i in sample} δ_i

where ``δ_i`` is the change in the run's mean score (over its topics) when bullet ``i``'s machine
judgment is replaced by the person's. Under simple random sampling ``(N/n) Σ δ_i`` is unbiased
for ``Σ_i δ_i`` over all the run's bullets, which is the whole machine-minus-person difference
when the bullets' corrections add up (always for the words of P_n, and for R_n when no two
wrongly judged bullets of a topic touch the same facet; otherwise it is the first-order term).
The interval is the t interval of that sum with the finite-population correction:
``Var = N² (1 - n/N) s²_δ / n``. A machine that is right on every sampled bullet gets
``θ̂ = θ_M`` and an interval of zero width: the sample found no error.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

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


def _interval(deltas: Sequence[float], n_all: int, level: float) -> tuple[float, float | None]:
    """The estimated total correction ``(N/n) Σ δ`` and its half-width (t, finite population; None
    from one sampled bullet of several, 0 when every bullet was sampled)."""
    from scipy.stats import t as student_t

    n = len(deltas)
    total = n_all / n * math.fsum(deltas)
    if n < 2:
        return total, None if n < n_all else 0.0
    mean = math.fsum(deltas) / n
    s2 = math.fsum((d - mean) ** 2 for d in deltas) / (n - 1)
    var = n_all ** 2 * (1 - n / n_all) * s2 / n
    return total, float(student_t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(max(var, 0.0))


def corrected_scores(topics: Sequence[Any], machine: Sequence[Any], people: Sequence[Any],
                     metrics: Sequence[str] = AGREEMENT_METRICS, level: float = LEVEL) -> dict[str, dict[str, Corrected]]:
    """Per run and metric: the machine's mean over topics and the sample-corrected estimate.

    ``machine`` judges every bullet; ``people`` judge a random sample of the same (topic, run,
    bullet) keys (keys the machine did not judge are ignored). Scored as ``bolt agree`` scores
    (``agreement.topic_scores``: the metrics of SPEC §6, offsets standing for posts).
    """
    mine = {j.key: j for j in machine}
    theirs = {k: j for k, j in ((j.key, j) for j in people) if k in mine}
    keys = sorted(mine)
    base = topic_scores(topics, list(mine.values()), keys)
    n_topics = {r: len(by_t) for r, by_t in base.items()}
    deltas: dict[str, dict[str, list[float]]] = {r: {m: [] for m in metrics} for r in base}
    for k, person in sorted(theirs.items()):
        t, r, _ = k
        same_topic = [x for x in keys if x[0] == t]  # every run of the topic: the citation pool stays the same
        swapped = topic_scores(topics, [mine[x] for x in same_topic if x != k] + [person], same_topic)[r][t]
        for m in metrics:
            deltas[r][m].append((swapped[m] - base[r][t][m]) / n_topics[r])
    out: dict[str, dict[str, Corrected]] = {}
    for r in base:
        n_all = sum(1 for k in keys if k[1] == r)
        out[r] = {}
        for m in metrics:
            theta = math.fsum(s[m] for s in base[r].values()) / n_topics[r]
            ds = deltas[r][m]
            if not ds:
                out[r][m] = Corrected(theta, theta, None, 0, n_all)
                continue
            total, half = _interval(ds, n_all, level)
            ci = None if half is None else (theta + total - half, theta + total + half)
            out[r][m] = Corrected(theta, theta + total, ci, len(ds), n_all)
    return out
