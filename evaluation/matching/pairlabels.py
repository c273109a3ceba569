"""Pair-label files (a text, a facet statement, a person's yes/no) and held-out-by-topic evaluation.

A pair-label file is a TSV with a header and the columns ``key``, ``topic``, ``label`` (1/0),
``paragraph`` (the judged text) and ``statement`` (the nugget or facet text): the shape of the
iKAT development labels (``../shared/ikat-dev/pairs.tsv``). Pairs of one topic share texts, so
anything tuned here is tuned on some topics and measured on another (leave one topic out);
the topic is the part of ``topic`` before the first ``_`` (``12_9``: topic 12, turn 9).

Three decision rules are compared, each with the same features (``matching.statement``):

- ``old_defaults``: the 0.1 assessor's rule (any sentence, or the whole text, with 40% of the
  statement's stemmed terms and two shared terms, or cosine >= 0.45);
- ``tuned_overlap``: whole-text term coverage >= a threshold chosen on the training topics;
- ``statement``: the logistic regression of ``matching.statement``, fitted on the training topics.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, Sequence

from evaluation.agreement import BinaryAgreement, binary_agreement
from evaluation.matching import lexical
from evaluation.matching.statement import FEATURES, Idf, Reference, StatementModel, features
from evaluation.matching.text import sentences
from indexing.errors import ToolkitError

COLUMNS = ("key", "topic", "label", "paragraph", "statement")
OVERLAP_GRID = tuple(round(0.05 * k, 2) for k in range(1, 20))
_HEADER = "\t".join(COLUMNS)
FEATURE_SETS: tuple[tuple[str, ...], ...] = (
    FEATURES,  # everything
    ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage"),  # lexical specificity
    ("coverage", "idf_coverage", "sentence_idf_coverage", "distinct_coverage", "cosine", "sentence_cosine"),
    ("coverage", "cosine"),  # the old rule's two signals, combined
    ("idf_coverage", "sentence_cosine", "cosine"),
)
"""The menu the feature set is chosen from (on training topics only, like C and the threshold)."""
C_GRID = (0.1, 0.3, 1.0, 3.0, 10.0)
PROBABILITY_GRID = tuple(round(0.05 * k, 2) for k in range(2, 19))


class PairLabel(NamedTuple):
    key: str
    topic: str
    label: bool
    paragraph: str
    statement: str

    @property
    def group(self) -> str:
        """The topic the pair belongs to for held-out splits (``12_9`` -> ``12``)."""
        return self.topic.split("_", 1)[0]


def read_pairs(path: str | Path) -> list[PairLabel]:
    """Read a pair-label TSV; a bad header or row raises a ToolkitError naming the line and the fix."""
    path = Path(path)
    if not path.is_file():
        raise ToolkitError(f"pair-label file not found: {path}", file=str(path),
                           hint="give a TSV with columns key, topic, label, paragraph, statement")
    out: list[PairLabel] = []
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:5]] != list(COLUMNS):
            raise ToolkitError(f"{path}: line 1 must be the header {_HEADER!r}, got {header!r}",
                               file=str(path), line=1, hint="write the five columns in this order, tab-separated")
        for lineno, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) < 5 or row[2].strip() not in ("0", "1"):
                raise ToolkitError(f"{path}: line {lineno}: expected 5 tab-separated columns with label 0 or 1",
                                   file=str(path), line=lineno,
                                   hint="replace tabs and line breaks inside texts by spaces")
            out.append(PairLabel(row[0], row[1], row[2].strip() == "1", row[3], row[4]))
    if not out:
        raise ToolkitError(f"{path}: no pairs", file=str(path), hint="add at least one labelled pair")
    return out


@dataclass
class PairData:
    """Per-pair decisions inputs: features for the learned rule, and the old rule's decision."""

    pairs: list[PairLabel]
    feats: list[dict[str, float]]
    old_default: list[bool]

    @property
    def labels(self) -> list[bool]:
        return [p.label for p in self.pairs]

    @property
    def groups(self) -> list[str]:
        return [p.group for p in self.pairs]


def prepare(pairs: Sequence[PairLabel], embedder, old_lexical: float = 0.4, old_min_terms: int = 2,
            old_semantic: float = 0.45) -> PairData:
    """Features of every pair; IDF pools are the texts of each ``topic`` value (one turn's pool)."""
    import numpy as np

    pools: dict[str, list[str]] = {}
    for p in pairs:
        pools.setdefault(p.topic, []).extend((p.paragraph, p.statement))
    idfs = {t: Idf(texts) for t, texts in pools.items()}
    sents = {p.paragraph: sentences(p.paragraph, "eng") for p in pairs}
    texts = list(dict.fromkeys([p.statement for p in pairs] + [p.paragraph for p in pairs]
                               + [s for ss in sents.values() for s in ss]))
    vec = dict(zip(texts, np.asarray(embedder.encode(texts), dtype="float32"))) if embedder else {}
    feats, old = [], []
    for p in pairs:
        ref = Reference.of(p.statement, idfs[p.topic])
        ss = sents[p.paragraph]
        if vec:
            cos = float(vec[p.statement] @ vec[p.paragraph])
            sc = max(float(vec[p.statement] @ vec[s]) for s in ss)
        else:
            cos = sc = 0.0
        feats.append(features(ref, p.paragraph, ss, cos, sc))
        units = ss + ((p.paragraph,) if len(ss) > 1 else ())
        lex = any(lexical.lexical_match(lexical.overlap(ref.terms, lexical.content_terms(u)), old_lexical,
                                        old_min_terms) for u in units)
        sem = bool(vec) and max(sc, cos) >= old_semantic
        old.append(lex or sem)
    return PairData(list(pairs), feats, old)


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


