#!/usr/bin/env python
"""Candidate features for the cross-language decision, chosen inside training folds (docs/assessor.md).

An experiment, not the shipped procedure (``scripts/xl_assessor.py`` fits the shipped model). For
every (Arabic or Chinese bullet judged by people, facet) pair of the runs it computes, besides the
model's ``XFEATURES``:

- ``wcov`` / ``wicov``: the best share over the facet's nuggets of one nugget's words the bullet
  holds: jieba words (folded to Simplified; two or more characters and rarer than 20,000 in
  jieba's counts, or Latin words and numbers), ``wicov`` weighting each word by its
  self-information in jieba's counts; Arabic: the index's terms, as ``ncov``;
- ``wshared``: ``ln(1 + n)`` of the words of all the facet's nuggets together that the bullet holds;
- ``gcov``: the best share of one English facet text's stems found in the bullet's back-translation
  through the CC-CEDICT / Arabic lexicons (``bolt.pipeline.backtranslate.gloss_bag``);
- ``num``: 1 when the bullet and the facet's texts share a number;
- ``nmean``: the mean (not best) cosine with the facet's nuggets;
- ``sncos`` / ``sxcos``: the best ``ncos`` / ``xcos`` of the bullet or one of its sentences;
- ``len``: ``ln(1 +`` non-blank characters``)``;
- ``*_rel``: a feature minus its best value over the topic's facets for this bullet (0: this facet
  is the bullet's best).

For each bullet language, "today" fits ``XFEATURES`` with C = 1 and the in-sample best threshold
(``xl_assessor.fit``); "procedure" chooses a feature set of ``MENU``, C in ``CS`` and the threshold
together by grouped 5-fold out-of-fold pair kappa on the training topics only, then refits there.
Both are held out by topic (leave one out) and by round (leave one round out; rounds from
``benchmarks.run.DEV_SETS['xl']``). Printed: bullet-relevance kappa of the language's bullets with
the bootstrap-over-topics interval, P, R, pair kappa and the sets chosen. Skips (exit 0) when an
input is absent. Example (rounds 1-7: one run of their distinct judged bullets):

    scripts/xl_features.py --topics topics/xl-dev.xml --careful CAREFUL.jsonl --index IDX POOL.xml
"""
from __future__ import annotations

import argparse
import functools
import math
import re
import sys
import warnings
from collections import Counter
from pathlib import Path

BASE = ["xcos", "ncos", "ncov"]
REL = ["xcos_rel", "ncos_rel", "ncov_rel"]
MENU = {
    "base": BASE, "+wcov": BASE + ["wcov"], "+wicov": BASE + ["wicov"], "+wshared": BASE + ["wshared"],
    "+gcov": BASE + ["gcov"], "+rel": BASE + REL, "+sent": BASE + ["sncos", "sxcos"], "+num": BASE + ["num"],
    "+nmean": BASE + ["nmean"], "+len": BASE + ["len"],
    "+wicov+gcov+rel": BASE + ["wicov", "gcov"] + REL + ["wicov_rel"],
    "all": BASE + REL + ["wcov", "wicov", "wshared", "gcov", "sncos", "sxcos", "num", "nmean", "len", "wicov_rel",
                         "gcov_rel"],
}
"""The feature sets the procedure chooses among (fixed before any held-out figure was seen)."""
CS = (0.1, 1.0, 10.0)
COMMON = 20_000
"""jieba count from which a Chinese word is a function word for ``wcov`` (我们 98,740, 银行 7,684)."""
_HAN = re.compile(r"[\u3400-\u9fff]")
_SENT = re.compile(r"(?<=[。！？!?；;\n])")


