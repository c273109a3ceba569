"""The forum operating point: per-language thresholds that make per-run scores unbiased, chosen in
training folds, and the bias that remains held out (docs/experiments/assessor-forum-operating-point.md).

The assessor judges the careful readers' bullets once (``fitting.forum_judged``); every machine
judgment keeps each facet's probability, so the decision at threshold ``t`` is re-read, not
re-judged: facets = anchored facets + those of probability ``>= t``. R_n reads only facets and
support, so it is exact; for P_n a bullet that gains its first facet counts all its words as
responsive and one that loses its last none. Not installed.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

METRICS = ("R_n", "P_n", "F_GD")
GRID = tuple(round(0.02 + 0.01 * i, 2) for i in range(97))
LANGS = ("eng", "arz", "cmn")
# The eBay set's rounds (topics/ebay-dev.groups.tsv): the first topic of each, in order.
EBAY_ROUNDS = (("e1", "2.001"), ("e1h", "2.006"), ("e2", "2.010"), ("e3", "2.018"), ("e4", "2.024"),
               ("e5", "2.029"), ("e6", "2.036"), ("e7", "2.043"), ("e8", "2.048"))


def family(run: str) -> str:
    """``main``, ``lead``, ``bm25-sentences`` or ``other`` (a variant), from a run name."""
    if "lead" in run:
        return "lead"
    if "bm25" in run:
        return "bm25-sentences"
    return "main" if run == "main" or run.endswith("-main") else "other"


def relabel(j, threshold: float):
    """The judgment as the assessor would have made it at ``threshold`` (see the module docstring)."""
    probs = j.extra.get("probability")
    if not probs:
        return j
    anchored = {e["facet"] for e in j.extra.get("evidence", ()) if e.get("rule") == "anchor"}
    facets = tuple(f for f in probs if f in anchored or probs[f] >= threshold)
    facets += tuple(sorted(anchored - set(facets)))
    if not facets:
        resp = 0
    elif not j.facets:
        resp = j.words
    else:
        resp = j.responsive_words
    return dataclasses.replace(j, facets=facets, responsive_words=resp)


@dataclass
class Cells:
    """One language's (topic, run) cells: careful scores, machine scores per grid threshold, and
    per bullet whether careful readers and the assessor (per threshold) call it relevant."""

    topic: list[str] = field(default_factory=list)  # "set:topic"
    run: list[str] = field(default_factory=list)  # "set:run"
    careful: list[list[float]] = field(default_factory=list)  # cell -> metric
    machine: list[np.ndarray] = field(default_factory=list)  # cell -> (grid, metric)
    b_topic: list[str] = field(default_factory=list)
    b_careful: list[bool] = field(default_factory=list)
    b_machine: list[np.ndarray] = field(default_factory=list)  # bullet -> (grid,) bool
    round_of: dict[str, str] = field(default_factory=dict)
    board_of: dict[str, str] = field(default_factory=dict)


def topic_languages(careful: Sequence) -> dict[str, str]:
    """Each topic's language: the script most of its judged bullets are written in."""
    from collections import Counter

    from evaluation.matching.text import script_lang

    votes: dict[str, Counter] = {}
    for j in careful:
        votes.setdefault(j.topic_id, Counter())[script_lang(j.extra.get("text", ""))] += 1
    return {t: c.most_common(1)[0][0] for t, c in votes.items()}


