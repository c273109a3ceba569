"""Agreement between two sets of yes/no decisions: accuracy, Cohen's kappa, precision and recall.

One definition used by ``bolt agree`` (two judgment files, or an assessor against pair labels)
and by the calibration benchmark. ``reference`` is the side taken as truth (a person), so
precision is "of the pairs ``candidate`` says yes to, how many ``reference`` says yes to".
Kappa is scikit-learn's ``cohen_kappa_score``; when both sides give one constant answer it is
undefined and reported as 1.0 if they agree everywhere, else 0.0 (what kappa's formula tends to).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from evaluation.judgments import Judgment


class BinaryAgreement(NamedTuple):
    """How ``candidate`` decisions agree with ``reference`` ones on the same items."""

    n: int
    accuracy: float
    kappa: float
    precision: float
    recall: float
    reference_yes: int
    candidate_yes: int
    both_yes: int

    def as_dict(self, digits: int = 4) -> dict[str, float | int]:
        return {k: (round(v, digits) if isinstance(v, float) else v) for k, v in self._asdict().items()}


def binary_agreement(reference: Sequence[bool], candidate: Sequence[bool]) -> BinaryAgreement:
    """Accuracy, kappa, precision and recall of ``candidate`` against ``reference`` (same order).

    Precision is 1.0 when ``candidate`` says yes to nothing, recall 1.0 when ``reference`` does.
    """
    if len(reference) != len(candidate):
        raise ValueError(f"decision lists differ in length: {len(reference)} vs {len(candidate)}")
    n = len(reference)
    if n == 0:
        return BinaryAgreement(0, 0.0, 0.0, 1.0, 1.0, 0, 0, 0)
    ref = [bool(x) for x in reference]
    cand = [bool(x) for x in candidate]
    both = sum(r and c for r, c in zip(ref, cand))
    ry, cy = sum(ref), sum(cand)
    agree = sum(r == c for r, c in zip(ref, cand))
    if len(set(ref) | set(cand)) == 1:
        kappa = 1.0
    elif len(set(ref)) == 1 and len(set(cand)) == 1:
        kappa = 0.0
    else:
        from sklearn.metrics import cohen_kappa_score

        kappa = float(cohen_kappa_score(ref, cand))
    return BinaryAgreement(n, agree / n, kappa, both / cy if cy else 1.0, both / ry if ry else 1.0, ry, cy, both)


def _kappa_of_counts(tp, fp, fn, tn):
    """Cohen's kappa from the four cells (vectorised over bootstrap replicates; the same
    constant-answer convention as :func:`binary_agreement`)."""
    import numpy as np

    n = tp + fp + fn + tn
    po = (tp + tn) / n
    pe = ((tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)) / (n * n)
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (po - pe) / (1.0 - pe)
    return np.where(pe >= 1.0 - 1e-12, np.where(po >= 1.0 - 1e-12, 1.0, 0.0), k)


KAPPA_CI_REPLICATES = 1000
KAPPA_CI_LEVEL = 0.95


def kappa_ci(reference: Sequence[bool], candidate: Sequence[bool], groups: Sequence[str],
             replicates: int = KAPPA_CI_REPLICATES, level: float = KAPPA_CI_LEVEL, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap interval of Cohen's kappa, resampling whole ``groups`` (topics).

    Items of one topic share texts and judges, so they are not independent: resampling topics
    (with replacement, as many as there are) is what tells how much the figure would move on
    other topics. Deterministic for a given ``seed``. With one group the interval is the point.
    """
    import numpy as np

    if not (len(reference) == len(candidate) == len(groups)):
        raise ValueError("reference, candidate and groups differ in length")
    if not reference:
        return (0.0, 0.0)
    ref = np.asarray(reference, dtype=bool)
    cand = np.asarray(candidate, dtype=bool)
    _, inv = np.unique(np.asarray([str(g) for g in groups]), return_inverse=True)
    k = int(inv.max()) + 1
    cells = np.zeros((k, 4))
    for c, m in enumerate((ref & cand, ~ref & cand, ref & ~cand, ~ref & ~cand)):
        np.add.at(cells[:, c], inv, m)
    rng = np.random.default_rng(seed)
    draws = cells[rng.integers(0, k, size=(replicates, k))].sum(axis=1)
    ks = _kappa_of_counts(*draws.T)
    lo, hi = np.quantile(ks, [(1 - level) / 2, 1 - (1 - level) / 2])
    return (round(float(lo), 4), round(float(hi), 4))


