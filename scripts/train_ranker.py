#!/usr/bin/env python3
"""Train ``main``'s learned sentence ranker on careful judgments, held out by round
(docs/experiments/learned-ranker.md).

    python scripts/train_ranker.py collect --index DIR --out FEATURES.jsonl [--topics topics/tac2013-dev.xml]
    python scripts/train_ranker.py fit FEATURES.jsonl... --out-dir DIR [--final FILE] [--unjudged irrelevant|skip]

*collect* runs ``main`` (default settings) on a dev topics file (``topics/ebay-dev.xml``, or
``topics/tac2013-dev.xml`` over an index of both collections read with cp1252; topics outside the
development rounds of ``scripts/dev_rounds.py`` are never run) and writes every English
candidate sentence of every topic with its ranker features (``bolt.pipeline.ranker.FEATURES``).
*fit* takes the feature files of both sets (rounds 1-8 eBay, 9-14 tac2013 A-F). With ``--alphas``
it trains a reranker instead (round 14): main's score x (probability / best) ** alpha under main's own
cuts (``simulate_blend``), alpha chosen in the folds with the stopping rule.
*fit* labels the candidates with the careful judgments (``JUDGMENTS``: eBay and tac2013;
label 1 = a careful reader found the bullet states a facet; candidates nobody judged are left out
of training) and, for each round of ``topics/ebay-dev.groups.tsv`` (its header names the rounds),
chooses the regularisation ``C`` and the stopping rule (``stop``, ``stop_rel``) by leave-one-round-
out *inside* the other rounds only, fits on those rounds, and writes ``DIR/fold-R.json`` (the
model that round R is measured with). The same choice over all rounds gives the final model
(``--final``), trained on every topic. Choices are made on a proxy of F_GD computed from the
judgments alone (the selection simulated: best first, no repeated text, at most two per post, at
most ten; a bullet nobody judged counts as irrelevant, F_c taken as 1); the real held-out figures
come from running ``main(ranker=DIR/fold-R.json)`` on round R's topics and scoring with
``bolt score`` (docs/system.md, round 10).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from itertools import product
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from dev_rounds import is_dev, round_of  # noqa: E402 (one definition of the rounds)
from bolt.pipeline.config import SystemConfig  # noqa: E402

DEV_TOPICS = REPO / "topics" / "ebay-dev.xml"
TOPIC_FILES = (DEV_TOPICS, REPO / "topics" / "tac2013-dev.xml")  # rounds 1-8 and 9-14 (dev_rounds.ROUND_STARTS)
JUDGMENTS = (REPO / "tests" / "data" / "careful" / "ebay-dev.judgments.jsonl",
             REPO / "tests" / "data" / "careful" / "ebay-dev.round2.judgments.jsonl",
             REPO / "tests" / "data" / "careful" / "ebay-dev.round12.judgments.jsonl",
             REPO / "tests" / "data" / "careful" / "tac2013-dev.judgments.jsonl")
C_GRID = (0.03, 0.1, 0.3, 1.0)
STOP_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
STOP_REL_GRID = (0.0, 0.3, 0.5, 0.7)
# main's own cuts (its defaults, declared once in bolt.pipeline.config), for the reranker's simulation
_MAIN = SystemConfig()
MAX_BULLETS, MAX_PER_POST = _MAIN.max_bullets, _MAIN.max_per_post
ABS_FLOOR, REL_THRESHOLD, FOCUS_REL_THRESHOLD = _MAIN.abs_floor, _MAIN.rel_threshold, _MAIN.focus_rel_threshold
ALPHAS: tuple[float, ...] = ()  # fit --alphas: empty = the probability replaces main's score (rounds 10, 10b)


def collect(index: Path, out: Path, topics_path: Path = DEV_TOPICS) -> None:
    from bolt.pipeline import Distiller, SystemConfig
    from bolt.pipeline.main import MainSystem
    from bolt.formats.topics import read_topics
    from indexing.search import open_index

    searcher = open_index(index)
    d = Distiller(searcher, searcher.corpus, SystemConfig())
    system = d._system = MainSystem(d)
    with out.open("w", encoding="utf-8") as fh:
        for t in read_topics(topics_path):
            if not is_dev(t.topic_id):
                continue
            system.collect = []
            d.distill(t.query)
            for rec in system.collect:
                for s, row in zip(rec["sentences"], rec["rows"]):
                    fh.write(json.dumps({"topic": t.topic_id, "thread": s.thread, "post": s.post, "offset": s.offset,
                                         "text": s.text, "x": [round(v, 6) for v in row]}) + "\n")
            system.collect = None
            print(t.topic_id, file=sys.stderr)


def labels() -> dict:
    """(topic, normalised text) -> (facet ids, words, responsive words) of the careful judgments."""
    from evaluation.judgments.reuse import bullet_key

    out = {}
    for path in JUDGMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith('{"_meta"'):
                continue
            j = json.loads(line)
            if "text" in j and j.get("facets") is not None:
                out.setdefault(bullet_key(j["topic"], j["text"]), (tuple(j["facets"]), j["words"],
                                                                    j["responsive_words"]))
    return out


def topic_facts() -> tuple[dict[str, int], float]:
    """Facets per topic, and the average words per nugget over the topic set (SPEC §6)."""
    from bolt.formats.topics import read_topics
    from indexing.lookup import count_words

    topics = [t for path in TOPIC_FILES for t in read_topics(path) if is_dev(t.topic_id)]
    words = [count_words(n.text) for t in topics for f in t.facets for n in f.nuggets]
    return {t.topic_id: len(t.facets) for t in topics}, sum(words) / len(words)


def _norm_words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", text.lower()))


def simulate(cands: list[dict], probs: list[float], stop: float, stop_rel: float) -> list[int]:
    """The selection, simulated: best first, no near-repeat (word Jaccard >= 0.5), two per post, ten,
    while the probability is >= the stopping rule's cut (at least one)."""
    order = sorted(range(len(cands)), key=lambda i: -probs[i])
    if not order:
        return []
    best = probs[order[0]]
    cut = min(best, max(stop, stop_rel * best))
    return _pick(cands, [i for i in order if probs[i] >= cut])


