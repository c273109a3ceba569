"""Held out by source: does the statement decision agree with people on labels it was never fitted on?

Three sources of human "does this text state this unit?" labels, three domains and three kinds of
annotator: iKAT dev pairs (conversational answers, crowd), REALSumm (news summaries, crowd
majority) and the forum bullets of the careful judgments (engineers of this project). A rule is
measured two ways:

- *leave one source out*: fitted and chosen on two sources, measured on the third;
- *held out by topic inside a source*: fitted on the source's other topics (grouped folds).

Everything a rule chooses (feature set, ``C``, probability threshold; the word-overlap rule's
threshold) is chosen on its training data only, by grouped out-of-fold probabilities, with an
objective that is the *mean of each training source's kappa* and a fit in which *each source
weighs the same* (26,400 REALSumm pairs must not drown 386 iKAT ones). Kappa comes with a
bootstrap interval over topics (:func:`evaluation.agreement.kappa_ci`).

Pairs are turned once into a flat matrix of every comparison's features (:class:`Matrix`); a
pair's probability is its best comparison's, as in the assessor.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from evaluation.agreement import binary_agreement, kappa_ci
from evaluation.matching.pairlabels import PairData
from evaluation.matching.statement import EMBEDDING_FEATURES, FEATURES, StatementModel

LEXICAL = ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage")
NUMBERS = ("number_coverage", "has_numbers")
MISSING = ("missing_max_weight", "missing_terms", "reference_terms")
MENU: tuple[tuple[str, ...], ...] = (
    LEXICAL,
    LEXICAL + ("clause_min_coverage",),
    LEXICAL + ("number_conflict",),
    LEXICAL + NUMBERS + MISSING,
)
"""The feature sets the shipped procedure chooses among (inside its training data)."""
VARIANTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "lexical (v0.3's features)": (LEXICAL,),
    "+clause_min_coverage (v0.4's features)": (LEXICAL + ("clause_min_coverage",),),
    "+number_coverage, has_numbers": (LEXICAL + NUMBERS,),
    "+number_conflict": (LEXICAL + ("number_conflict",),),
    "+missing_max_weight": (LEXICAL + ("missing_max_weight",),),
    "+missing_terms": (LEXICAL + ("missing_terms",),),
    "+reference_terms": (LEXICAL + ("reference_terms",),),
    "+sentence_coverage": (LEXICAL + ("sentence_coverage",),),
    "+bigram_coverage": (LEXICAL + ("bigram_coverage",),),
    "+numbers +missing": (LEXICAL + NUMBERS + MISSING,),
    "+numbers +missing +number_conflict +sentence_coverage": (LEXICAL + NUMBERS + MISSING + ("number_conflict", "sentence_coverage"),),
    "nested choice among the menu (shipped)": MENU,
    "+sentence_cosine": (LEXICAL + ("sentence_cosine",),),
    "+cosine +sentence_cosine": (LEXICAL + ("cosine", "sentence_cosine"),),
    "+numbers +missing +number_conflict +sentence_coverage +sentence_cosine":
        (LEXICAL + NUMBERS + MISSING + ("number_conflict", "sentence_coverage", "sentence_cosine"),),
}
"""Every variant measured (each fixed feature set gets C and threshold chosen inside its training
data; the shipped one chooses the feature set from :data:`MENU` too). Those reading a cosine need
``--embeddings``."""
SHIPPED = "nested choice among the menu (shipped)"
WITHIN_SOURCE_RULES = (SHIPPED, "lexical (v0.3's features)", "+clause_min_coverage (v0.4's features)")
"""The rules also measured held out by topic inside each source (the rest only by source: CPU)."""
C_GRID = (0.1, 1.0, 10.0)
THRESHOLD_GRID = tuple(round(0.02 * k, 2) for k in range(1, 50))
INNER_FOLDS = 5


class Matrix:
    """One source's pairs as arrays: every comparison's features, its pair, the pair labels and topics."""

    def __init__(self, name: str, data: PairData) -> None:
        import numpy as np

        self.name = name
        self.data = data
        self.y = np.array(data.labels, dtype=bool)
        self.groups = [f"{name}:{g}" for g in data.groups]
        rows, owner, best = [], [], []
        for i, subs in enumerate(data.subs):
            b = max(range(len(subs)), key=lambda k: subs[k]["idf_coverage"] + subs[k]["sentence_cosine"])
            for k, f in enumerate(subs):
                rows.append([f[n] for n in FEATURES])
                owner.append(i)
                best.append(k == b)
        self.X = np.array(rows, dtype=float)
        self.owner = np.array(owner)
        self.best = np.array(best)
        self.n = len(self.y)
        self.coverage = np.array([f["coverage"] for f in data.feats])

    @staticmethod
    def cols(names: Sequence[str]) -> list[int]:
        return [FEATURES.index(n) for n in names]

    def instances(self, names: Sequence[str], mask):
        """Training rows of the pairs in ``mask``: every comparison of a negative pair (weight
        1/comparisons, so a pair counts once), the most specific comparison of a positive one."""
        import numpy as np

        inpair = mask[self.owner]
        yrow = self.y[self.owner]
        keep = inpair & (~yrow | self.best)
        counts = np.bincount(self.owner, minlength=self.n)
        w = np.where(yrow, 1.0, 1.0 / counts[self.owner])[keep]
        return self.X[keep][:, self.cols(names)], yrow[keep].astype(int), w

    def scores(self, model: StatementModel, mask=None):
        """Each pair's best comparison probability (``mask``: only those pairs)."""
        import numpy as np

        z = model.intercept + self.X[:, self.cols(model.features)] @ np.array(model.coefficients)
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -700, 700)))
        out = np.full(self.n, -np.inf)
        np.maximum.at(out, self.owner, p)
        return out if mask is None else out[mask]


