#!/usr/bin/env python
"""Fit and measure the assessor's cross-language decision, held out by topic (docs/assessor.md).

Reads cross-language topics (English facets, Arabic/Chinese nuggets), runs over them, careful
blind judgments of every bullet, and the collection index; computes the features of every
(Arabic or Chinese bullet, facet) pair (``Assessor.cross_features``), and for each bullet language:

- before: v0.5's rule (anchoring, or multilingual cosine with an English facet text >= 0.48);
- after, held out by topic: leave-one-topic-out; in each fold a logistic regression over
  ``XFEATURES`` and its probability threshold (the best bullet x facet kappa, anchoring included)
  are fitted on the other topics only, and decide the held-out topic's bullets;
- after, in-sample: the model shipped in ``evaluation/matching/crosslingual_model.json``.

English bullets keep the assessor's own judgments in every variant. Agreement per topic language
(``evaluation.agreement``; the kappa interval is the bootstrap over topics ``bolt agree`` prints).
``--write-model FILE`` refits on every topic and writes the model (its ``fit_notes`` name the
encoder). ``--encoder NAME`` takes the features from another multilingual encoder
(``indexing.models.multilingual.MODELS``; "before" then applies v0.5's threshold to its cosines).
Skips (exit 0) when an input is absent (the threads live in ../shared, the runs outside the
repository). Example:

    scripts/xl_assessor.py --topics X/xl-dev.xml --careful tests/data/careful/xl-dev.judgments.jsonl \\
        --index /tmp/idx X/runs/*.xml
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path


def input_args(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The inputs every cross-language assessor script reads: runs, topics, careful judgments, index,
    and the multilingual encoder the features come from."""
    from evaluation.assessor import AssessorConfig
    from indexing.models.multilingual import MODELS

    p.add_argument("runs", nargs="*")
    p.add_argument("--topics", default="topics/xl-dev.xml")
    p.add_argument("--careful", default="tests/data/careful/xl-dev.judgments.jsonl")
    p.add_argument("--index", required=True)
    p.add_argument("--encoder", metavar="NAME", choices=sorted(MODELS), default=AssessorConfig().crosslingual_model,
                   help="multilingual encoder of the features xcos and ncos (AssessorConfig.crosslingual_model; "
                        f"one of {', '.join(sorted(MODELS))}; default: the assessor's, %(default)s)")
    return p


def missing_inputs(args) -> str | None:
    """What is absent ("skipped: ..." and exit 0: the threads live in ../shared, the runs outside
    the repository), or None."""
    missing = [p for p in [args.topics, args.careful, args.index, *args.runs] if not Path(p).exists()]
    if missing or not args.runs:
        return f"skipped: missing {', '.join(missing) or 'runs'}"
    return None


def _args(argv):
    p = input_args(argparse.ArgumentParser(description=__doc__.split("\n")[0]))
    p.add_argument("--write-model", metavar="FILE")
    p.add_argument("--json", action="store_true")
    return p.parse_args(argv)


def _best_threshold(y, anchored, score, grid):
    """The threshold of ``grid`` whose (anchored or score >= threshold) has the best kappa against
    ``y`` (ties: the stricter one); all thresholds at once, as ``evaluation.agreement`` counts them."""
    import numpy as np

    from evaluation.agreement import _kappa_of_counts

    g = np.asarray(grid)
    pred = anchored[:, None] | (score[:, None] >= g[None, :])
    yy = y[:, None]
    k = _kappa_of_counts((pred & yy).sum(0), (pred & ~yy).sum(0), (~pred & yy).sum(0), (~pred & ~yy).sum(0))
    k = np.round(k, 6)
    return float(g[max(range(len(g)), key=lambda i: (k[i], g[i]))])


def _arrays(rows):
    import numpy as np

    from evaluation.matching.crosslingual import XFEATURES

    return (np.array([[r["feats"][f] for f in XFEATURES] for r in rows]), np.array([r["label"] for r in rows]),
            np.array([r["anchor"] for r in rows]))


def fit(rows, langs_c=1.0):
    """A logistic regression on ``rows`` (features, label, anchored) and the threshold with the
    best kappa of (anchored or p >= threshold) against the labels, on these rows only."""
    from sklearn.linear_model import LogisticRegression

    X, y, anc = _arrays(rows)
    m = LogisticRegression(C=langs_c).fit(X, y)
    best = _best_threshold(y, anc, m.predict_proba(X)[:, 1], [round(0.01 * k, 2) for k in range(5, 96)])
    return tuple(float(c) for c in m.coef_[0]), float(m.intercept_[0]), best