def simulate_blend(cands: list[dict], probs: list[float], alpha: float, stop: float, stop_rel: float) -> list[int]:
    """The reranker's selection, simulated (round 14): main's score x (probability / best) ** alpha
    (``ranker.blend``; 0 below the stopping cut), then main's own cuts on it: at least ``ABS_FLOOR``
    and ``REL_THRESHOLD`` x the best, or ``FOCUS_REL_THRESHOLD`` x the best in the most relevant
    thread; then as :func:`simulate`."""
    from bolt.pipeline.ranker import FEATURES, blend

    if not cands:
        return []
    best_p = max(probs)
    cut = max(1e-9, min(best_p, max(stop, stop_rel * best_p)))
    si, fi = FEATURES.index("score"), FEATURES.index("focus_top")
    # the blend never raises a score, so a sentence below the floor stays below it (exact, and fast)
    idx = [i for i, c in enumerate(cands) if c["x"][si] >= ABS_FLOOR]
    if not idx:
        return []
    scores = dict(zip(idx, blend([cands[i]["x"][si] for i in idx], [probs[i] for i in idx], alpha, cut, best_p)))
    top = max(scores.values())
    order = sorted(idx, key=lambda i: -scores[i])
    keep = [i for i in order if scores[i] > 0 and scores[i] >= max(
        ABS_FLOOR, (FOCUS_REL_THRESHOLD if cands[i]["x"][fi] >= 1 else REL_THRESHOLD) * top)]
    return _pick(cands, keep)


def _pick(cands: list[dict], order: list[int]) -> list[int]:
    """Best first from ``order``: no near-repeat (word Jaccard >= 0.5), two per post, ten."""
    chosen, bags, per_post = [], [], {}
    for i in order:
        if len(chosen) >= MAX_BULLETS:
            break
        c = cands[i]
        key = (c["thread"], c["post"])
        if per_post.get(key, 0) >= MAX_PER_POST:
            continue
        w = _norm_words(c["text"])
        if any(len(w & b) / max(1, len(w | b)) >= 0.5 for b in bags):
            continue
        chosen.append(i)
        bags.append(w)
        per_post[key] = per_post.get(key, 0) + 1
    return chosen


UNJUDGED = "irrelevant"  # or "skip": fit --unjudged