Masks = Mapping[str, object]  # source name -> boolean array over its pairs


def _all(m: Matrix):
    import numpy as np

    return np.ones(m.n, dtype=bool)


def fit_lr(mats: Mapping[str, Matrix], names: Sequence[str], C: float, masks: Masks | None = None,
           name: str = "statement-lr") -> StatementModel:
    """A logistic regression on the pairs in ``masks``, each source weighing the same in the fit."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from threadpoolctl import threadpool_limits

    Xs, ys, ws = [], [], []
    for s, m in mats.items():
        X, y, w = m.instances(names, masks[s] if masks is not None else _all(m))
        if len(y):
            Xs.append(X)
            ys.append(y)
            ws.append(w / w.sum() * 1000.0)
    with threadpool_limits(1):
        clf = LogisticRegression(C=C, max_iter=5000).fit(np.vstack(Xs), np.concatenate(ys),
                                                         sample_weight=np.concatenate(ws))
    return StatementModel(name, tuple(names), tuple(round(float(c), 6) for c in clf.coef_[0]),
                          round(float(clf.intercept_[0]), 6), 0.5, {})


def mean_kappa(labels: Mapping[str, object], decided: Mapping[str, object]) -> float:
    """The selection objective: the mean of each source's kappa (no source drowns another)."""
    return sum(binary_agreement(list(labels[s]), list(decided[s])).kappa for s in labels) / len(labels)


def best_threshold(scores: Mapping[str, object], labels: Mapping[str, object],
                   grid: Sequence[float] = THRESHOLD_GRID) -> float:
    """The grid value with the best mean-of-sources kappa (ties: the higher threshold)."""
    return max(grid, key=lambda t: (round(mean_kappa(labels, {s: scores[s] >= t for s in scores}), 9), t))


def fold_masks(groups: Sequence[str], k: int = INNER_FOLDS, seed: int = 0) -> list:
    """``k`` grouped folds (whole topics; shuffled with ``seed``) as boolean test masks."""
    import numpy as np

    gs = sorted(set(groups))
    random.Random(seed).shuffle(gs)
    fold_of = {g: i % k for i, g in enumerate(gs)}
    f = np.array([fold_of[g] for g in groups])
    return [f == j for j in range(min(k, len(gs)))]


def out_of_fold(mats: Mapping[str, Matrix], masks: Masks, names: Sequence[str], C: float,
                k: int = INNER_FOLDS) -> dict[str, object]:
    """Grouped out-of-fold probabilities of the pairs in ``masks`` (each source split by its topics)."""
    import numpy as np

    oof = {s: np.zeros(m.n) for s, m in mats.items()}
    folds = {s: fold_masks([g for g, keep in zip(m.groups, masks[s]) if keep], k) for s, m in mats.items()}
    idx = {s: np.flatnonzero(masks[s]) for s in mats}
    for j in range(k):
        train, test = {}, {}
        for s, m in mats.items():
            if j >= len(folds[s]):
                train[s] = masks[s]
                continue
            te = np.zeros(m.n, dtype=bool)
            te[idx[s][folds[s][j]]] = True
            train[s], test[s] = masks[s] & ~te, te
        if not test:
            continue
        model = fit_lr(mats, names, C, train)
        for s, te in test.items():
            oof[s][te] = mats[s].scores(model, te)
    return oof


def out_of_source(mats: Mapping[str, Matrix], masks: Masks, names: Sequence[str], C: float) -> dict[str, object]:
    """Each training source's probabilities from a model fitted on the *other* training sources:
    a choice made on these is a choice of what transfers to a source not fitted on."""
    import numpy as np

    oof = {s: np.zeros(m.n) for s, m in mats.items()}
    for s, m in mats.items():
        others = {o: mats[o] for o in mats if o != s}
        model = fit_lr(others, names, C, {o: masks[o] for o in others})
        oof[s][masks[s]] = m.scores(model, masks[s])
    return oof


INNER = ("topic", "source")
"""How a choice is scored inside the training data: grouped topic folds across the training
sources, or (with two or more) each training source scored by a fit on the others."""