def with_ci(reference: Sequence[bool], candidate: Sequence[bool], groups: Sequence[str]) -> dict[str, Any]:
    """:func:`binary_agreement` as a dict plus ``kappa_ci`` (bootstrap over ``groups``, e.g. topics)."""
    return dict(binary_agreement(reference, candidate).as_dict(), kappa_ci=list(kappa_ci(reference, candidate, groups)))


# --------------------------------------------------------------------------- two judgment files
AGREEMENT_METRICS = ("R_n", "P_n", "F_GD")
"""The run-level scores whose differences ``judgment_agreement`` reports (SPEC §6)."""


def _relevant_pairs(a: Mapping[tuple, "Judgment"], b: Mapping[tuple, "Judgment"], keys) -> tuple[list, list]:
    return [bool(a[k].facets) for k in keys], [bool(b[k].facets) for k in keys]


def _facet_pairs(a, b, keys, facets_of: Mapping[str, Sequence[str]]) -> tuple[list, list]:
    ra, rb = [], []
    for k in keys:
        for f in facets_of.get(k[0], ()):
            ra.append(f in a[k].facets)
            rb.append(f in b[k].facets)
    return ra, rb


def _support_pairs(a, b, keys) -> tuple[list, list, int]:
    """Supports decisions of the citations both files judged, matched by (post, offset)."""
    ra, rb, unmatched = [], [], 0
    for k in keys:
        sb = {(s.post, s.offset): s.supports for s in b[k].sources}
        for s in a[k].sources:
            if (s.post, s.offset) in sb:
                ra.append(s.supports)
                rb.append(sb[(s.post, s.offset)])
            else:
                unmatched += 1
    return ra, rb, unmatched


def topic_scores(topics: Sequence[Any], judgments: Sequence["Judgment"],
                 keys: Iterable[tuple[str, str, int]]) -> dict[str, dict[str, dict[str, float]]]:
    """R_n, P_n and F_GD per run and topic (every topic of ``topics``; one the run does not answer
    scores 0) from one judgment file (the one call into the scorer).

    The runs are rebuilt from the judgment keys (the scorer reads only run ids and bullet order
    for these metrics), so every bullet either file judged exists in both scorings; a bullet one
    file did not judge counts there as irrelevant with unsupported sources.
    """
    from types import SimpleNamespace

    from evaluation.judgments import JudgmentSet
    from evaluation.scoring import build_stats, choose_metrics, topic_scores as per_topic

    shape: dict[str, dict[str, int]] = {}
    for topic, run, bullet in keys:
        shape.setdefault(run, {})
        shape[run][topic] = max(shape[run].get(topic, 0), bullet)
    # The scorer counts W_k from bullet text; stand-in texts of each judgment's own length keep the file's counts.
    length = {j.key: j.words if j.words is not None else (j.responsive_words or 0) for j in judgments}
    runs = [SimpleNamespace(run_id=r, results={t: SimpleNamespace(bullets=[
                SimpleNamespace(text=" w" * length.get((t, r, k), 0), sources=()) for k in range(1, n + 1)])
                for t, n in by_topic.items()})
            for r, by_topic in sorted(shape.items())]
    given = JudgmentSet(path="<judgments>", header=None, judgments=tuple(judgments), sha256=None)
    # Both files are scored alike with the offsets standing for the posts: a comparison, not a published score.
    metrics = choose_metrics(only=list(AGREEMENT_METRICS))
    table = build_stats(topics, runs, [given], unit_of=lambda thread, offset: None, metrics=metrics)
    return {r: {t: {m: s[m] for m in AGREEMENT_METRICS} for t, s in by_t.items()}
            for r, by_t in per_topic(table, metrics).items()}


def run_means(topics: Sequence[Any], judgments: Sequence["Judgment"],
              keys: Iterable[tuple[str, str, int]]) -> dict[str, dict[str, float]]:
    """Mean R_n, P_n and F_GD per run over every topic of ``topics`` (:func:`topic_scores`)."""
    per = topic_scores(topics, judgments, keys)
    return {r: {m: sum(s[m] for s in by_t.values()) / len(by_t) for m in AGREEMENT_METRICS}
            for r, by_t in per.items() if by_t}


