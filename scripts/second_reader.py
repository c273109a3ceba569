#!/usr/bin/env python3
"""How far a second careful reader agrees with the first on the same bullets.

    python scripts/second_reader.py [--second FILE] [--first FILE...] [--assessor NAME] [--topics FILE...]
                                    [--runs PREFIX...]

``--second`` holds the second reader's blind judgments of a sample of the first reader's bullets
(one JSON line each: ``topic``, ``text``, ``facets``); each is matched to the first reader's line of
the same topic and bullet text among ``--assessor``'s lines of the ``--first`` files (the careful
judgment files). Reported overall, per language and per site (read from the first reader's cited
thread id), per topic set (the site of the topic's nugget threads, or the topics file's name where the
threads name no site, as for English sets) and, with ``--runs``, per prefix of the first reader's run names (after judging, to
tell apart the experiments whose bullets were sampled): Cohen's kappa on whether a bullet states any facet, and on every (bullet, facet of its
topic) pair, each with a bootstrap 95% interval over bullets (fixed seed).
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scripts.carry_judgments import numbered_lines  # noqa: E402 (after the sys.path line)

CAREFUL = REPO / "tests" / "data" / "careful"
SECOND = CAREFUL / "second-reader" / "xl-anchor.jsonl"
FIRST = (CAREFUL / "xl-dev.judgments.jsonl", CAREFUL / "xl-sites.judgments.jsonl")
TOPICS = (REPO / "topics" / "xl-dev.xml", REPO / "topics" / "xl-sites.xml")
ASSESSOR = "careful:blind-judge-anchor"
SITES = {"youm7": ("Arabic", "youm7"), "alriyadh": ("Arabic", "alriyadh/alghad"),
         "alghad": ("Arabic", "alriyadh/alghad"), "ptt": ("Chinese", "PTT"), "weibo": ("Chinese", "Weibo")}


@dataclass(frozen=True)
class Pair:
    """One bullet as both readers judged it, with the facets its topic has."""

    topic: str
    run: str
    language: str
    site: str
    topic_set: str
    first: frozenset[str]
    second: frozenset[str]
    facets: tuple[str, ...]


def _site(post: str) -> tuple[str, str]:
    """(language, site) of a cited thread id such as ``ARZ_DF_alriyadh_20100426_520062``."""
    parts = post.split("_")
    if len(parts) > 2 and parts[2] in SITES:
        return SITES[parts[2]]
    return ("other", "other")


def topic_sets(paths: list[Path]) -> dict[str, str]:
    """Each topic's set: the site of its first nugget's thread, else the topics file's name."""
    from bolt.formats.topics import read_topics

    out = {}
    for path in paths:
        for t in read_topics(path):
            posts = [n.post for f in t.facets for n in f.nuggets]
            site = _site(posts[0])[1] if posts else "other"
            out[t.topic_id] = site if site != "other" else path.stem
    return out


def read_pairs(second: Path, first: list[Path], assessor: str, facets: dict[str, tuple[str, ...]],
               sets: dict[str, str] | None = None) -> list[Pair]:
    """The second reader's bullets matched to the first reader's judgments by (topic, text)."""
    firsts: dict[tuple[str, str], dict] = {}
    for path in first:
        for _, d in numbered_lines(path):
            if d.get("assessor") == assessor:
                firsts.setdefault((d["topic"], d["text"]), d)
    pairs = []
    for n, d in numbered_lines(second):
        f = firsts.get((d["topic"], d["text"]))
        if f is None:
            raise SystemExit(f"{second}:{n}: no judgment by {assessor} of this bullet of topic {d['topic']} in "
                             f"{', '.join(map(str, first))}; copy the bullet's text exactly from the first reader's line")
        if d["topic"] not in facets:
            raise SystemExit(f"{second}:{n}: topic {d['topic']} is in no topic file given; pass its file with --topics")
        language, site = _site(f["sources"][0]["post"]) if f.get("sources") else ("other", "other")
        pairs.append(Pair(d["topic"], f.get("run", ""), language, site, (sets or {}).get(d["topic"], ""),
                          frozenset(f["facets"]), frozenset(d["facets"]), facets[d["topic"]]))
    return pairs