def collect(name: str, topics: Sequence, careful: Sequence, machine: Sequence, rounds, boards,
            cells: dict[str, Cells]) -> None:
    """Add one set's cells to ``cells`` (per language): its careful and per-threshold machine scores."""
    from evaluation.agreement import topic_scores
    from evaluation.matching.text import script_lang

    lang_of_topic = topic_languages(careful)
    keys = sorted({j.key for j in careful})
    text = {j.key: j.extra.get("text", "") for j in careful}
    mine = {j.key: j for j in machine}
    answered = {(t, r) for t, r, _ in keys}
    ref = topic_scores(topics, careful, keys)
    # at each threshold, only bullets in their topic's language are re-read
    own = {k for k in mine if script_lang(text.get(k, "")) == lang_of_topic.get(k[0])}
    per_t = _scores_per_threshold(topics, mine, own, keys)
    for t, r in sorted(answered):
        c = cells.setdefault(lang_of_topic[t], Cells())
        c.topic.append(f"{name}:{t}")
        c.run.append(f"{name}:{r}")
        c.careful.append([ref[r][t][m] for m in METRICS])
        c.machine.append(np.array([[s[r][t][m] for m in METRICS] for s in per_t]))
    cj = {j.key: j for j in careful}
    for k in keys:
        lang = lang_of_topic[k[0]]
        if k not in mine:
            continue
        c = cells.setdefault(lang, Cells())
        c.b_topic.append(f"{name}:{k[0]}")
        c.b_careful.append(bool(cj[k].facets))
        j = mine[k]
        c.b_machine.append(np.array([bool(relabel(j, t).facets) if k in own else bool(j.facets) for t in GRID]))
    for t in lang_of_topic:
        c = cells[lang_of_topic[t]]
        c.round_of[f"{name}:{t}"] = rounds(t)
        c.board_of[f"{name}:{t}"] = boards(t)


def _scores_per_threshold(topics: Sequence, mine: dict, own: set, keys: list) -> list[dict]:
    """``topic_scores`` of the machine judgments relabelled at each grid threshold. A topic is
    scored again only at a threshold where one of its decisions changes (given the set's topics,
    topics score apart, and most thresholds change few of them): the same figures as scoring every
    topic at every threshold."""
    from evaluation.agreement import topic_scores

    topic_keys: dict[str, list] = {}
    for k in keys:
        topic_keys.setdefault(k[0], []).append(k)
    topic_mine: dict[str, list] = {t: [] for t in topic_keys}
    for k, j in mine.items():
        topic_mine.setdefault(k[0], []).append((k, j))
    last: dict[str, tuple] = {}  # topic -> (its decisions, {run: metrics})
    out = []
    for t in GRID:
        js = {tp: [relabel(j, t) if k in own else j for k, j in items] for tp, items in topic_mine.items()}
        decisions = {tp: tuple((j.facets, j.responsive_words) for j in v) for tp, v in js.items()}
        changed = [tp for tp in topic_keys if tp not in last or last[tp][0] != decisions[tp]]
        if changed:
            # every topic and judgment passed, only the changed topics' bullets scored: P_n's length
            # allowance reads the mean nugget length of the whole set, and a nugget's post unit is
            # resolved from any judgment citing its offset
            scores = topic_scores(topics, [j for v in js.values() for j in v],
                                  [k for tp in changed for k in topic_keys[tp]])
            for tp in changed:
                last[tp] = (decisions[tp], {r: by_t[tp] for r, by_t in scores.items() if tp in by_t})
        merged: dict[str, dict] = {}
        for tp, (_, by_run) in last.items():
            for r, m in by_run.items():
                merged.setdefault(r, {})[tp] = m
        out.append(merged)
    return out


def run_bias(c: Cells, topics: set[str]) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Per run over ``topics``: mean (machine - careful) per grid threshold and metric, the runs, and
    each run's topic count."""
    idx: dict[str, list[int]] = {}
    for i, (t, r) in enumerate(zip(c.topic, c.run)):
        if t in topics:
            idx.setdefault(r, []).append(i)
    runs = sorted(idx)
    car = np.asarray(c.careful)
    mac = np.stack(c.machine)
    bias = np.stack([(mac[idx[r]] - car[idx[r]][:, None, :]).mean(axis=0) for r in runs]) if runs else np.zeros(
        (0, len(GRID), len(METRICS)))
    return bias, runs, np.array([len(idx[r]) for r in runs])


def choose(c: Cells, topics: set[str], today: float) -> float:
    """The threshold minimising the topic-weighted mean squared per-run R_n bias over ``topics``
    (ties: nearest ``today``)."""
    bias, _, n = run_bias(c, topics)
    if not len(n):
        return today
    loss = np.round((n[:, None] * bias[:, :, 0] ** 2).sum(axis=0) / n.sum(), 8)
    best = loss.min()
    return min((g for g, v in zip(GRID, loss) if v == best), key=lambda g: abs(g - today))