def judgment_agreement(a: Sequence["Judgment"], b: Sequence["Judgment"],
                       topics: Sequence[Any] | None = None) -> dict[str, Any]:
    """How judgment file ``b`` agrees with ``a`` (``a`` taken as the reference, e.g. a person).

    Per bullet (relevant: at least one facet), per (bullet, facet) of the topic (with ``topics``;
    otherwise over the facets either file names for the topic), per citation (supports), and with
    ``topics`` each run's mean R_n, P_n, F_GD under each file, their difference (b - a), and
    Kendall's tau between the run rankings the two files give, each with a bootstrap interval
    over topics (:func:`run_bias`).
    """
    ia = {j.key: j for j in a}
    ib = {j.key: j for j in b}
    keys = sorted(set(ia) & set(ib), key=lambda k: (k[0], k[1], k[2]))
    out: dict[str, Any] = {"bullets_in_both": len(keys), "only_in_first": len(set(ia) - set(ib)),
                           "only_in_second": len(set(ib) - set(ia))}
    topic_of = [k[0] for k in keys]
    out["relevance"] = with_ci(*_relevant_pairs(ia, ib, keys), topic_of)
    if topics is not None:
        facets_of = {t.topic_id: [f.id for f in t.facets] for t in topics}
    else:
        facets_of = {}
        for k in keys:
            facets_of.setdefault(k[0], [])
            for f in (*ia[k].facets, *ib[k].facets):
                if f not in facets_of[k[0]]:
                    facets_of[k[0]].append(f)
    out["facets"] = with_ci(*_facet_pairs(ia, ib, keys, facets_of),
                            [k[0] for k in keys for _ in facets_of.get(k[0], ())])
    sa, sb, unmatched = _support_pairs(ia, ib, keys)
    sb_keys = {k: {(s.post, s.offset) for s in ib[k].sources} for k in keys}
    out["support"] = dict(with_ci(sa, sb, [k[0] for k in keys for s in ia[k].sources
                                           if (s.post, s.offset) in sb_keys[k]]),
                          citations_only_in_first=unmatched)
    if topics is not None:
        out.update(run_bias(topics, a, b, [k for k in dict.fromkeys([*ia, *ib])]))
    return out


def run_bias(topics: Sequence[Any], a: Sequence["Judgment"], b: Sequence["Judgment"],
             keys: Sequence[tuple[str, str, int]]) -> dict[str, Any]:
    """Each run's mean R_n, P_n, F_GD under ``a`` and ``b`` over every topic, their difference
    (b - a) with a 95% interval resampling topics (``evaluation.bias``), the mean difference over
    runs (``bias``), and Kendall's tau between the two run rankings with its interval."""
    import numpy as np

    from evaluation.bias import bias_table, tau_with_ci

    numbers = {t.topic_id for t in topics}
    every = [k for k in keys if k[0] in numbers]
    ta = topic_scores(topics, [j for j in a if j.key[0] in numbers], every)
    tb = topic_scores(topics, [j for j in b if j.key[0] in numbers], every)
    cells = [(t, r) for r in sorted(ta) for t in ta[r]]
    diffs = np.array([[tb[r][t][m] - ta[r][t][m] for m in AGREEMENT_METRICS] for t, r in cells])
    tab = bias_table([t for t, _ in cells], [r for _, r in cells], diffs, AGREEMENT_METRICS) if cells else None
    mean = lambda per, r, m: sum(s[m] for s in per[r].values()) / len(per[r])
    runs = {r: {m: {"first": round(mean(ta, r, m), 4), "second": round(mean(tb, r, m), 4),
                    "difference": round(mean(tb, r, m) - mean(ta, r, m), 4),
                    "difference_ci": tab["per_run"][r][m]["ci"]} for m in AGREEMENT_METRICS}
            for r in sorted(ta) if ta[r]}
    taus = {m: tau_with_ci({r: {t: s[m] for t, s in by.items()} for r, by in ta.items()},
                           {r: {t: s[m] for t, s in by.items()} for r, by in tb.items()}) for m in AGREEMENT_METRICS}
    return {"runs": runs, "bias": tab["mean"] if tab else {},
            "kendall_tau": {m: v["tau"] for m, v in taus.items()},
            "kendall_tau_ci": {m: v["ci"] for m, v in taus.items()}}
