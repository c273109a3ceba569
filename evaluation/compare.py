"""Comparing runs: rankings, Kendall's tau-b, paired significance tests, and stability tables.

- Kendall's tau is ``scipy.stats.kendalltau(variant="b")`` over the runs two rankings share. On rankings
  without ties it equals the "adjacent swaps" definition of the AQUAINT pilot README
  (``1 − 2·swaps / (n(n−1)/2)``); tau-b also handles tied scores (seed 000 table: tests/test_compare.py).
- Paired tests resample per-topic scores (which are functions of the per-topic statistics): the
  randomisation test is ``scipy.stats.permutation_test`` with ``permutation_type="samples"`` (sign
  flips of the paired differences); the bootstrap test is the shift method (Sakai 2006; as in
  sacrebleu's paired bootstrap): p = share of resampled mean differences, centred on 0, at least as
  extreme as the observed one. Both two-sided.
- Stability (Voorhees & Buckley 2002; Voorhees 2005 §3): split the topics into two disjoint random
  subsets of equal size, compare every pair of runs on both, and count a *swap* when the two subsets
  disagree strictly about which run is better; error rate per bin of the score difference on the
  first subset (bins of 0.01 by default), summed over trials.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from evaluation.results import ScoreReport
from indexing.errors import ToolkitError


#: A score file as read back is the score report itself (``evaluation.results.ScoreReport``).
ScoreFile = ScoreReport


def load_scores(path: str | Path) -> ScoreReport:
    """Read a ``bolt score --json`` file (:meth:`ScoreReport.read`); errors name the file and what is missing."""
    return ScoreReport.read(path)


# ---------------------------------------------------------------------------------- rankings and tau

def rank_runs(scores: Mapping[str, float]) -> list[str]:
    """Runs by decreasing score, best first; ties in run-name order (tau-b sees the tie, not this order)."""
    return sorted(scores, key=lambda r: (-scores[r], r))


def kendall_tau(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Kendall's tau-b between two score assignments over the runs they share (NaN if < 2 runs)."""
    from scipy.stats import kendalltau

    common = [r for r in a if r in b]
    if len(common) < 2:
        return math.nan
    res = kendalltau([a[r] for r in common], [b[r] for r in common], variant="b")
    return float(res.statistic)


def kendall_tau_rankings(first: Sequence[str], second: Sequence[str]) -> float:
    """Kendall's tau-b between two rankings given best first (e.g. ``"FGEADBHC"``), over shared items."""
    pos_a = {x: -i for i, x in enumerate(first)}
    pos_b = {x: -i for i, x in enumerate(second)}
    return kendall_tau(pos_a, pos_b)


def adjacent_swaps_tau(first: Sequence[str], second: Sequence[str]) -> float:
    """The pilot README's definition: ``1 − 2·(minimum adjacent swaps) / (n(n−1)/2)`` (no ties)."""
    items = [x for x in first if x in set(second)]
    order = {x: i for i, x in enumerate(x for x in second if x in set(items))}
    seq = [order[x] for x in items]
    n = len(seq)
    if n < 2:
        return math.nan
    swaps = sum(1 for i, j in itertools.combinations(range(n), 2) if seq[i] > seq[j])
    return 1 - 2 * swaps / (n * (n - 1) / 2)


# ---------------------------------------------------------------------------------- significance

@dataclass(frozen=True)
class PairedResult:
    """A paired test of run ``a`` against run ``b`` over shared topics."""

    a: str
    b: str
    diff: float      # mean(a) − mean(b)
    p_value: float
    test: str
    topics: int
    n_resamples: int

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "diff": self.diff, "p": self.p_value, "test": self.test,
                "topics": self.topics, "resamples": self.n_resamples}


def paired_test(x: Sequence[float], y: Sequence[float], *, test: str = "randomization",
                n_resamples: int = 10000, seed: int = 0) -> float:
    """Two-sided p-value that paired per-topic scores ``x`` and ``y`` have the same mean."""
    import numpy as np

    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    if d.size == 0 or not np.any(d):
        return 1.0
    if test == "randomization":
        from scipy.stats import permutation_test

        res = permutation_test((np.asarray(x, float), np.asarray(y, float)),
                               lambda a, b, axis: np.mean(a - b, axis=axis), permutation_type="samples",
                               vectorized=True, n_resamples=n_resamples, alternative="two-sided",
                               random_state=np.random.default_rng(seed))
        return float(res.pvalue)
    if test == "bootstrap":
        rng = np.random.default_rng(seed)
        observed = d.mean()
        centred = d - observed
        idx = rng.integers(0, d.size, size=(n_resamples, d.size))
        means = centred[idx].mean(axis=1)
        # +1 in numerator and denominator: the observed sample is one of the possible resamples.
        return float((np.sum(np.abs(means) >= abs(observed) - 1e-12) + 1) / (n_resamples + 1))
    raise ValueError(f"unknown test {test!r}; choose 'randomization' or 'bootstrap'")


