#!/usr/bin/env python3
"""Refit the cross-language decision on every site's careful judgments, held out by round and by site.

    python scripts/xl_site_refit.py --workdir DIR [--candidate R|R+B|R+T] [--json-out FILE]

The forum meter (``scripts/forum_meter.py``) re-reads the assessor's judgments at other thresholds;
this script also changes the probabilities. For the Arabic and Chinese bullets of the careful
files over real forums (``xl``: youm7 and PTT, ``xl-sites``: alriyadh/alghad and Weibo) and of the
bundled sample, it computes each (bullet, facet) pair's features (``Assessor.cross_features``,
cached in DIR), then for every fold (leave one round out; apart, leave one site out): fits the
per-language logistic regression on the training folds' careful pairs only, recomputes every
bullet's facet probabilities with it, chooses the forum threshold on the training folds by the
meter's criterion (``fitting.forum_meter.choose``), and scores the held-out topics at that model
and threshold. Reports the meter's figures (per-run bias of R_n, P_n, F_GD per family with
bootstrap intervals, bullet kappa, Kendall's tau) per language and per site, next to today's
shipped assessor on the same cells (docs/experiments/crosslingual-refit-all-sites.md).
Also prints the candidate fitted on every fold, its kappa-best threshold (as ``scripts/xl_assessor.py``
chooses it) and the forum threshold chosen on every fold. Skips (exit 0) when ../shared/real-samples
is absent.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for p in (REPO, REPO / "scripts"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

SETS = ("xl", "xl-sites", "sample")
"""The careful sets that hold Arabic or Chinese bullets."""
CROSS_LANGS = ("arz", "cmn")


def capture_features(s, workdir: Path) -> dict[str, dict[str, list[float]]]:
    """``"topic\\ttext" -> {facet: [the XFEATURES values]}`` for every Arabic or Chinese bullet of
    the set's careful runs, as the assessor computes them (cached in ``workdir``, one file per
    feature list)."""
    from evaluation.matching.crosslingual import XFEATURES

    out_path = workdir / f"{s.name}.xfeats-{'-'.join(XFEATURES)}.json"
    if out_path.exists():
        return json.loads(out_path.read_text(encoding="utf-8"))
    from bolt.formats.topics import read_topics
    from evaluation.assessor import Assessor, AssessorConfig
    from fitting import forum_judged as fj
    from indexing.corpus import open_corpus

    captured: dict[str, dict[str, list[float]]] = {}

    class Capturing(Assessor):
        def cross_features(self, prep, units):
            rows = super().cross_features(prep, units)
            for u, row in zip(units, rows):
                captured[f"{prep.topic.topic_id}\t{u}"] = {f: [feats[x] for x in XFEATURES]
                                                          for f, (_ref, feats) in row.items()}
            return rows

    corpus = open_corpus(paths=[str(p) for p in s.corpora], encoding_errors=s.encoding_errors)
    a = Capturing(read_topics(s.topics), corpus, AssessorConfig(operating_point="model"))
    for _ in a.assess(fj.runs_of(fj.careful_judgments(s))):
        pass
    out_path.write_text(json.dumps(captured, ensure_ascii=False), encoding="utf-8")
    return captured


CANDIDATES = {"R": ("xcos", "ncos", "ncov"), "R+B": ("xcos", "ncos", "ncov", "bcov"),
              "R+T": ("xcos", "ncos", "ncov", "nthread")}
"""The candidates' features (docs/experiments/crosslingual-refit-all-sites.md)."""


def bullet_coverage(bullet: str, nuggets: list[str], lang: str) -> float:
    """The best share, over ``nuggets``, of the bullet's terms that one nugget holds (0.0 without
    nuggets or terms): the reverse of ``ncov`` (the nugget's share), candidate R+B's fourth feature."""
    from evaluation.matching.crosslingual import native_terms

    have = native_terms(bullet, lang)
    if not have:
        return 0.0
    return max((len(have & native_terms(n, lang)) / len(have) for n in nuggets), default=0.0)


