"""Fitting and measuring the assessor's statement decision on pair labels, held out by topic.

Not installed with the toolkit: the toolkit reads pair labels and decides them with the shipped
model (``evaluation.matching.pairlabels``); this module fits that model and compares decision
rules (``scripts/bench.py score --part assess-calibration``). Pairs of one topic share texts, so
anything tuned here is tuned on some topics and measured on another (leave one topic out).

Three decision rules are compared, each with the same features (``matching.statement``):

- ``old_defaults``: the 0.1 assessor's rule (any sentence, or the whole text, with 40% of the
  statement's stemmed terms and two shared terms, or cosine >= 0.45);
- ``tuned_overlap``: whole-text term coverage >= a threshold chosen on the training topics;
- ``statement``: the logistic regression of ``matching.statement``, fitted on the training topics.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from evaluation.agreement import BinaryAgreement, binary_agreement
from evaluation.matching import lexical
from evaluation.matching.pairlabels import PairData, PairLabel, _vectors, decide
from evaluation.matching.statement import FEATURES, Idf, Reference, StatementModel, clauses, features
from evaluation.matching.text import sentences
from indexing.errors import ToolkitError

OVERLAP_GRID = tuple(round(0.05 * k, 2) for k in range(1, 20))
FEATURE_SETS: tuple[tuple[str, ...], ...] = (
    FEATURES[:11],  # everything v0.2 and v0.3 measured (before the clause and missing-term features)
    ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage"),  # lexical specificity
    ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage", "cosine", "sentence_cosine"),
    ("coverage", "cosine"),  # the old rule's two signals, combined
    ("idf_coverage", "sentence_cosine", "cosine"),
)
"""The menu the feature set is chosen from (on training topics only, like C and the threshold)."""
LEXICAL = ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage")
"""v0.3's features: the lexical specificity set v0.2's inner cross-validation chose on the iKAT pairs."""
LEXICAL_CLAUSES = LEXICAL + ("clause_min_coverage",)
"""v0.4's features: v0.3's plus the weakest clause's coverage (long, multi-part facet texts)."""
REFIT_FEATURE_SETS: tuple[tuple[str, ...], ...] = (LEXICAL_CLAUSES,)
"""What the shipped model is refitted with (docs/assessor.md has every variant measured and why this one)."""
VARIANTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "lexical (v0.3)": (LEXICAL,),
    "+clause_min_coverage (v0.4)": (LEXICAL_CLAUSES,),
    "+clause_max_coverage": (LEXICAL + ("clause_max_coverage",),),
    "+clause_sentence_coverage": (LEXICAL + ("clause_sentence_coverage",),),
    "+clause_max+clause_min": (LEXICAL + ("clause_max_coverage", "clause_min_coverage"),),
    "+sentence_cosine": (LEXICAL + ("sentence_cosine",),),
    "+numbers": (LEXICAL + ("number_coverage", "has_numbers"),),
    "+names": (LEXICAL + ("name_coverage", "has_names"),),
    "+bigram_coverage": (LEXICAL + ("bigram_coverage",),),
    "+clause_min+sentence_cosine": (LEXICAL_CLAUSES + ("sentence_cosine",),),
    "+clause_min+numbers": (LEXICAL_CLAUSES + ("number_coverage", "has_numbers"),),
    "nested choice {lexical, +clause_min}": (LEXICAL, LEXICAL_CLAUSES),
    "nested choice {lexical, +clause_min, +sentence_cosine}": (LEXICAL, LEXICAL_CLAUSES, LEXICAL + ("sentence_cosine",)),
}
"""Feature-set variants measured for v0.4 (``score --part assess-calibration --variants``): each fixed
set gets C and threshold by the nested leave-one-topic-out; a "nested choice" picks among its sets too."""
C_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
PROBABILITY_GRID = tuple(round(0.05 * k, 2) for k in range(2, 19))
FORUM_PREFIX = "forum:"
SOURCES = {FORUM_PREFIX: "forum", "": "ikat"}
"""Group prefix -> data source, for figures of each kind of pair apart (``loto(..., sources=)``)."""
SOURCE_WEIGHTS = {FORUM_PREFIX: 0.5, "": 0.5}
"""Selection objective over both kinds: the mean of each kind's kappa (neither drowns the other)."""


