"""How far one judge's run scores sit from another's: per-run bias and run-level Kendall's tau,
each with a bootstrap interval over topics.

A meter with a known error is useful when the error is small, stated and the same for every run;
kappa alone does not say it (a strict assessor can agree per bullet and still read every run's
recall low). Items of one topic share texts and judges, so the intervals resample whole topics
(``scipy.stats.bootstrap``, percentile, 1,000 resamples, seed 0), as ``agreement.kappa_ci`` does.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Mapping, Sequence

import numpy as np

REPLICATES = 1000
LEVEL = 0.95


def topic_bootstrap(n_topics: int, statistic: Callable[[np.ndarray], np.ndarray], seed: int = 0,
                    replicates: int = REPLICATES, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of ``statistic(topic indices)`` (a vector) over topic resamples; with
    fewer than two topics the interval is the point."""
    from scipy.stats import DegenerateDataWarning, bootstrap

    point = np.atleast_1d(np.asarray(statistic(np.arange(n_topics)), dtype=float))
    if n_topics < 2:
        return point, point
    with warnings.catch_warnings():  # a constant statistic (every resample equal) is not a problem here
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = bootstrap((np.arange(n_topics),), lambda i: np.atleast_1d(statistic(np.asarray(i, dtype=int))),
                        vectorized=False, n_resamples=replicates, confidence_level=level, method="percentile",
                        random_state=seed)
    lo, hi = (np.atleast_1d(np.asarray(x, dtype=float)) for x in (res.confidence_interval.low,
                                                                   res.confidence_interval.high))
    return np.where(np.isnan(lo), point, lo), np.where(np.isnan(hi), point, hi)


def _matrix(topic_ids: Sequence[str], run_ids: Sequence[str], values: np.ndarray):
    """Cells (topic, run) -> a (topics, runs, k) array of values and a (topics, runs) presence mask."""
    topics = sorted(set(topic_ids))
    runs = sorted(set(run_ids))
    ti = {t: i for i, t in enumerate(topics)}
    ri = {r: i for i, r in enumerate(runs)}
    v = np.asarray(values, dtype=float).reshape(len(topic_ids), -1)
    x = np.zeros((len(topics), len(runs), v.shape[1]))
    mask = np.zeros((len(topics), len(runs)))
    for t, r, row in zip(topic_ids, run_ids, v):
        x[ti[t], ri[r]] = row
        mask[ti[t], ri[r]] = 1.0
    return topics, runs, x, mask


def _run_means(x: np.ndarray, mask: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(runs, k) means over the resampled topics ``idx`` (NaN for a run none of them holds)."""
    n = mask[idx].sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return x[idx].sum(axis=0) / n[:, None]


def bias_table(topic_ids: Sequence[str], run_ids: Sequence[str], differences: np.ndarray,
               metrics: Sequence[str], seed: int = 0) -> dict[str, Any]:
    """Per run and metric the mean difference over the run's topics, and their mean over runs
    (``mean``), each with a 95% interval resampling topics. ``differences`` has one row per
    (topic, run) cell and one column per metric (e.g. machine score - person's score)."""
    topics, runs, x, mask = _matrix(topic_ids, run_ids, differences)
    k = len(metrics)

    def stat(idx: np.ndarray) -> np.ndarray:
        m = _run_means(x, mask, idx)
        return np.concatenate([np.nan_to_num(m, nan=0.0).ravel(), np.nanmean(m, axis=0)])

    point = stat(np.arange(len(topics)))
    lo, hi = topic_bootstrap(len(topics), stat, seed)
    cell = lambda i: {"bias": round(float(point[i]), 4), "ci": [round(float(lo[i]), 4), round(float(hi[i]), 4)]}
    return {"topics": len(topics), "runs": len(runs),
            "per_run": {r: {m: cell(ri * k + mi) for mi, m in enumerate(metrics)} for ri, r in enumerate(runs)},
            "mean": {m: cell(len(runs) * k + mi) for mi, m in enumerate(metrics)}}


def tau_with_ci(first: Mapping[str, Mapping[str, float]], second: Mapping[str, Mapping[str, float]],
                seed: int = 0) -> dict[str, Any]:
    """Kendall's tau-b between the run rankings two judges give (runs' mean over the topics each
    judge scored for them; ``{run: {topic: score}}``), with a 95% interval resampling topics."""
    from scipy.stats import kendalltau

    runs = sorted(set(first) & set(second))
    cells = [(t, r) for r in runs for t in first[r] if t in second[r]]
    if len(runs) < 2 or not cells:
        return {"tau": None, "ci": None, "runs": len(runs)}
    diffs = np.array([[first[r][t], second[r][t]] for t, r in cells])
    topics, rs, x, mask = _matrix([t for t, _ in cells], [r for _, r in cells], diffs)

    def stat(idx: np.ndarray) -> np.ndarray:
        m = _run_means(x, mask, idx)
        ok = ~np.isnan(m[:, 0])
        if ok.sum() < 2:
            return np.array([np.nan])
        tau = kendalltau(m[ok, 0], m[ok, 1], variant="b").statistic
        return np.array([tau])

    point = float(stat(np.arange(len(topics)))[0])
    if math.isnan(point):
        return {"tau": None, "ci": None, "runs": len(runs)}
    lo, hi = topic_bootstrap(len(topics), stat, seed)
    return {"tau": round(point, 4), "ci": [round(float(lo[0]), 4), round(float(hi[0]), 4)], "runs": len(rs)}
