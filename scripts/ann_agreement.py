#!/usr/bin/env python3
"""How far the approximate sweep agrees with the exact one: the best-swept threads of each query.

    python scripts/ann_agreement.py --exact INDEX --approximate INDEX --topics FILE... [--lang cmn] [--top 10]

Both indexes hold the same threads and vectors; the second has an approximate index of ``--lang``'s
sentences (``bolt index --add-vectors DIR --ann-min-rows N --vectors-from INDEX`` with N below the
language's sentences). For every topic's query, the sweep (``bolt.pipeline.dense.stored_sweep_parts``
with no retrieved threads, as for a topic the lexical search misses) ranks the language's threads on
each index; reported: the share of the exact top ``--top`` the approximate top holds (recall), how
often the best thread is the same, and the time per query. On a small language the nearest
headlines alone reach every thread, so the approximate index itself is measured too: the share of
the exact ``HITS`` nearest sentences it returns, and the share of the exact top threads that own
one of its sentences (what it reaches without the headlines and the retrieved threads).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def top_threads(query: str, lang: str, table, encoder, top: int) -> tuple[list[str], float]:
    """The ``top`` best-swept threads of ``lang`` and the seconds the sweep took."""
    from bolt.pipeline.dense import stored_sweep_parts, sweep_score, top_k

    t0 = time.perf_counter()
    parts = stored_sweep_parts(query, lang, {}, encoder, table)
    ids = list(parts)
    best = top_k(ids, [sweep_score(parts[t]) for t in ids], top)
    return [t for t, _ in best], time.perf_counter() - t0


def nearest_parts(query: str, lang: str, exact, approximate, encoder, best: list[str]) -> tuple[float, float]:
    """The approximate index's sentence recall against the exact nearest ``HITS``, and the share of
    the ``best`` threads (exact) that own one of its sentences."""
    import numpy as np

    from indexing.vectors.ann import HITS

    q = encoder.encode_query(query)
    owner, rows = exact.kind_rows(lang, "sentence")
    sims = exact.cosines(rows, q)
    truth = set(np.asarray(rows)[np.argsort(-sims, kind="stable")[:HITS]].tolist())
    hits = approximate.nearest(lang).search(q)
    ids = approximate.threads(lang)
    reached = {ids[i] for i in approximate.owners(hits, lang).tolist() if 0 <= i < len(ids)}
    return len(truth & set(hits.tolist())) / max(1, len(truth)), sum(t in reached for t in best) / max(1, len(best))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--exact", type=Path, required=True)
    p.add_argument("--approximate", type=Path, required=True)
    p.add_argument("--topics", type=Path, nargs="+", required=True)
    p.add_argument("--lang", default="cmn")
    p.add_argument("--top", type=int, default=10)
    args = p.parse_args()

    from bolt.formats.topics import read_topics
    from bolt.pipeline import SystemConfig
    from indexing.models.multilingual import get_encoder
    from indexing.vectors.table import open_tables

    name = SystemConfig().sweep_encoder()
    tables = [open_tables(ix)[name] for ix in (args.exact, args.approximate)]
    if tables[1].nearest(args.lang) is None:
        sys.exit(f"error: {args.approximate} has no approximate index of {args.lang}; build it with "
                 f"'bolt index --add-vectors DIR --ann-min-rows N' (N below its sentences)")
    encoder = get_encoder(name, threads=1)
    recall, same_best, secs, sent_recall, reach = [], 0, ([], []), [], []
    queries = [t.query for f in args.topics for t in read_topics(f)]
    for q in queries:
        (ex, s0), (ap, s1) = (top_threads(q, args.lang, tb, encoder, args.top) for tb in tables)
        recall.append(len(set(ex) & set(ap)) / max(1, len(ex)))
        same_best += bool(ex) and bool(ap) and ex[0] == ap[0]
        secs[0].append(s0)
        secs[1].append(s1)
        r, share = nearest_parts(q, args.lang, tables[0], tables[1], encoder, ex)
        sent_recall.append(r)
        reach.append(share)
    print(json.dumps({"queries": len(queries), "lang": args.lang, "top": args.top,
                      "ann": tables[1].manifest.get("ann", {}).get(args.lang),
                      "recall_mean": round(statistics.mean(recall), 4), "recall_min": round(min(recall), 3),
                      "same_best": same_best, "nearest_sentence_recall": round(statistics.mean(sent_recall), 4),
                      "top_threads_owning_a_nearest_sentence": round(statistics.mean(reach), 4),
                      "exact_s_p50": round(statistics.median(secs[0]), 4),
                      "approximate_s_p50": round(statistics.median(secs[1]), 4)}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