def fit_model(feats: Sequence[dict[str, float]], labels: Sequence[bool], groups: Sequence[str],
              feature_sets: Sequence[Sequence[str]] = FEATURE_SETS, C_grid: Sequence[float] = C_GRID,
              objective: str = "kappa", name: str = "statement-lr") -> StatementModel:
    """Fit the logistic regression on these pairs; features, C and threshold by inner leave-one-topic-out.

    The feature set (from a small menu), the regularisation ``C`` and the decision threshold are
    chosen together on out-of-fold probabilities of the given pairs (never on in-sample ones,
    which are over-confident); then the model is refitted on all of them with that choice.
    """
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    y = np.array(labels, dtype=int)
    yb = list(map(bool, y))
    inner = list(folds(groups))
    best: tuple = (-math.inf, C_grid[0], 0.5, tuple(feature_sets[0]))
    for names, C in ((tuple(fs), C) for fs in feature_sets for C in C_grid):
        X = np.array([[f[n] for n in names] for f in feats], dtype=float)
        oof = np.zeros(len(y))
        for _, tr, te in inner:
            if len(set(y[tr])) < 2:
                oof[te] = y[tr].mean()
                continue
            oof[te] = LogisticRegression(C=C, max_iter=5000).fit(X[tr], y[tr]).predict_proba(X[te])[:, 1]
        t = best_threshold(list(oof), yb, PROBABILITY_GRID, objective)
        v = getattr(binary_agreement(yb, [p >= t for p in oof]), objective)
        if v > best[0]:
            best = (v, C, t, names)
    _, C, t, feature_names = best
    X = np.array([[f[n] for n in feature_names] for f in feats], dtype=float)
    m = LogisticRegression(C=C, max_iter=5000).fit(X, y)
    notes = {"pairs": int(len(y)), "positives": int(y.sum()), "topics": sorted(set(groups)), "C": C,
             "C_grid": list(C_grid), "threshold_objective": objective,
             "inner_out_of_fold_" + objective: round(float(best[0]), 4),
             "feature_sets": [list(fs) for fs in feature_sets],
             "chosen_by": "inner leave-one-topic-out probabilities (features, C and threshold together)"}
    return StatementModel(name, tuple(feature_names), tuple(round(float(c), 6) for c in m.coef_[0]),
                          round(float(m.intercept_[0]), 6), t, notes)


def loto(data: PairData, rules: dict[str, Callable[[PairData, list[int], list[int]], list[bool]]]
         ) -> dict[str, dict]:
    """Each rule's pooled held-out agreement (decisions of every fold concatenated) and per fold."""
    labels, groups = data.labels, data.groups
    out: dict[str, dict] = {}
    for name, rule in rules.items():
        decided: dict[int, bool] = {}
        per_fold = {}
        for g, tr, te in folds(groups):
            d = rule(data, tr, te)
            decided.update(zip(te, d))
            per_fold[g] = binary_agreement([labels[i] for i in te], d).as_dict(3)
        order = sorted(decided)
        pooled: BinaryAgreement = binary_agreement([labels[i] for i in order], [decided[i] for i in order])
        out[name] = {"pooled": pooled.as_dict(), "per_topic": per_fold}
    return out


def rule_old_defaults(data: PairData, train: list[int], test: list[int]) -> list[bool]:
    return [data.old_default[i] for i in test]


def rule_tuned_overlap(data: PairData, train: list[int], test: list[int]) -> list[bool]:
    cov = [f["coverage"] for f in data.feats]
    t = best_threshold([cov[i] for i in train], [data.labels[i] for i in train], OVERLAP_GRID)
    return [cov[i] >= t for i in test]


def rule_statement(feature_sets: Sequence[Sequence[str]] = FEATURE_SETS, C_grid: Sequence[float] = C_GRID,
                   objective: str = "kappa"):
    """The learned rule as a fold function: fitted (C, threshold too) on the training topics only."""

    def rule(data: PairData, train: list[int], test: list[int]) -> list[bool]:
        m = fit_model([data.feats[i] for i in train], [data.labels[i] for i in train],
                      [data.groups[i] for i in train], feature_sets, C_grid, objective)
        return [m.probability(data.feats[i]) >= m.threshold for i in test]

    return rule