def _kappa(a: list[int], b: list[int]) -> float:
    """Cohen's kappa; nan when it is undefined (both readers gave one label throughout)."""
    if len(set(a) | set(b)) < 2:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(cohen_kappa_score(a, b))


def bullet_kappa(pairs: list[Pair]) -> float:
    """Kappa on whether each bullet states any facet of its topic."""
    return _kappa([int(bool(p.first)) for p in pairs], [int(bool(p.second)) for p in pairs])


def facet_kappa(pairs: list[Pair]) -> float:
    """Kappa on every (bullet, facet of its topic) pair: does the bullet state this facet?"""
    a = [int(f in p.first) for p in pairs for f in p.facets]
    b = [int(f in p.second) for p in pairs for f in p.facets]
    return _kappa(a, b)


def bootstrap(pairs: list[Pair], stat, reps: int, seed: int) -> tuple[float, float]:
    """95% percentile interval of ``stat`` over bullets drawn with replacement."""
    rng = np.random.default_rng(seed)
    values = [stat([pairs[i] for i in rng.integers(0, len(pairs), len(pairs))]) for _ in range(reps)]
    if np.all(np.isnan(values)):
        return float("nan"), float("nan")
    lo, hi = np.nanpercentile(values, [2.5, 97.5])
    return float(lo), float(hi)


def summary(pairs: list[Pair], reps: int, seed: int) -> dict:
    """The figures of one group of bullets."""
    return {"bullets": len(pairs),
            "states_first": sum(bool(p.first) for p in pairs), "states_second": sum(bool(p.second) for p in pairs),
            "same_facets": sum(p.first == p.second for p in pairs),
            "bullet_kappa": bullet_kappa(pairs), "bullet_ci": bootstrap(pairs, bullet_kappa, reps, seed),
            "facet_kappa": facet_kappa(pairs), "facet_ci": bootstrap(pairs, facet_kappa, reps, seed)}


def groups(pairs: list[Pair], run_prefixes: tuple[str, ...] = ()) -> dict[str, list[Pair]]:
    """All bullets, then per language and per site cited, per topic set, then per prefix of the first reader's runs."""
    out = {"all": pairs}
    for key in ("language", "site"):
        for value in sorted({getattr(p, key) for p in pairs}):
            out[value] = [p for p in pairs if getattr(p, key) == value]
    for value in sorted({p.topic_set for p in pairs} - {""}):
        out[f"topics: {value}"] = [p for p in pairs if p.topic_set == value]
    for prefix in run_prefixes:
        out[f"runs {prefix}*"] = [p for p in pairs if p.run.startswith(prefix)]
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--second", type=Path, default=SECOND)
    p.add_argument("--first", type=Path, nargs="+", default=list(FIRST))
    p.add_argument("--assessor", default=ASSESSOR)
    p.add_argument("--topics", type=Path, nargs="+", default=list(TOPICS))
    p.add_argument("--runs", nargs="+", default=[], metavar="PREFIX",
                   help="also report the bullets of the first reader's runs named PREFIX...")
    p.add_argument("--reps", type=int, default=2000, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = p.parse_args(argv)
    from bolt.formats.topics import read_topics

    facets = {t.topic_id: tuple(f.id for f in t.facets) for path in a.topics for t in read_topics(path)}
    pairs = read_pairs(a.second, a.first, a.assessor, facets, topic_sets(a.topics))
    table = {name: summary(ps, a.reps, a.seed) for name, ps in groups(pairs, tuple(a.runs)).items()}
    if a.json:
        print(json.dumps(table, indent=1))
        return
    print("| group | bullets | state a facet (first / second) | same facets | kappa, bullet (95% CI) | kappa, facet (95% CI) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, s in table.items():
        print(f"| {name} | {s['bullets']} | {s['states_first']} / {s['states_second']} | {s['same_facets']} | "
              f"{s['bullet_kappa']:.2f} ({s['bullet_ci'][0]:.2f}–{s['bullet_ci'][1]:.2f}) | "
              f"{s['facet_kappa']:.2f} ({s['facet_ci'][0]:.2f}–{s['facet_ci'][1]:.2f}) |")


if __name__ == "__main__":
    main()