def native_nuggets(topic) -> dict[str, dict[str, list[str]]]:
    """{language: {facet: its nuggets in that language}}, as ``assessment.topic_prep`` keeps them."""
    from evaluation.matching.text import script_lang

    out: dict[str, dict[str, list[str]]] = {}
    for f in topic.facets:
        for n in f.nuggets:
            if n.text and script_lang(n.text) != "eng":
                out.setdefault(script_lang(n.text), {}).setdefault(f.id, []).append(n.text)
    return out


class Data:
    """The three sets' topics, careful and machine judgments, bullet features and fold maps."""

    def __init__(self, workdir: Path, features: tuple[str, ...] = CANDIDATES["R"]):
        from bolt.formats.topics import read_topics
        from evaluation.matching.text import script_lang
        from fitting import forum_judged as fj
        from forum_meter import set_folds

        from evaluation.matching.crosslingual import XFEATURES

        self.sets = []
        self.captured: dict[str, dict] = {}  # set -> every feature the assessor computes, in XFEATURES order
        self.round_of: dict[str, str] = {}
        self.site_of: dict[str, str] = {}
        self.rows: list[dict] = []
        for name in SETS:
            s = fj.judged_sets()[name]
            topics = read_topics(s.topics)
            careful = fj.careful_judgments(s)
            machine = fj.machine_judgments(s, workdir)
            feats = capture_features(s, workdir)
            self.captured[name] = feats
            keep = [XFEATURES.index(f) for f in features if f in XFEATURES]  # the assessor's, in its order
            feats = {k: {facet: [x[i] for i in keep] for facet, x in row.items()} for k, row in feats.items()}
            if "bcov" in features:
                native = {t.topic_id: native_nuggets(t) for t in topics}
                for fkey, row in feats.items():
                    t, text = fkey.split("\t", 1)
                    lang = script_lang(text)
                    for facet, x in row.items():
                        x.append(bullet_coverage(text, native[t].get(lang, {}).get(facet, []), lang))
            rounds, board = set_folds(name, topics)
            self.sets.append((name, topics, careful, machine, feats, rounds, board))
            for t in {j.topic_id for j in careful}:
                self.round_of[f"{name}:{t}"], self.site_of[f"{name}:{t}"] = rounds(t), board(t)
            mine = {j.key: j for j in machine}
            seen = set()
            for j in careful:
                text = j.extra.get("text", "")
                lang, fkey = script_lang(text), f"{j.topic_id}\t{text}"
                if lang not in CROSS_LANGS or fkey not in feats or (j.topic_id, text) in seen or j.key not in mine:
                    continue
                seen.add((j.topic_id, text))
                anchored = {e["facet"] for e in mine[j.key].extra.get("evidence", ()) if e.get("rule") == "anchor"}
                for facet, x in feats[fkey].items():
                    self.rows.append({"topic": f"{name}:{j.topic_id}", "lang": lang, "facet": facet, "x": x,
                                      "label": facet in j.facets, "anchor": facet in anchored, "text": text})

    def cells(self, model: dict | None, langs: tuple[str, ...] = CROSS_LANGS) -> dict:
        """The meter's cells of ``langs`` (topics by their bullets' majority language) with every
        bullet's facet probabilities from ``model`` ({lang: (coefficients, intercept)}; None: the
        assessor's own, today's)."""
        import dataclasses

        from evaluation.matching.text import script_lang
        from fitting import forum_meter as fm
        from indexing.models.logistic import logistic

        out: dict = {}
        for name, topics, careful, machine, feats, rounds, board in self.sets:
            lang_of = fm.topic_languages(careful)
            careful = [j for j in careful if lang_of[j.topic_id] in langs]
            machine = [j for j in machine if lang_of.get(j.topic_id) in langs]
            if not careful:
                continue
            if model is not None:
                text = {j.key: j.extra.get("text", "") for j in careful}
                js = []
                for j in machine:
                    t = text.get(j.key, "")
                    lang, x = script_lang(t), feats.get(f"{j.topic_id}\t{t}")
                    if lang in model and x:
                        w, b = model[lang]
                        probs = {f: round(logistic(b + sum(wi * xi for wi, xi in zip(w, v))), 4) for f, v in x.items()}
                        j = dataclasses.replace(j, extra={**j.extra, "probability": probs})
                    js.append(j)
                machine = js
            fm.collect(name, topics, careful, machine, rounds, board, out)
        return {k: v for k, v in out.items() if k in langs}