def prepare_judged(topics_path: str | Path, judgments_path: str | Path | Sequence[str | Path], embedder, old_lexical: float = 0.4,
                   old_min_terms: int = 2, old_semantic: float = 0.45, clause_refs: bool = False) -> PairData:
    """Forum pairs from careful judgments: every judged bullet (distinct by topic and text) against
    every facet of its topic, labelled by whether the careful ``facets`` hold that facet.

    Each pair keeps the comparisons the assessor makes (each sentence and, for a longer bullet,
    the whole bullet; against the English description and each English nugget text); IDF pools
    are one topic's facet texts and judged bullet units, as in ``Assessor._match_statements``.
    The pair's ``paragraph`` is the bullet and its ``statement`` the description; ``topic`` is
    ``forum:`` and the topic number (its own held-out group, told apart from pair-label topics).
    ``judgments_path`` may be several files (a bullet judged in two of them: the union of their facets).
    """
    from bolt.formats.topics import read_topics
    from evaluation.judgments import read_judgments
    from evaluation.matching.text import script_lang

    topics = {t.topic_id: t for t in read_topics(topics_path)}
    bullets: dict[tuple[str, str], set[str]] = {}
    paths = [judgments_path] if isinstance(judgments_path, (str, Path)) else list(judgments_path)
    for j in (j for p in paths for j in read_judgments(p)):
        text = " ".join(str(j.extra.get("text", "")).split())
        if j.topic_id not in topics or not text or script_lang(text) != "eng":
            continue
        bullets.setdefault((j.topic_id, text), set()).update(j.facets)
    units_of = {}
    for (_, text) in bullets:
        ss = sentences(text, "eng")
        units_of[text] = ss + ((text,) if len(ss) > 1 else ())
    refs_of = {n: {f.id: [x for x in [f.desc] + [g.text for g in f.nuggets] if x and script_lang(x) == "eng"]
                   for f in t.facets} for n, t in topics.items()}
    idfs = {n: Idf([x for xs in refs_of[n].values() for x in xs]
                   + [u for (tn, text) in bullets if tn == n for u in units_of[text]]) for n in topics}
    unit_sents = {u: sentences(u, "eng") for us in units_of.values() for u in us}
    parts_of = {x: clauses(x) if clause_refs else () for r in refs_of.values() for xs in r.values() for x in xs}
    texts = list(dict.fromkeys([x for x, cs in parts_of.items() for x in (x, *cs)]
                               + list(unit_sents) + [s for ss in unit_sents.values() for s in ss]))
    vec = _vectors(embedder, texts)
    pairs, feats, old, subs = [], [], [], []
    for (n, text), facets in sorted(bullets.items()):
        for f in topics[n].facets:
            comps, whole, old_yes = [], [], False
            for ref_text in refs_of[n][f.id]:
                for k, rt in enumerate((ref_text, *parts_of[ref_text])):
                    ref = Reference.of(rt, idfs[n])
                    for u in units_of[text]:
                        ss = unit_sents[u]
                        cos = float(vec[rt] @ vec[u]) if vec else 0.0
                        sc = max(float(vec[rt] @ vec[x]) for x in ss) if vec else 0.0
                        comps.append(features(ref, u, ss, cos, sc))
                        if k:
                            continue
                        whole.append(comps[-1])
                        old_yes = old_yes or lexical.lexical_match(
                            lexical.overlap(ref.terms, lexical.content_terms(u)), old_lexical, old_min_terms) or (
                            bool(vec) and cos >= old_semantic)
            if not comps:
                continue
            pairs.append(PairLabel(f"{n}:{f.id}:{len(pairs)}", FORUM_PREFIX + n, f.id in facets, text, f.desc))
            subs.append(comps)
            feats.append(max(whole, key=lambda c: c["coverage"]))
            old.append(old_yes)
    if not pairs:
        raise ToolkitError(f"{judgments_path}: no English bullet with a 'text' for a topic of {topics_path}",
                           file=str(judgments_path), hint="give the careful judgments written for these topics")
    return PairData(pairs, feats, old, subs)


def folds(groups: Sequence[str]) -> Iterator[tuple[str, list[int], list[int]]]:
    """Leave one topic out: (held-out topic, training indices, test indices)."""
    for g in sorted(set(groups), key=lambda x: (len(x), x)):
        yield g, [i for i, x in enumerate(groups) if x != g], [i for i, x in enumerate(groups) if x == g]


def best_threshold(scores: Sequence[float], labels: Sequence[bool], grid: Sequence[float],
                   objective: str = "kappa") -> float:
    """The grid value whose decisions ``score >= t`` maximise ``objective`` (ties: the higher t)."""
    best, best_t = -math.inf, grid[0]
    for t in grid:
        a = binary_agreement(labels, [s >= t for s in scores])
        v = getattr(a, objective)
        if v >= best:
            best, best_t = v, t
    return best_t