def _args(argv):
    from xl_assessor import input_args

    p = input_args(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    p.add_argument("--by", nargs="+", default=["topic", "round"], choices=["topic", "round"])
    return p.parse_args(argv)


@functools.lru_cache(maxsize=50_000)
def _words(text: str, lang: str) -> frozenset[str]:
    import jieba

    from bolt.lexicon import _jieba_freq
    from evaluation.matching.crosslingual import native_terms
    from indexing.script_fold import fold_chinese

    if lang != "cmn":
        return native_terms(text, lang)
    freq, out = _jieba_freq(), set()
    for w in jieba.lcut(fold_chinese(text)):
        w = w.strip().lower()
        if _HAN.search(w):
            if len(w) >= 2 and freq.get(w, 0) < COMMON:
                out.add(w)
        elif any(c.isalnum() for c in w) and (len(w) > 1 or w.isdigit()):
            out.add(w)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def _jieba_total() -> int:
    from bolt.lexicon import _jieba_freq

    return sum(_jieba_freq().values())


def _info(w: str) -> float:
    """Self-information of a word in jieba's counts (rare words weigh more)."""
    from bolt.lexicon import _jieba_freq

    return math.log(_jieba_total() / (_jieba_freq().get(w, 0) + 1))


def _cov(have: frozenset[str], nuggets: list[str], lang: str, weighted: bool) -> float:
    best = 0.0
    for n in nuggets:
        nw = _words(n, lang)
        if nw:
            best = max(best, sum(map(_info, nw & have)) / sum(map(_info, nw)) if weighted else len(nw & have) / len(nw))
    return best


def candidates(assessor, rows) -> None:
    """Add the candidate features to each row's ``feats`` (in place)."""
    from bolt.pipeline.anchors import numbers_in
    from bolt.pipeline.backtranslate import gloss_bag
    from bolt.pipeline.text import english_terms
    from evaluation.matching.crosslingual import get_encoder

    enc = get_encoder(assessor.config.crosslingual_model)
    by_bullet: dict[tuple, list[dict]] = {}
    for r in rows:
        by_bullet.setdefault(r["key"], []).append(r)
    for rs in by_bullet.values():
        t, lang, prep = rs[0]["text"], rs[0]["lang"], assessor._preps[rs[0]["topic"]]
        have, gloss, nums = _words(t, lang), gloss_bag(t, lang), numbers_in(t)
        sents = [s.strip() for s in _SENT.split(t) if s.strip()]
        sents = sents if len(sents) > 1 else [t]
        for r in rs:
            f, nat = r["feats"], prep.native.get(lang, {}).get(r["facet"], [])
            eng = [ref.text for ref in prep.refs if ref.facet == r["facet"]]
            f["wcov"] = _cov(have, nat, lang, False)
            f["wicov"] = _cov(have, nat, lang, True) if lang == "cmn" else f["wcov"]
            f["wshared"] = math.log1p(len(frozenset().union(*(_words(n, lang) for n in nat)) & have)) if nat else 0.0
            f["gcov"] = max([len(set(english_terms(e)) & gloss) / len(set(english_terms(e)))
                             for e in eng if english_terms(e)] or [0.0])
            f["num"] = float(bool(nums & set().union(*(numbers_in(s) for s in eng + nat))))
            f["nmean"] = float(enc.similarities([t], nat).mean()) if nat else 0.0
            f["sncos"] = max(f["ncos"], float(enc.similarities(sents, nat).max())) if nat else 0.0
            f["sxcos"] = max(f["xcos"], float(enc.similarities(sents, eng).max())) if eng else f["xcos"]
            f["len"] = math.log1p(len(re.sub(r"\s", "", t)))
        for k in ("xcos", "ncos", "ncov", "wicov", "gcov"):
            top = max(r["feats"][k] for r in rs)
            for r in rs:
                r["feats"][k + "_rel"] = r["feats"][k] - top


def round_of(topic: str) -> int:
    """The development round of an xl topic number (``benchmarks.run.DEV_SETS['xl'].rounds``)."""
    from benchmarks.run import DEV_SETS, round_name

    name = round_name(topic, DEV_SETS["xl"].rounds)
    if name is None:
        raise ValueError(f"topic {topic} is in no xl round")
    return int(name.split("-")[1])


def _best_threshold(y, anc, p):
    from xl_assessor import _best_threshold

    return _best_threshold(y, anc, p, [round(0.01 * k, 2) for k in range(5, 96)])


def _matrix(rows, feats):
    import numpy as np

    return np.array([[r["feats"][f] for f in feats] for r in rows])


def today(train):
    """Today's fit (``xl_assessor.fit``): XFEATURES, C = 1, in-sample threshold."""
    from sklearn.linear_model import LogisticRegression
    import numpy as np

    X, y, anc = _matrix(train, BASE), np.array([r["label"] for r in train]), np.array([r["anchor"] for r in train])
    m = LogisticRegression(C=1.0, max_iter=2000).fit(X, y)
    return BASE, m, _best_threshold(y, anc, m.predict_proba(X)[:, 1]), "base"


def procedure(train):
    """Feature set, C and threshold chosen together by grouped 5-fold out-of-fold pair kappa on
    ``train`` (whole topics per fold), then refitted on ``train``."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from evaluation.agreement import binary_agreement

    topics = sorted({r["topic"] for r in train})
    fold = np.array([topics.index(r["topic"]) % 5 for r in train])
    y, anc = np.array([r["label"] for r in train]), np.array([r["anchor"] for r in train])
    best = None
    for name, feats in MENU.items():
        X = _matrix(train, feats)
        for c in CS:
            p = np.zeros(len(train))
            for k in range(5):
                p[fold == k] = LogisticRegression(C=c, max_iter=2000).fit(X[fold != k], y[fold != k]) \
                    .predict_proba(X[fold == k])[:, 1]
            thr = _best_threshold(y, anc, p)
            kap = binary_agreement(list(y), list(anc | (p >= thr))).kappa
            key = (round(kap, 4), -len(feats), -abs(math.log10(c)))
            if best is None or key > best[0]:
                best = (key, name, feats, c, thr)
    _, name, feats, c, thr = best
    return feats, LogisticRegression(C=c, max_iter=2000).fit(_matrix(train, feats), y), thr, f"{name}/C{c}"


def held_out(rows, fitter, group):
    """Decisions (row index -> bool) with each group of ``group(row)`` held out in turn."""
    out, chosen = {}, []
    for g in sorted({group(r) for r in rows}):
        test = [i for i, r in enumerate(rows) if group(r) == g]
        feats, m, thr, name = fitter([r for r in rows if group(r) != g])
        p = m.predict_proba(_matrix([rows[i] for i in test], feats))[:, 1]
        out.update({i: rows[i]["anchor"] or bool(q >= thr) for i, q in zip(test, p)})
        chosen.append(name)
    return out, Counter(chosen)


def agreement(rows, decided) -> dict:
    """Bullet relevance (any facet) and pair agreement of ``decided`` with the careful labels."""
    from evaluation.agreement import binary_agreement, kappa_ci

    bullets: dict[tuple, list] = {}
    for i, r in enumerate(rows):
        b = bullets.setdefault(r["key"], [False, False, r["topic"]])
        b[0] |= r["label"]
        b[1] |= decided[i]
    ref, cand, tops = zip(*bullets.values())
    a = binary_agreement(ref, cand)
    lo, hi = kappa_ci(ref, cand, tops)
    pair = binary_agreement([r["label"] for r in rows], [decided[i] for i in range(len(rows))])
    return {"bullets": len(ref), "people_yes": sum(ref), "auto_yes": sum(cand), "kappa": round(a.kappa, 3),
            "ci": [round(lo, 2), round(hi, 2)], "P": round(a.precision, 3), "R": round(a.recall, 3),
            "pair_kappa": round(pair.kappa, 3)}


def main(argv=None) -> int:
    args = _args(argv)
    from xl_assessor import collect, missing_inputs

    skipped = missing_inputs(args)
    if skipped:
        print(skipped)
        return 0

    warnings.filterwarnings("ignore")
    _topics, _careful, assessor, _base, rows = collect(args)
    candidates(assessor, rows)
    groups = {"topic": lambda r: r["topic"], "round": lambda r: round_of(r["topic"])}
    for lang in ("arz", "cmn"):
        lrows = [r for r in rows if r["lang"] == lang]
        for by in args.by:
            for name, fitter in (("today", today), ("procedure", procedure)):
                decided, chosen = held_out(lrows, fitter, groups[by])
                print(f"{lang} bullets held out by {by:5s} {name:9s} {agreement(lrows, decided)} chosen {dict(chosen)}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