def fit_lang(rows: list[dict], c: float = 1.0) -> tuple[tuple[float, ...], float, float]:
    """A logistic regression over the rows' features (coefficients, intercept) and its kappa-best
    threshold on these rows (``xl_assessor.fit``'s choice)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from xl_assessor import _best_threshold

    X = np.array([r["x"] for r in rows])
    y = np.array([r["label"] for r in rows])
    anc = np.array([r["anchor"] for r in rows])
    m = LogisticRegression(C=c, max_iter=2000).fit(X, y)
    thr = _best_threshold(y, anc, m.predict_proba(X)[:, 1], [round(0.01 * k, 2) for k in range(5, 96)])
    return tuple(float(v) for v in m.coef_[0]), float(m.intercept_[0]), thr


def refit_held_out(data: Data, fold_of: dict[str, str], today: dict[str, float]) -> tuple[dict, dict, dict]:
    """Per language: cells whose machine scores come from the model and threshold fitted and chosen
    without each topic's fold, {topic: threshold}, and per fold the model and threshold chosen."""
    import copy

    from fitting import forum_meter as fm

    base = data.cells(None)
    held = {lang: copy.deepcopy(c) for lang, c in base.items()}
    thresholds: dict[str, dict[str, float]] = {lang: {} for lang in base}
    chosen: dict[str, dict] = {}
    for fold in sorted(set(fold_of.values())):
        tests = {lang: {t for t in c.round_of if fold_of.get(t) == fold} for lang, c in base.items()}
        if not any(tests.values()):
            continue
        train = [r for r in data.rows if fold_of.get(r["topic"]) != fold]
        model = {lang: fit_lang([r for r in train if r["lang"] == lang])[:2] for lang in CROSS_LANGS}
        cells = data.cells(model, tuple(lang for lang, ts in tests.items() if ts))
        chosen[fold] = {}
        for lang, ts in tests.items():
            if not ts:
                continue
            c = cells[lang]
            thr = fm.choose(c, set(c.round_of) - ts, today[lang])
            chosen[fold][lang] = {"threshold": thr, "coefficients": model[lang][0], "intercept": model[lang][1]}
            for i, t in enumerate(c.topic):
                if t in ts:
                    held[lang].machine[i] = c.machine[i]
            for i, t in enumerate(c.b_topic):
                if t in ts:
                    held[lang].b_machine[i] = c.b_machine[i]
            thresholds[lang].update({t: thr for t in ts})
        print(f"fold {fold}: {chosen[fold]}", file=sys.stderr, flush=True)
    return held, thresholds, chosen


def report(base: dict, held: dict, site_of: dict[str, str], shipped: dict[str, float], thresholds: dict) -> dict:
    """Per language, pooled and per site: today's shipped assessor and the refit held out."""
    from forum_meter import per_board_abs_bias

    from fitting import forum_meter as fm

    out = {}
    for lang, c in base.items():
        now = {t: shipped[lang] for t in c.round_of}
        out[lang] = {"today": fm.figures(c, now), "refit": fm.figures(held[lang], thresholds[lang]), "sites": {}}
        for site in sorted({site_of[t] for t in c.round_of}):
            ts = {t for t in c.round_of if site_of[t] == site}
            if len(ts) < 3:
                continue
            out[lang]["sites"][site] = {"today": fm.figures(fm.subset(c, ts), now),
                                        "refit": fm.figures(fm.subset(held[lang], ts), thresholds[lang])}
        # the meter's shipping test: per site, the mean |per-run R_n bias| (scripts/forum_meter.py)
        boards = {t: site_of[t] for t in c.round_of}
        out[lang]["abs_bias_by_site"] = {"today": per_board_abs_bias(c, now, boards),
                                         "refit": per_board_abs_bias(held[lang], thresholds[lang], boards)}
    return out


