"""ERR, the cascade measure as modified for BOLT (guidelines v5.0, §"Measures"; Chapelle et al. 2009).

For facet ``i`` and bullet ``k`` addressing it, ``q_i^k`` = (new relevant units of facet ``i`` cited by
``k``) / (denominator) × (``w_k / W_k``); ``Q_i^k = q_i^k Π_{j<k} (1 − q_i^j)``; ``S_i = Σ_k Q_i^k``;
``ERR = Σ_i S_i / m`` (no rank discount in phase 1). The guidelines call ``q`` "the residual recall of
relevant source citations": by default the denominator is the facet's relevant units not yet cited
by bullets ``1..k-1`` (``denominator='residual'``); ``denominator='total'`` divides by ``|C_i|``.
"""
from __future__ import annotations

from typing import NamedTuple

from evaluation.metrics.base import Metric, ParamInfo, register
from evaluation.metrics.facts import Response, TopicContext


def err_facet(steps: list[tuple[int, int, int, float]], residual: bool = True) -> float:
    """``S_i`` for one facet from its bullets in order.

    Each step is (new relevant units cited by the bullet, relevant units not cited before it,
    ``|C_i|``, responsive fraction ``w_k / W_k``); a bullet that does not address the facet is a
    step with ``new = 0`` (or simply absent: it contributes nothing and does not change the product).
    """
    s, not_stopped = 0.0, 1.0
    for new, remaining, total, frac in steps:
        den = remaining if residual else total
        q = (new / den) * frac if den and new else 0.0
        s += q * not_stopped
        not_stopped *= 1.0 - q
    return s


def err_sums(rows, facets_of_unit: dict, ci_size: dict[str, int]) -> tuple[float, float]:
    """``Σ_i S_i`` under the residual and the total denominator, in one pass over a response's bullets.

    ``rows`` are (effective facets, supporting (unit, facets) pairs, ``w_k / W_k``) of the bullets
    with a supporting source, in order (``evaluation.metrics.facts.BulletFacts``); ``facets_of_unit`` maps a
    unit to the facets whose ``C_i`` hold it; ``ci_size`` is ``|C_i|``. Same arithmetic, in the same
    order, as :func:`err_facet` over each facet's steps (a step with ``q = 0`` changes nothing, so it
    is skipped). A unit a bullet cites in support of ``f`` is in ``C_f`` by construction, so the new
    units are those not cited before.
    """
    cited: set = set()
    cited_in: dict[str, int] = dict.fromkeys(ci_size, 0)  # |C_i ∩ cited|
    acc: dict[str, list[float]] = {}  # facet -> [S residual, not stopped, S total, not stopped], first-seen order
    for eff, supporting, frac in rows:
        for f in eff:
            st = acc.get(f)
            if st is None:
                st = acc[f] = [0.0, 1.0, 0.0, 1.0]
            new = len({u for u, fs in supporting if f in fs and u not in cited})
            if not new:
                continue
            remaining = ci_size[f] - cited_in[f]
            if remaining:
                q = (new / remaining) * frac
                st[0] += q * st[1]
                st[1] *= 1.0 - q
            total = ci_size[f]
            if total:
                q = (new / total) * frac
                st[2] += q * st[3]
                st[3] *= 1.0 - q
        for u, _ in supporting:
            if u not in cited:
                cited.add(u)
                for f in facets_of_unit.get(u, ()):
                    cited_in[f] += 1
    return sum(a[0] for a in acc.values()), sum(a[2] for a in acc.values())


class ErrStats(NamedTuple):
    """``Σ_i S_i`` under the two readings of ``q``'s denominator, and the topic's ``m``."""

    m: int
    err_residual: float
    err_total: float


def reduce_err(response: Response, topic: TopicContext) -> ErrStats:
    """Both ``Σ_i S_i`` of the response (:func:`err_sums` over its bullets with a supporting source)."""
    rows = [(b.facets, b.supporting, b.responsive_fraction) for b in response.bullets if b.supporting]
    for row in rows:
        if row[0]:  # some bullet addresses a facet: else both sums are 0
            res, tot = err_sums(rows, topic.facets_of_unit, topic.ci_size)
            return ErrStats(len(topic.facets), res, tot)
    return ErrStats(len(topic.facets), 0, 0)


class ERR(Metric):
    """Expected reciprocal rank as a cascade over bullets, per facet, averaged over facets (p_i = 1/m)."""

    NAME = "ERR"
    SUPPORTED_PARAMS = {
        "denominator": ParamInfo(str, ("residual", "total"), "residual",
                                 "q's denominator: relevant units of the facet not yet cited (residual "
                                 "recall, the guidelines' wording) or all of them (|C_i|)"),
    }
    REDUCERS = (reduce_err,)
    READS_UNITS = True

    def compute(self, s: ErrStats) -> float:
        total = s.err_residual if self.params["denominator"] == "residual" else s.err_total
        return total / s.m if s.m else 0.0


ERR_ = register(ERR(), aliases=("err",))