def _instances(subs: Sequence[Sequence[dict[str, float]]], labels: Sequence[bool], idx: Sequence[int]
               ) -> tuple[list[dict[str, float]], list[int]]:
    """Training instances of some pairs: every comparison of a negative pair is a negative; a
    positive pair contributes its one most specific comparison (highest ``idf_coverage`` plus
    ``sentence_cosine``), since people's "yes" says that *some* facet text is stated, not all."""
    X: list[dict[str, float]] = []
    y: list[int] = []
    for i in idx:
        if labels[i]:
            X.append(max(subs[i], key=lambda f: f["idf_coverage"] + f["sentence_cosine"]))
            y.append(1)
        else:
            X.extend(subs[i])
            y.extend([0] * len(subs[i]))
    return X, y


def _max_proba(clf, names: Sequence[str], subs: Sequence[Sequence[dict[str, float]]], idx: Sequence[int]):
    """Each pair's best comparison probability (the assessor's decision)."""
    import numpy as np

    flat = [f for i in idx for f in subs[i]]
    p = clf.predict_proba(np.array([[f[n] for n in names] for f in flat], dtype=float))[:, 1]
    out, k = [], 0
    for i in idx:
        out.append(float(p[k:k + len(subs[i])].max()))
        k += len(subs[i])
    return out


def fit_model(feats: Sequence[dict[str, float]] | Sequence[Sequence[dict[str, float]]], labels: Sequence[bool],
              groups: Sequence[str], feature_sets: Sequence[Sequence[str]] = FEATURE_SETS,
              C_grid: Sequence[float] = C_GRID, objective: str = "kappa", name: str = "statement-lr",
              weights: Mapping[str, float] | None = None) -> StatementModel:
    """Fit the logistic regression on these pairs; features, C and threshold by inner leave-one-topic-out.

    ``feats`` gives each pair's features, or each pair's list of comparisons (``PairData.subs``;
    the pair's probability is then its best comparison's). The feature set (from a small menu),
    the regularisation ``C`` and the decision threshold are chosen together on out-of-fold
    probabilities of the given pairs (never on in-sample ones, which are over-confident); then
    the model is refitted on all of them with that choice. ``weights`` (group prefix -> weight)
    makes the selection objective a weighted mean over data sources: see :func:`_objective`.
    """
    from threadpoolctl import threadpool_limits  # a scikit-learn dependency

    with threadpool_limits(1):  # tiny fits: BLAS threads only contend (10-50x slower on a busy machine)
        return _fit_model(feats, labels, groups, feature_sets, C_grid, objective, name, weights)


def _fit_model(feats, labels, groups, feature_sets, C_grid, objective, name, weights) -> StatementModel:
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    subs = [list(f) if isinstance(f, (list, tuple)) else [f] for f in feats]
    yb = [bool(x) for x in labels]
    inner = list(folds(groups))
    best: tuple = (-math.inf, C_grid[0], 0.5, tuple(feature_sets[0]))
    for names, C in ((tuple(fs), C) for fs in feature_sets for C in C_grid):
        oof = np.zeros(len(yb))
        for _, tr, te in inner:
            Xd, y = _instances(subs, yb, tr)
            if len(set(y)) < 2:
                oof[te] = float(np.mean(y))
                continue
            clf = LogisticRegression(C=C, max_iter=5000).fit(np.array([[f[n] for n in names] for f in Xd]), y)
            oof[te] = _max_proba(clf, names, subs, te)
        t = max(PROBABILITY_GRID, key=lambda t: (round(_objective(yb, [p >= t for p in oof], groups, objective,
                                                                   weights), 9), t))
        v = _objective(yb, [p >= t for p in oof], groups, objective, weights)
        if v > best[0]:
            best = (v, C, t, names)
    _, C, t, feature_names = best
    Xd, y = _instances(subs, yb, range(len(yb)))
    m = LogisticRegression(C=C, max_iter=5000).fit(np.array([[f[n] for n in feature_names] for f in Xd]), y)
    notes = {"pairs": len(yb), "positives": int(sum(yb)), "topics": sorted(set(groups)), "C": C,
             "C_grid": list(C_grid), "threshold_objective": objective,
             "inner_out_of_fold_" + objective: round(float(best[0]), 4),
             "feature_sets": [list(fs) for fs in feature_sets],
             "chosen_by": "inner leave-one-topic-out probabilities (features, C and threshold together)"}
    if weights:
        notes["objective_weights"] = dict(weights)
    return StatementModel(name, tuple(feature_names), tuple(round(float(c), 6) for c in m.coef_[0]),
                          round(float(m.intercept_[0]), 6), t, notes)


def _objective(labels: Sequence[bool], decided: Sequence[bool], groups: Sequence[str], objective: str,
               weights: Mapping[str, float] | None) -> float:
    """The selection objective: pooled agreement, or with ``weights`` (a prefix of the group -> weight,
    e.g. ``{"2.": 0.5, "": 0.5}``) the weighted mean of each data source's agreement, so a larger
    source cannot drown a smaller one."""
    if not weights:
        return getattr(binary_agreement(labels, decided), objective)
    total = 0.0
    for prefix, w in weights.items():
        src = [i for i, g in enumerate(groups) if _source(g, weights) == prefix]
        if src:
            total += w * getattr(binary_agreement([labels[i] for i in src], [decided[i] for i in src]), objective)
    return total