def paired_tests(per_topic: Mapping[str, Mapping[str, float]], *, test: str = "randomization",
                 n_resamples: int = 10000, seed: int = 0) -> list[PairedResult]:
    """Every pair of runs (in ranking order, better first) tested on the topics both scored."""
    means = {r: (sum(v.values()) / len(v) if v else 0.0) for r, v in per_topic.items()}
    order = rank_runs(means)
    out = []
    for a, b in itertools.combinations(order, 2):
        topics = [t for t in per_topic[a] if t in per_topic[b]]
        xa = [per_topic[a][t] for t in topics]
        xb = [per_topic[b][t] for t in topics]
        p = paired_test(xa, xb, test=test, n_resamples=n_resamples, seed=seed)
        diff = (sum(xa) - sum(xb)) / len(topics) if topics else 0.0
        out.append(PairedResult(a, b, diff, p, test, len(topics), n_resamples))
    return out


# ---------------------------------------------------------------------------------- stability

@dataclass(frozen=True)
class StabilityRow:
    """Swaps over all trials for run pairs whose difference on the first subset lies in [low, high)."""

    subset_size: int
    low: float
    high: float
    pairs: int
    swaps: int

    @property
    def error_rate(self) -> float:
        return self.swaps / self.pairs if self.pairs else 0.0

    def to_json(self) -> dict:
        return {"subset_size": self.subset_size, "low": round(self.low, 6), "high": round(self.high, 6),
                "pairs": self.pairs, "swaps": self.swaps, "error_rate": self.error_rate}


def stability(per_topic: Mapping[str, Mapping[str, float]], *, subset_sizes: Sequence[int] | None = None,
              trials: int = 50, bin_width: float = 0.01, seed: int = 0) -> list[StabilityRow]:
    """Voorhees & Buckley error rates by score-difference bin over disjoint topic subsets.

    Uses the topics every run scored. ``subset_sizes`` default to half the topics (the largest
    size two disjoint subsets allow). Bins with no pair are left out.
    """
    import numpy as np

    runs = list(per_topic)
    if len(runs) < 2:
        return []
    topics = [t for t in per_topic[runs[0]] if all(t in per_topic[r] for r in runs)]
    half = len(topics) // 2
    sizes = [s for s in (subset_sizes or [half]) if 1 <= s <= half]
    if not sizes:
        return []
    if not bin_width > 0:
        raise ValueError("bin_width must be positive")
    matrix = np.array([[per_topic[r][t] for t in topics] for r in runs], dtype=float)  # runs x topics
    rng = np.random.default_rng(seed)
    ia, ib = np.triu_indices(len(runs), k=1)
    rows: list[StabilityRow] = []
    for size in sizes:
        pairs: dict[int, int] = {}
        swaps: dict[int, int] = {}
        for _ in range(trials):
            perm = rng.permutation(len(topics))
            m1 = matrix[:, perm[:size]].mean(axis=1)
            m2 = matrix[:, perm[size:2 * size]].mean(axis=1)
            d1 = m1[ia] - m1[ib]
            d2 = m2[ia] - m2[ib]
            bins = np.floor(np.abs(d1) / bin_width + 1e-9).astype(int)
            swapped = (d1 * d2) < 0
            for b, s in zip(bins.tolist(), swapped.tolist()):
                pairs[b] = pairs.get(b, 0) + 1
                swaps[b] = swaps.get(b, 0) + int(s)
        for b in sorted(pairs):
            rows.append(StabilityRow(size, b * bin_width, (b + 1) * bin_width, pairs[b], swaps[b]))
    return rows


# ---------------------------------------------------------------------------------- the compare document

def compare_reports(reports: Sequence[ScoreReport], *, metric: str = "F_GD", test: str = "randomization",
                    resamples: int = 10000, trials: int = 50, bin_width: float = 0.01,
                    seed: int = 0) -> dict:
    """The ``bolt compare`` document (SPEC §8 keys plus significance and stability).

    Rankings: one per score report, or one per metric when a single report is given; Kendall's tau-b
    between every two rankings; paired tests and stability on ``metric``'s per-topic scores.
    """
    names = [r.name for r in reports]
    if len(set(names)) != len(names):
        raise ToolkitError("two score files have the same name", hint="rename them: NAME is the file name stem")
    for r in reports:
        if metric not in r.metrics:
            raise ToolkitError(f"no metric {metric!r} in the scores", file=r.path,
                               hint=f"choose --metric from {', '.join(r.metrics)}")
    if len(reports) == 1:
        f = reports[0]
        assignments = {m: {r: f.means[r][m] for r in f.means} for m in f.metrics}
    else:
        assignments = {f.name: {r: f.means[r][metric] for r in f.means} for f in reports}
    rankings = {k: rank_runs(v) for k, v in assignments.items()}
    taus = {}
    for a, b in itertools.combinations(assignments, 2):
        t = kendall_tau(assignments[a], assignments[b])
        taus[f"{a}|{b}"] = None if math.isnan(t) else round(t, 6)
    significance, stab = {}, {}
    for f in reports:
        per_topic = f.per_topic(metric)
        significance[f.name] = [r.to_json() for r in paired_tests(per_topic, test=test, n_resamples=resamples,
                                                                  seed=seed)]
        stab[f.name] = [row.to_json() for row in stability(per_topic, trials=trials, bin_width=bin_width, seed=seed)]
    return {"metric": metric, "rankings": rankings, "kendall_tau": taus, "significance": significance,
            "stability": stab, "settings": {"test": test, "resamples": resamples, "trials": trials,
                                            "bin_width": bin_width, "seed": seed, "tau": "kendall tau-b (scipy)",
                                            "rank_by": "metric" if len(reports) == 1 else "score file"}}