def misses(data: Data, site: str, shipped: dict[str, float]) -> list[dict]:
    """Main's bullets on ``site`` that careful readers credit with a facet and today's assessor does
    not: the bullet, its length, and the features and probability of each credited facet."""
    from evaluation.matching.crosslingual import XFEATURES, load_cross_model
    from evaluation.matching.text import script_lang
    from fitting import forum_meter as fm

    model, out = load_cross_model(), []
    for name, _topics, careful, machine, _feats, _rounds, board in data.sets:
        feats = data.captured[name]
        mine = {j.key: j for j in machine}
        for j in careful:
            text = j.extra.get("text", "")
            lang, m = script_lang(text), mine.get(j.key)
            if board(j.topic_id) != site or fm.family(j.run) != "main" or not j.facets or lang not in CROSS_LANGS:
                continue
            if m is None or fm.relabel(m, shipped[lang]).facets:
                continue
            x = {f: dict(zip(XFEATURES, v)) for f, v in feats.get(f"{j.topic_id}\t{text}", {}).items()}
            out.append({"topic": j.topic_id, "run": j.run, "bullet": j.bullet, "chars": len(text), "text": text,
                        "credited": {f: {"feats": {k: round(v, 3) for k, v in x[f].items()},
                                         "p": round(model.probability(lang, x[f]), 3)} for f in j.facets if f in x}})
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workdir", required=True, type=Path, help="cache of the assessor's judgments and features")
    p.add_argument("--json-out", type=Path)
    p.add_argument("--by", nargs="+", choices=["round", "site"], default=["round", "site"])
    p.add_argument("--candidate", choices=sorted(CANDIDATES), default="R")
    p.add_argument("--misses", metavar="SITE", help="only list main's credited bullets today's assessor misses on SITE")
    a = p.parse_args()
    from evaluation.matching.operating_point import load_point
    from fitting import forum_judged as fj

    if not fj.SHARED.exists():
        print(f"skipped: {fj.SHARED} is absent")
        return 0
    a.workdir.mkdir(parents=True, exist_ok=True)
    data = Data(a.workdir, CANDIDATES[a.candidate])
    shipped = dict(load_point().thresholds)
    if a.misses:
        for m in misses(data, a.misses, shipped):
            print(json.dumps(m, ensure_ascii=False))
        return 0
    result = {"candidate": a.candidate, "features": CANDIDATES[a.candidate],
              "pairs": {lang: sum(r["lang"] == lang for r in data.rows) for lang in CROSS_LANGS}}
    base = data.cells(None)
    for by in a.by:
        fold_of = data.round_of if by == "round" else data.site_of
        held, thresholds, chosen = refit_held_out(data, fold_of, shipped)
        result[f"held_out_by_{by}"] = {"folds": chosen, "figures": report(base, held, data.site_of, shipped, thresholds)}
        if a.json_out:
            a.json_out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    models = {lang: fit_lang([r for r in data.rows if r["lang"] == lang]) for lang in CROSS_LANGS}
    all_cells = data.cells({k: v[:2] for k, v in models.items()})
    from fitting import forum_meter as fm

    result["on_all_folds"] = {lang: {"coefficients": m[0], "intercept": m[1], "kappa_threshold": m[2],
                                     "forum_threshold": fm.choose(all_cells[lang], set(all_cells[lang].round_of),
                                                                  shipped[lang])}
                              for lang, m in models.items()}
    text = json.dumps(result, indent=1)
    print(text)
    if a.json_out:
        a.json_out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