def fit_cosine(rows):
    """v0.5's family with its threshold refitted on ``rows``: (anchored or xcos >= threshold)."""
    X, y, anc = _arrays(rows)
    return ("cosine", _best_threshold(y, anc, X[:, 0], [round(0.01 * k, 2) for k in range(20, 81)]))


FAMILIES = {"cosine": fit_cosine, "regression": fit}
"""The decision families the nested procedure chooses between inside each training fold."""


def decide(model, r) -> bool:
    """One pair's decision under a model of :data:`FAMILIES`."""
    if r["anchor"]:
        return True
    if model[0] == "cosine":
        return r["feats"]["xcos"] >= model[1]
    return _prob(model, r["feats"]) >= model[2]


def held_out(rows, fitter) -> dict[int, bool]:
    """Leave-one-topic-out decisions (row index -> decision) of the family ``fitter``."""
    out = {}
    for t in sorted({r["topic"] for r in rows}):
        m = fitter([r for r in rows if r["topic"] != t])
        out.update({i: decide(m, r) for i, r in enumerate(rows) if r["topic"] == t})
    return out


def nested(rows) -> tuple[dict[int, bool], list[str]]:
    """Leave-one-topic-out where the family too is chosen inside each training fold (by its own
    inner leave-one-topic-out kappa on the training topics), then fitted there."""
    from evaluation.agreement import binary_agreement

    out, chosen = {}, []
    for t in sorted({r["topic"] for r in rows}):
        train = [r for r in rows if r["topic"] != t]
        y = [r["label"] for r in train]
        score = {}
        for name, fitter in FAMILIES.items():
            d = held_out(train, fitter)
            score[name] = binary_agreement(y, [d[i] for i in range(len(train))]).kappa
        name = max(score, key=lambda n: (round(score[n], 6), n == "cosine"))
        chosen.append(name)
        m = FAMILIES[name](train)
        out.update({i: decide(m, r) for i, r in enumerate(rows) if r["topic"] == t})
    return out, chosen


def _prob(model, feats):
    import math

    from evaluation.matching.crosslingual import XFEATURES

    z = model[1] + sum(w * feats[f] for w, f in zip(model[0], XFEATURES))
    return 1.0 / (1.0 + math.exp(-z))


def collect(args):
    """Assess ``args.runs`` without the cross-language rule and return (topics, careful judgments by
    key, the assessor, its judgments, rows): one row per (Arabic or Chinese bullet judged by people,
    facet of its topic) with ``key``, ``topic``, ``lang``, ``facet``, ``feats`` (``XFEATURES``),
    ``label`` (the careful facets hold it), ``anchor`` (anchoring gives it) and the bullet ``text``."""
    from bolt.formats.submission import read_run
    from bolt.formats.topics import read_topics
    from evaluation.assessor import Assessor, AssessorConfig
    from evaluation.judgments import read_judgments
    from evaluation.matching.text import script_lang
    from indexing.corpus import open_corpus

    topics = read_topics(args.topics)
    runs = [read_run(p) for p in args.runs]
    careful = {j.key: j for j in read_judgments(args.careful)}
    config = AssessorConfig(crosslingual=False, crosslingual_model=args.encoder)
    assessor = Assessor(topics, open_corpus(index_dir=args.index), config)
    base = list(assessor.assess(runs))
    bullet = {(n, r.run_id, b.position): b for r in runs for n, res in r.results.items() for b in res.bullets}
    rows = []
    for j in base:
        t = bullet[j.key].text
        lang = script_lang(t)
        if lang == "eng" or j.key not in careful:
            continue
        prep = assessor._preps[j.topic_id]
        if not prep.refs:
            continue
        prep.xunits.setdefault(t, set()).update(s.thread for s in bullet[j.key].sources)  # what ``nthread`` reads
        for facet, (_ref, feats) in assessor.cross_features(prep, [t])[0].items():
            rows.append({"key": j.key, "topic": j.topic_id, "lang": lang, "facet": facet, "feats": feats,
                         "label": facet in careful[j.key].facets, "anchor": facet in j.facets, "text": t})
    return topics, careful, assessor, base, rows


