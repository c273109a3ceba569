"""The tracks' own metrics, as named metric objects (ir_measures style, as ``evaluation.metrics``).

They are not ``bolt score`` metrics: they read per-nugget grades (support / partial support) and
per-sentence citation judgments that our per-bullet statistics do not carry. ``bolt convert score``
computes them from our topics and judgments files (written by ``bolt convert import``) and writes a
document of the same shape as ``bolt score --json``, so ``bolt compare`` ranks and correlates them.

AutoNuggetizer (TREC RAG 2024; Pradeep et al. 2024, castorini/nuggetizer ``calculate_nugget_scores``),
per answer, with ``s`` = 1 for support, 0.5 for partial support (0 in the strict variant), else 0:

- ``AN_all``: mean ``s`` over all nuggets of the topic;
- ``AN_vital``: mean ``s`` over the vital nuggets (0 when the topic has none);
- ``AN_weighted``: ``Σ w s / Σ w`` with weight 1 for vital, 0.5 for okay nuggets.

``strict=True`` gives no credit for partial support (nuggetizer's ``strict_*_score``).

A topic the run did not answer (no assignment) scores 0 and stays in the mean, as in ``bolt score``
(nuggetizer averages over the answers it is given; with every topic answered the two agree).
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from evaluation.metrics.base import Metric, ParamInfo, Registry, mean

TRACK_METRICS = Registry({}, {})
CREDIT = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
WEIGHT = {"vital": 1.0, "okay": 0.5}


class NuggetGrades(NamedTuple):
    """One run's answer to one topic: (importance, grade) of every nugget of the topic."""

    topic: str
    run: str
    responded: bool
    grades: tuple[tuple[str, str], ...]


_STRICT = ParamInfo(bool, None, False, "no credit for partial support (nuggetizer's strict_* scores)")


def _credit(grade: str, strict: bool) -> float:
    if strict and grade == "partial_support":
        return 0.0
    return CREDIT[grade]


class _AutoNugget(Metric):
    SUPPORTED_PARAMS = {"strict": _STRICT}
    WEIGHTS: dict[str, float] = {}

    def compute(self, s: NuggetGrades) -> float:  # type: ignore[override]
        strict = self.params["strict"]
        num = den = 0.0
        for imp, grade in s.grades:
            w = self.WEIGHTS.get(imp, 0.0)
            num += w * _credit(grade, strict)
            den += w
        return num / den if den else 0.0


class ANAll(_AutoNugget):
    """AutoNuggetizer All score: the share of all nuggets the answer supports."""

    NAME = "AN_all"
    WEIGHTS = {"vital": 1.0, "okay": 1.0}


class ANVital(_AutoNugget):
    """AutoNuggetizer Vital score: the share of vital nuggets the answer supports."""

    NAME = "AN_vital"
    WEIGHTS = {"vital": 1.0, "okay": 0.0}


class ANWeighted(_AutoNugget):
    """AutoNuggetizer Weighted score: vital nuggets weigh 1, okay nuggets 0.5."""

    NAME = "AN_weighted"
    WEIGHTS = WEIGHT


AN_all = TRACK_METRICS.register(ANAll())
AN_vital = TRACK_METRICS.register(ANVital())
AN_weighted = TRACK_METRICS.register(ANWeighted())
AUTONUGGET_METRICS: tuple[Metric, ...] = (AN_all, AN_all(strict=True), AN_vital, AN_vital(strict=True),
                                          AN_weighted, AN_weighted(strict=True))


def autonugget_stats(topics: Sequence[Any], judgments: Iterable[Any], runs: Sequence[str] | None = None
                     ) -> dict[str, dict[str, NuggetGrades]]:
    """``{run: {topic: NuggetGrades}}`` from our topics and judgments (``nugget_assignments``, else facets).

    A judgments file of our own (no grades) counts a facet any bullet addresses as ``support``.
    """
    graded: dict[tuple[str, str], dict[str, str]] = {}
    covered: dict[tuple[str, str], set[str]] = {}
    for j in judgments:
        if j.extra.get("nugget_assignments") is not None:
            graded[(j.topic, j.run)] = j.extra["nugget_assignments"]
        covered.setdefault((j.topic, j.run), set()).update(j.facets)
    run_ids = list(runs) if runs else list(dict.fromkeys(r for _, r in covered))
    out: dict[str, dict[str, NuggetGrades]] = {r: {} for r in run_ids}
    for run in run_ids:
        for t in topics:
            key = (t.number, run)
            responded = key in covered
            g = graded.get(key)
            grades = tuple((f.importance, (g.get(f.id, "not_support") if g is not None else
                                           ("support" if f.id in covered.get(key, ()) else "not_support")))
                           for f in t.facets)
            out[run][t.number] = NuggetGrades(t.number, run, responded, grades)
    return out


def score_document(stats: Mapping[str, Mapping[str, Any]], metrics: Sequence[Metric],
                   settings: dict[str, Any]) -> dict[str, Any]:
    """A ``bolt score --json``-shaped document (runs -> mean, topics) that ``bolt compare`` reads."""
    from bolt import __version__

    runs = {}
    for run, by_topic in stats.items():
        topics = {t: {repr(m): m.score(s) for m in metrics} for t, s in by_topic.items()}
        runs[run] = {"mean": {repr(m): mean([v[repr(m)] for v in topics.values()]) for m in metrics},
                     "topics": topics}
    settings = {**settings, "metrics": [repr(m) for m in metrics], "version": __version__}
    sig = "|".join(f"{k}:{v}" for k, v in settings.items() if not isinstance(v, (list, dict)))
    return {"settings": settings, "signature": sig, "runs": runs}


def score_autonuggetizer(topics_path: str | os.PathLike, judgments_path: str | os.PathLike,
                         runs: Sequence[str] | None = None) -> dict[str, Any]:
    """Score converted AutoNuggetizer assignments with the six AutoNuggetizer metrics."""
    from bolt.topics import read_topics
    from evaluation.judgments import file_sha256, read_judgments

    topics = read_topics(topics_path)
    stats = autonugget_stats(topics, read_judgments(judgments_path), runs)
    settings = {"track": "autonuggetizer", "credit": "support 1, partial_support 0.5 (strict 0)",
                "weights": "vital 1, okay 0.5", "unanswered": "0, counted", "topics": len(topics),
                "judgments_sha256": file_sha256(judgments_path)[:12]}
    return score_document(stats, AUTONUGGET_METRICS, settings)