def proxy_f(cands: list[dict], chosen: list[int], m: int, avg_nugget: float) -> float:
    """F_GD from the judgments alone (F_c = 1). An unjudged bullet is irrelevant (``UNJUDGED`` =
    "irrelevant", which favours short lists) or left out of the sum (``"skip"``: it neither covers
    a facet nor wastes words, so the proxy judges the list by the bullets someone read)."""
    covered, wasted = set(), 0.0
    for i in chosen:
        lab = cands[i].get("label")
        if lab is None and UNJUDGED == "skip":
            continue
        facets, words, resp = lab if lab else ((), cands[i]["words"], 0)
        new = set(facets) - covered
        if new:
            covered |= new
            wasted += words - resp
        else:
            wasted += words
    c = len(covered)
    if c == 0 or m == 0:
        return 0.0
    p, r = c / (c + wasted / avg_nugget), c / m
    return 2 * p * r / (p + r)


def fit(rows, y, C: float):
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    X = np.asarray(rows, dtype=float)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    lr = LogisticRegression(C=C, max_iter=2000, class_weight=None)
    lr.fit((X - mean) / scale, np.asarray(y))
    return mean, scale, lr.coef_[0], float(lr.intercept_[0])


def model_of(mean, scale, coef, intercept, stop, stop_rel, meta, alpha=None):
    from bolt.pipeline.ranker import FEATURES, RankerModel

    return RankerModel(FEATURES, tuple(map(float, mean)), tuple(map(float, scale)), tuple(map(float, coef)),
                       float(intercept), float(stop), float(stop_rel), meta, None if alpha is None else float(alpha))


def _probs(model, rows) -> list[float]:
    """The model's probabilities for many rows at once (numpy; the same numbers as
    ``RankerModel.probabilities``)."""
    import numpy as np

    X = (np.asarray(rows, dtype=float) - np.asarray(model.mean)) / np.asarray(model.scale)
    z = np.clip(model.intercept + X @ np.asarray(model.coef), -50.0, 50.0)
    return list(1.0 / (1.0 + np.exp(-z)))


def _settings() -> list[tuple[float | None, float, float]]:
    """(alpha, stop, stop_rel) to choose from: alpha None (replace) unless ``ALPHAS`` is given."""
    return [(a, st, rel) for a in (ALPHAS or (None,)) for st, rel in product(STOP_GRID, STOP_REL_GRID)]


def _select(cs: list[dict], probs: list[float], setting: tuple[float | None, float, float]) -> list[int]:
    alpha, stop, rel = setting
    return simulate(cs, probs, stop, rel) if alpha is None else simulate_blend(cs, probs, alpha, stop, rel)


def choose(by_topic: dict, rounds: list[int], facets: dict, avg: float) -> tuple[float, tuple, float]:
    """(C, (alpha, stop, stop_rel), inner proxy F) chosen by leave-one-round-out over ``rounds`` only;
    ties go to the smaller alpha and the looser stopping rule (the setting nearest main)."""
    results = {}
    for C in C_GRID:
        per_setting: dict[tuple, list[float]] = {}
        for held in rounds:
            train = [c for t, cs in by_topic.items() if round_of(t) in rounds and round_of(t) != held
                     for c in cs if c.get("label") is not None]
            mean, scale, coef, b = fit([c["x"] for c in train], [int(bool(c["label"][0])) for c in train], C)
            model = model_of(mean, scale, coef, b, 0, 0, None)
            for t, cs in by_topic.items():
                if round_of(t) != held:
                    continue
                probs = _probs(model, [c["x"] for c in cs])
                for setting in _settings():
                    per_setting.setdefault(setting, []).append(proxy_f(cs, _select(cs, probs, setting), facets[t], avg))
        for setting, fs in per_setting.items():
            results[(C, setting)] = sum(fs) / len(fs)
    (C, setting), f = max(results.items(),
                          key=lambda kv: (round(kv[1], 6), -(kv[0][1][0] or 0), -kv[0][1][1], -kv[0][1][2]))
    return C, setting, f