def held_out(c: Cells, fold_of: dict[str, str], today: float) -> dict[str, float]:
    """{topic: the threshold chosen on the other folds' topics}."""
    out = {}
    for fold in sorted(set(fold_of.values())):
        train = {t for t, f in fold_of.items() if f != fold}
        t_ = choose(c, train, today)
        out.update({t: t_ for t, f in fold_of.items() if f == fold})
    return out


def subset(c: Cells, topics: set[str]) -> Cells:
    """The cells and bullets of ``topics`` only (one site's figures)."""
    keep = [i for i, t in enumerate(c.topic) if t in topics]
    bk = [i for i, t in enumerate(c.b_topic) if t in topics]
    return Cells([c.topic[i] for i in keep], [c.run[i] for i in keep], [c.careful[i] for i in keep],
                 [c.machine[i] for i in keep], [c.b_topic[i] for i in bk], [c.b_careful[i] for i in bk],
                 [c.b_machine[i] for i in bk], {t: r for t, r in c.round_of.items() if t in topics},
                 {t: b for t, b in c.board_of.items() if t in topics})


def _at(c: Cells, thresholds: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """(machine, careful) metric matrices of the cells, each at its topic's threshold."""
    gi = {g: i for i, g in enumerate(GRID)}
    mac = np.array([m[gi[thresholds[t]]] for t, m in zip(c.topic, c.machine)])
    return mac, np.asarray(c.careful)


def figures(c: Cells, thresholds: dict[str, float], seed: int = 0) -> dict[str, Any]:
    """Per family: per-run bias of each metric, its mean over the family's runs with a 95% topic
    bootstrap interval; bullet relevance agreement; Kendall's tau of the run rankings by R_n (every
    run pooled, and per round)."""
    from evaluation.agreement import with_ci
    from evaluation.bias import bias_table, tau_with_ci

    mac, car = _at(c, thresholds)
    out: dict[str, Any] = {"topics": len(set(c.topic)), "runs": len(set(c.run)), "families": {}}
    for fam in ("main", "lead", "bm25-sentences", "all"):
        rows = [i for i, r in enumerate(c.run) if fam == "all" or family(r.split(":", 1)[1]) == fam]
        if rows:
            tab = bias_table([c.topic[i] for i in rows], [c.run[i] for i in rows], mac[rows] - car[rows],
                             METRICS, seed)
            out["families"][fam] = {"topics": tab["topics"], "runs": tab["runs"], **tab["mean"]}
    gi = {g: i for i, g in enumerate(GRID)}
    pred = [bool(m[gi[thresholds[t]]]) for t, m in zip(c.b_topic, c.b_machine)]
    out["relevance"] = with_ci(c.b_careful, pred, c.b_topic)
    first: dict[str, dict[str, float]] = {}
    second: dict[str, dict[str, float]] = {}
    for i, (t, r) in enumerate(zip(c.topic, c.run)):
        first.setdefault(r, {})[t] = float(car[i, 0])
        second.setdefault(r, {})[t] = float(mac[i, 0])
    out["kendall_tau_R_n"] = tau_with_ci(first, second, seed)
    named = [r for r in first if family(r.split(":", 1)[1]) != "other"]
    out["kendall_tau_R_n_named"] = tau_with_ci({r: first[r] for r in named}, {r: second[r] for r in named}, seed)
    per_round = {}
    for rnd in sorted(set(c.round_of.values())):
        ts = {t for t, x in c.round_of.items() if x == rnd}
        f = {r: {t: v for t, v in by.items() if t in ts} for r, by in first.items()}
        s_ = {r: {t: v for t, v in by.items() if t in ts} for r, by in second.items()}
        tau = tau_with_ci({r: v for r, v in f.items() if v}, {r: v for r, v in s_.items() if v}, seed)
        if tau["tau"] is not None:
            per_round[rnd] = tau
    out["kendall_tau_R_n_per_round"] = per_round
    return out