def main(argv=None) -> int:
    args = _args(argv)
    skipped = missing_inputs(args)
    if skipped:
        print(skipped)
        return 0
    from evaluation.agreement import judgment_agreement
    from evaluation.matching.crosslingual import LANGS, V05_COSINE, CrossModel
    from evaluation.matching.text import script_lang

    topics, careful, _assessor, base, rows = collect(args)
    held: dict[tuple, set] = {}
    before: dict[tuple, set] = {}
    models = {}
    nest: dict[tuple, set] = {}
    families = {}
    for lang in LANGS:
        lrows = [r for r in rows if r["lang"] == lang]
        for target, decided in ((held, held_out(lrows, fit)), (nest, None)):
            if decided is None:
                decided, families[lang] = nested(lrows)
            for i, r in enumerate(lrows):
                if decided[i]:
                    target.setdefault(r["key"], set()).add(r["facet"])
        models[lang] = fit(lrows)
    for r in rows:
        if r["anchor"] or r["feats"]["xcos"] >= V05_COSINE:
            before.setdefault(r["key"], set()).add(r["facet"])
    shipped = CrossModel("crosslingual-lr-xl-dev", {k: v[0] for k, v in models.items()},
                         {k: v[1] for k, v in models.items()}, {k: v[2] for k, v in models.items()},
                         {"fitted_on": f"{Path(args.topics).name}: {len({r['topic'] for r in rows})} topics with judged bullets, "
                          f"{len(rows)} (bullet, facet) pairs "
                          "from careful blind judgments", "held_out_by": "scripts/xl_assessor.py (leave one topic out)",
                          "encoder": args.encoder})
    insample: dict[tuple, set] = {}
    for r in rows:
        if r["anchor"] or shipped.probability(r["lang"], r["feats"]) >= shipped.thresholds[r["lang"]]:
            insample.setdefault(r["key"], set()).add(r["facet"])
    judged = {r["key"] for r in rows}

    def variant(decided):
        out = []
        for j in base:
            if j.key in judged:
                order = [f.id for t in topics if t.topic_id == j.topic_id for f in t.facets]
                facets = tuple(f for f in order if f in decided.get(j.key, set()))
                j = dataclasses.replace(j, facets=facets, responsive_words=j.words if facets else 0)
            out.append(j)
        return out

    def topic_lang(t):
        return Counter(script_lang(n.text) for f in t.facets for n in f.nuggets if n.text).most_common(1)[0][0]

    report = {"pairs": dict(Counter(r["lang"] for r in rows)), "model": shipped.to_dict(), "agreement": {},
              "families_chosen": {lang: dict(Counter(v)) for lang, v in families.items()}}
    people = list(careful.values())
    for lang in LANGS:
        ts = [t for t in topics if topic_lang(t) == lang]
        nums = {t.topic_id for t in ts}
        report["agreement"][lang] = {}
        for name, dec in (("before (v0.5)", before), ("after, held out by topic", held),
                          ("after, family chosen in the folds too", nest), ("after, in-sample", insample)):
            js = [j for j in variant(dec) if j.topic_id in nums]
            a = judgment_agreement([j for j in people if j.topic_id in nums], js, ts)
            report["agreement"][lang][name] = {"relevance": a["relevance"], "facets": a["facets"]}
    held_kappa = {lang: {w: [report["agreement"][lang]["after, held out by topic"][w][k] for k in ("kappa", "kappa_ci")]
                       for w in ("relevance", "facets")} for lang in LANGS}
    shipped = dataclasses.replace(shipped, fit_notes=dict(shipped.fit_notes, held_out_kappa=held_kappa))
    report["model"] = shipped.to_dict()
    if args.write_model:
        Path(args.write_model).write_text(json.dumps(shipped.to_dict(), indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"pairs: {report['pairs']}; family chosen per outer fold: {report['families_chosen']}")
    for lang, vs in report["agreement"].items():
        for name, a in vs.items():
            for what in ("relevance", "facets"):
                x = a[what]
                print(f"{lang} topics  {name:37s} {what:9s} n={x['n']:5d} kappa {x['kappa']:.3f} "
                      f"[{x['kappa_ci'][0]:.2f}, {x['kappa_ci'][1]:.2f}]  P {x['precision']:.3f}  R {x['recall']:.3f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