def choose_and_fit(mats: Mapping[str, Matrix], menu: Sequence[Sequence[str]] = MENU,
                   C_grid: Sequence[float] = C_GRID, masks: Masks | None = None,
                   name: str = "statement-lr", inner: str = "topic") -> StatementModel:
    """The shipped procedure: features, ``C`` and threshold chosen together by out-of-fold
    probabilities on these pairs only (``inner``: see :data:`INNER`; objective: mean-of-sources
    kappa), then refitted on them."""
    if inner not in INNER:
        raise ValueError(f"inner must be one of {INNER}, got {inner!r}")
    by_source = inner == "source" and len(mats) > 1
    masks = masks or {s: _all(m) for s, m in mats.items()}
    labels = {s: m.y[masks[s]] for s, m in mats.items()}
    best: tuple | None = None
    for names in menu:
        for C in C_grid:
            oof = out_of_source(mats, masks, names, C) if by_source else out_of_fold(mats, masks, names, C)
            sc = {s: oof[s][masks[s]] for s in mats}
            t = best_threshold(sc, labels)
            v = mean_kappa(labels, {s: sc[s] >= t for s in sc})
            if best is None or v > best[0] + 1e-9:
                best = (v, tuple(names), C, t)
    v, names, C, t = best
    m = fit_lr(mats, names, C, masks, name)
    notes = {"sources": {s: {"pairs": int(masks[s].sum()), "positives": int(mats[s].y[masks[s]].sum()),
                             "topics": len({g for g, k in zip(mats[s].groups, masks[s]) if k})} for s in mats},
             "C": C, "C_grid": list(C_grid), "feature_sets": [list(f) for f in menu],
             "inner_out_of_fold_mean_kappa": round(float(v), 4),
             "chosen_by": ("each training source scored by a fit on the other training sources"
                           if by_source else f"grouped {INNER_FOLDS}-fold out-of-fold probabilities inside the "
                           "training data") + " (feature set, C and threshold together; objective: mean of each "
                           "source's kappa; each source weighs the same in the fit)"}
    return StatementModel(name, m.features, m.coefficients, m.intercept, t, notes)


# ----------------------------------------------------------------------------- rules and evaluation
Rule = Callable[[Mapping[str, Matrix], Masks, Matrix, object], object]
"""rule(training matrices, their training masks, test matrix, test mask) -> decisions on the test pairs."""


def rule_overlap(mats, masks, test, test_mask):
    """Word overlap (POURPRE coverage) with its threshold tuned on the training sources."""
    grid = tuple(round(0.02 * k, 2) for k in range(1, 50))
    t = best_threshold({s: m.coverage[masks[s]] for s, m in mats.items()},
                       {s: m.y[masks[s]] for s, m in mats.items()}, grid)
    return test.coverage[test_mask] >= t


def rule_statement(menu: Sequence[Sequence[str]] = MENU, C_grid: Sequence[float] = C_GRID,
                   inner: str = "topic") -> Rule:
    def rule(mats, masks, test, test_mask):
        model = choose_and_fit(mats, menu, C_grid, masks, inner=inner)
        return test.scores(model, test_mask) >= model.threshold

    return rule


def rule_fixed(model: StatementModel) -> Rule:
    """A model as given (never refitted): e.g. the previously shipped one."""

    def rule(mats, masks, test, test_mask):
        return test.scores(model, test_mask) >= model.threshold

    return rule


def figures(y, decided, groups) -> dict:
    """Accuracy, kappa with its bootstrap interval over topics, precision, recall."""
    a = binary_agreement(list(y), list(decided))
    return dict(a.as_dict(), kappa_ci=list(kappa_ci(list(y), list(decided), list(groups))))


def leave_one_source_out(mats: Mapping[str, Matrix], rules: Mapping[str, Rule]) -> dict[str, dict[str, dict]]:
    """rule -> test source -> figures, each rule fitted and chosen on the other sources only."""
    import numpy as np

    out: dict[str, dict[str, dict]] = {}
    for rname, rule in rules.items():
        out[rname] = {}
        for test, tm in mats.items():
            train = {s: m for s, m in mats.items() if s != test}
            d = rule(train, {s: _all(m) for s, m in train.items()}, tm, np.ones(tm.n, dtype=bool))
            out[rname][test] = figures(tm.y, d, tm.groups)
    return out


def within_source(mats: Mapping[str, Matrix], rules: Mapping[str, Rule], k: int = 5) -> dict[str, dict[str, dict]]:
    """rule -> source -> figures, held out by topic inside the source (``k`` grouped folds, pooled)."""
    import numpy as np

    out: dict[str, dict[str, dict]] = {}
    for rname, rule in rules.items():
        out[rname] = {}
        for s, m in mats.items():
            decided = np.zeros(m.n, dtype=bool)
            for te in fold_masks(m.groups, k, seed=1):
                decided[te] = rule({s: m}, {s: ~te}, m, te)
            out[rname][s] = figures(m.y, decided, m.groups)
    return out
