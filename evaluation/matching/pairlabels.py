"""Pair-label files (a text, a facet statement, a person's yes/no) and the features the assessor decides on.

A pair-label file is a TSV with a header and the columns ``key``, ``topic``, ``label`` (1/0),
``paragraph`` (the judged text) and ``statement`` (the nugget or facet text): the shape of the
iKAT development labels (``../shared/ikat-dev/pairs.tsv``). The topic is the part of ``topic``
before the first ``_`` (``12_9``: topic 12, turn 9), the group held-out figures split by.

``bolt agree --pairs`` reads a file (:func:`read_pairs`), computes each pair's features as the
assessor does (:func:`prepare`, ``matching.statement``) and decides them with the shipped
statement model (:func:`decide`). Fitting and measuring decision rules on such pairs (held out by
topic or by source) is not part of the toolkit: it lives in the repository's ``fitting/`` folder.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Sequence

from evaluation.matching import lexical
from evaluation.matching.statement import Idf, Reference, StatementModel, clauses, features
from evaluation.matching.text import sentences
from indexing.errors import ToolkitError

COLUMNS = ("key", "topic", "label", "paragraph", "statement")
_HEADER = "\t".join(COLUMNS)
UNIT_COLUMNS = ("source", "topic", "unit_id", "unit_text", "text_id", "text", "label")
"""The common unit-label layout (one row per unit x text), read as well as :data:`COLUMNS`."""
_UNIT_HEADER = "\t".join(UNIT_COLUMNS)

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
    """Read a pair-label TSV, in this module's layout (:data:`COLUMNS`) or the common unit-label
    one (:data:`UNIT_COLUMNS`: the unit is the statement, the text the paragraph, the key
    ``unit_id|text_id``); a bad header or row raises a ToolkitError naming the line and the fix."""
    path = Path(path)
    if not path.is_file():
        raise ToolkitError(f"pair-label file not found: {path}", file=str(path),
                           hint="give a TSV with columns key, topic, label, paragraph, statement "
                                "(or source, topic, unit_id, unit_text, text_id, text, label)")
    out: list[PairLabel] = []
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = [h.strip() for h in (next(reader, None) or [])]
        if header[:5] == list(COLUMNS):
            width, label_at = 5, 2
            make = lambda r: PairLabel(r[0], r[1], r[2].strip() == "1", r[3], r[4])  # noqa: E731
        elif header[:7] == list(UNIT_COLUMNS):
            width, label_at = 7, 6
            make = lambda r: PairLabel(f"{r[2]}|{r[4]}", r[1], r[6].strip() == "1", r[5], r[3])  # noqa: E731
        else:
            raise ToolkitError(f"{path}: line 1 must be the header {_HEADER!r} or {_UNIT_HEADER!r}, got {header!r}",
                               file=str(path), line=1, hint="write the columns in one of these orders, tab-separated")
        for lineno, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) < width or row[label_at].strip() not in ("0", "1"):
                raise ToolkitError(f"{path}: line {lineno}: expected {width} tab-separated columns with label 0 or 1",
                                   file=str(path), line=lineno,
                                   hint="replace tabs and line breaks inside texts by spaces")
            out.append(make(row))
    if not out:
        raise ToolkitError(f"{path}: no pairs", file=str(path), hint="add at least one labelled pair")
    return out


@dataclass
class PairData:
    """Per-pair decision inputs: features for the learned rule, and the old rule's decision.

    ``subs`` holds, per pair, the features of every (facet text, bullet unit) comparison the
    assessor makes for it: one for a pair-label row, several for a forum (bullet, facet) pair
    (each sentence and the whole bullet, against the description and each nugget). The pair's
    probability is the best comparison's, as in ``Assessor._match_statements``. ``feats`` is the
    comparison with the highest term coverage (what the word-overlap rule sees).
    """

    pairs: list[PairLabel]
    feats: list[dict[str, float]]
    old_default: list[bool]
    subs: list[list[dict[str, float]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.subs:
            self.subs = [[f] for f in self.feats]

    def __add__(self, other: "PairData") -> "PairData":
        return PairData(self.pairs + other.pairs, self.feats + other.feats, self.old_default + other.old_default,
                        self.subs + other.subs)

    def subset(self, keep: Sequence[int]) -> "PairData":
        return PairData([self.pairs[i] for i in keep], [self.feats[i] for i in keep],
                        [self.old_default[i] for i in keep], [self.subs[i] for i in keep])

    @property
    def labels(self) -> list[bool]:
        return [p.label for p in self.pairs]

    @property
    def groups(self) -> list[str]:
        return [p.group for p in self.pairs]


def _vectors(embedder, texts: Sequence[str]) -> dict:
    """Each text's embedding (float32), encoded in one batch; empty without an embedder (no cosine features)."""
    import numpy as np

    return dict(zip(texts, np.asarray(embedder.encode(texts), dtype="float32"))) if embedder else {}


def prepare(pairs: Sequence[PairLabel], embedder, old_lexical: float = 0.4, old_min_terms: int = 2,
            old_semantic: float = 0.45, clause_refs: bool = False) -> PairData:
    """Features of every pair; IDF pools are the texts of each ``topic`` value (one turn's pool).

    With ``clause_refs`` each of a long statement's :func:`~evaluation.matching.statement.clauses`
    is compared with the paragraph too (the pair's probability is the best comparison's).
    """
    pools: dict[str, list[str]] = {}
    for p in pairs:
        pools.setdefault(p.topic, []).extend((p.paragraph, p.statement))
    idfs = {t: Idf(texts) for t, texts in pools.items()}
    sents = {p.paragraph: sentences(p.paragraph, "eng") for p in pairs}
    refs_of = {p.statement: (p.statement,) + (clauses(p.statement) if clause_refs else ()) for p in pairs}
    texts = list(dict.fromkeys([r for rs in refs_of.values() for r in rs] + [p.paragraph for p in pairs]
                               + [s for ss in sents.values() for s in ss]))
    vec = _vectors(embedder, texts)
    feats, old, subs = [], [], []
    for p in pairs:
        ss = sents[p.paragraph]
        comps = []
        for ref_text in refs_of[p.statement]:
            ref = Reference.of(ref_text, idfs[p.topic])
            if vec:
                cos = float(vec[ref_text] @ vec[p.paragraph])
                sc = max(float(vec[ref_text] @ vec[s]) for s in ss)
            else:
                cos = sc = 0.0
            comps.append(features(ref, p.paragraph, ss, cos, sc))
        feats.append(comps[0])
        subs.append(comps)
        ref = Reference.of(p.statement, idfs[p.topic])
        units = ss + ((p.paragraph,) if len(ss) > 1 else ())
        lex = any(lexical.lexical_match(lexical.overlap(ref.terms, lexical.content_terms(u)), old_lexical,
                                        old_min_terms) for u in units)
        sem = bool(vec) and max(comps[0]["sentence_cosine"], comps[0]["cosine"]) >= old_semantic
        old.append(lex or sem)
    return PairData(list(pairs), feats, old, subs)


def decide(model: StatementModel, data: PairData, idx: Sequence[int], threshold: float | None = None) -> list[bool]:
    """A fitted model's decisions on some pairs: the best comparison's probability against the threshold."""
    t = model.threshold if threshold is None else threshold
    return [max(model.probability(f) for f in data.subs[i]) >= t for i in idx]