def _source(group: str, weights: Mapping[str, float]) -> str:
    """The longest prefix in ``weights`` the group starts with."""
    return max((p for p in weights if group.startswith(p)), key=len, default="")


def loto(data: PairData, rules: dict[str, Callable[[PairData, list[int], list[int]], list[bool]]],
         sources: Mapping[str, str] | None = None, against: str | None = None) -> dict[str, dict]:
    """Each rule's pooled held-out agreement (decisions of every fold concatenated) and per fold.

    ``sources`` (group prefix -> name, e.g. ``{"2.": "forum", "": "ikat"}``) adds the pooled
    agreement of each data source's held-out pairs apart (``by_source``). ``against`` (a rule's
    name) adds, for every other rule, a pair-by-pair comparison with it (:func:`paired`).
    """
    labels, groups = data.labels, data.groups
    out: dict[str, dict] = {}
    decisions: dict[str, dict[int, bool]] = {}
    for name, rule in rules.items():
        decided: dict[int, bool] = {}
        per_fold = {}
        for g, tr, te in folds(groups):
            d = rule(data, tr, te)
            decided.update(zip(te, d))
            per_fold[g] = binary_agreement([labels[i] for i in te], d).as_dict(3)
        decisions[name] = decided
        order = sorted(decided)
        pooled: BinaryAgreement = binary_agreement([labels[i] for i in order], [decided[i] for i in order])
        out[name] = {"pooled": pooled.as_dict(), "per_topic": per_fold}
        if sources:
            out[name]["by_source"] = {
                src: binary_agreement([labels[i] for i in order if _source(groups[i], sources) == prefix],
                                      [decided[i] for i in order if _source(groups[i], sources) == prefix]).as_dict()
                for prefix, src in sources.items()}
    if against is not None:
        for name in rules:
            if name != against:
                out[name]["vs_" + against] = paired(labels, decisions[name], decisions[against], groups, sources)
    return out


def paired(labels: Sequence[bool], new: Mapping[int, bool], old: Mapping[int, bool], groups: Sequence[str],
           sources: Mapping[str, str] | None = None) -> dict[str, dict]:
    """Where two rules decide a pair differently: how often the new one is right (``better``) or
    wrong (``worse``), per data source, with the two-sided sign test's p-value (McNemar's exact
    test): whether the difference is more than a few lucky pairs."""
    from scipy.stats import binomtest  # a scikit-learn dependency

    out = {}
    for prefix, src in (sources or {"": "all"}).items():
        idx = [i for i in new if (_source(groups[i], sources) == prefix if sources else True) and new[i] != old[i]]
        better = sum(1 for i in idx if new[i] == labels[i])
        worse = len(idx) - better
        out[src] = {"better": better, "worse": worse,
                    "sign_test_p": round(float(binomtest(better, len(idx)).pvalue), 4) if idx else 1.0}
    return out


def rule_old_defaults(data: PairData, train: list[int], test: list[int]) -> list[bool]:
    return [data.old_default[i] for i in test]


def rule_tuned_overlap(data: PairData, train: list[int], test: list[int]) -> list[bool]:
    cov = [f["coverage"] for f in data.feats]
    t = best_threshold([cov[i] for i in train], [data.labels[i] for i in train], OVERLAP_GRID)
    return [cov[i] >= t for i in test]


def rule_fixed(model: StatementModel):
    """A model as shipped (not refitted) as a fold function: for data it was never fitted on."""

    def rule(data: PairData, train: list[int], test: list[int]) -> list[bool]:
        return decide(model, data, test)

    return rule


def rule_statement(feature_sets: Sequence[Sequence[str]] = FEATURE_SETS, C_grid: Sequence[float] = C_GRID,
                   objective: str = "kappa", weights: Mapping[str, float] | None = None,
                   exclude: str | None = None):
    """The learned rule as a fold function: fitted (C, threshold too) on the training topics only.

    ``exclude`` (a group prefix) leaves those topics out of every fit: ``exclude=FORUM_PREFIX``
    is the v0.2 procedure (iKAT pairs only), so its forum figures are the shipped v0.2 model's.
    """

    def rule(data: PairData, train: list[int], test: list[int]) -> list[bool]:
        if exclude is not None:
            train = [i for i in train if not data.groups[i].startswith(exclude)]
        m = fit_model([data.subs[i] for i in train], [data.labels[i] for i in train],
                      [data.groups[i] for i in train], feature_sets, C_grid, objective, weights=weights)
        return decide(m, data, test)

    return rule