def fit_all(features: list[Path], out_dir: Path, final: Path | None) -> dict:
    from evaluation.judgments.reuse import bullet_key
    from indexing.lookup import count_words

    lab = labels()
    facets, avg = topic_facts()
    by_topic: dict[str, list[dict]] = {}
    for line in (ln for path in features for ln in path.read_text(encoding="utf-8").splitlines()):
        c = json.loads(line)
        c["label"] = lab.get(bullet_key(c["topic"], c["text"]))
        c["words"] = count_words(c["text"])
        by_topic.setdefault(c["topic"], []).append(c)
    out_dir.mkdir(parents=True, exist_ok=True)
    report = {"avg_words_per_nugget": round(avg, 3), "folds": {}}
    all_rounds = sorted({round_of(t) for t in by_topic})
    judged = sum(1 for cs in by_topic.values() for c in cs if c["label"] is not None)
    positive = sum(1 for cs in by_topic.values() for c in cs if c["label"] and c["label"][0])
    report["candidates"] = {"all": sum(map(len, by_topic.values())), "judged": judged, "stating_a_facet": positive}
    for held in all_rounds + [0]:  # 0: the final model, chosen over all rounds
        rounds = [r for r in all_rounds if r != held]
        C, setting, inner = choose(by_topic, rounds, facets, avg)
        alpha, stop, rel = setting
        train = [c for t, cs in by_topic.items() if round_of(t) in rounds for c in cs if c["label"] is not None]
        mean, scale, coef, b = fit([c["x"] for c in train], [int(bool(c["label"][0])) for c in train], C)
        meta = {"trained_on_rounds": rounds, "C": C, "inner_proxy_F_GD": round(inner, 4),
                "training_candidates": len(train), "unjudged": UNJUDGED, "script": "scripts/train_ranker.py"}
        model = model_of(mean, scale, coef, b, stop, rel, meta, alpha)
        target = (final if held == 0 and final else out_dir / ("final.json" if held == 0 else f"fold-{held}.json"))
        target.write_text(model.to_json(), encoding="utf-8")
        entry = {"C": C, "alpha": alpha, "stop": stop, "stop_rel": rel, "inner_proxy_F_GD": round(inner, 4),
                 "model": str(target)}
        if held:
            cs_all = {t: cs for t, cs in by_topic.items() if round_of(t) == held}
            fs, base = [], []
            for t, cs in cs_all.items():
                probs = _probs(model, [c["x"] for c in cs])
                fs.append(proxy_f(cs, _select(cs, probs, setting), facets[t], avg))
                base.append(proxy_f(cs, _select(cs, probs, (0.0, 0.0, 0.0)), facets[t], avg))
            entry["held_out_proxy_F_GD"] = round(sum(fs) / len(fs), 4)
            entry["held_out_proxy_F_GD_main"] = round(sum(base) / len(base), 4)
        report["folds"]["final" if held == 0 else str(held)] = entry
        print(json.dumps({held: entry}), file=sys.stderr)
    return report


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--index", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--topics", type=Path, default=DEV_TOPICS, help="topics file over the index's threads")
    f = sub.add_parser("fit")
    f.add_argument("features", type=Path, nargs="+")
    f.add_argument("--unjudged", choices=["irrelevant", "skip"], default="irrelevant",
                   help="what the proxy counts a chosen bullet nobody judged as")
    f.add_argument("--alphas", help="comma-separated alphas: train a reranker (main's score x (p / best) ** alpha, "
                                    "main's cuts) and choose alpha in the folds; default: the probability replaces the score")
    f.add_argument("--stops", help="comma-separated stop values to choose from (default 0,0.1,...,0.5)")
    f.add_argument("--stop-rels", help="comma-separated stop_rel values to choose from (default 0,0.3,0.5,0.7)")
    f.add_argument("--out-dir", type=Path, required=True)
    f.add_argument("--final", type=Path, help="write the model trained on every round here")
    a = p.parse_args()
    if a.cmd == "collect":
        collect(a.index, a.out, a.topics)
    else:
        global UNJUDGED, ALPHAS, STOP_GRID, STOP_REL_GRID
        UNJUDGED = a.unjudged
        floats = lambda v: tuple(float(x) for x in v.split(","))  # noqa: E731
        ALPHAS = floats(a.alphas) if a.alphas else ()
        STOP_GRID = floats(a.stops) if a.stops else STOP_GRID
        STOP_REL_GRID = floats(a.stop_rels) if a.stop_rels else STOP_REL_GRID
        print(json.dumps(fit_all(a.features, a.out_dir, a.final), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
