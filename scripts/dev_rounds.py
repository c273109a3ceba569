#!/usr/bin/env python3
"""Held out by round: run ``main`` on each dev round with the ranker model that never saw it, then
a per-round table (docs/experiments/learned-ranker.md).

    python scripts/dev_rounds.py run --index DIR --models DIR --out RUN.xml [--system SPEC]
    python scripts/dev_rounds.py table SCORES.json --judgments MIXED.jsonl

*run* writes one run over all dev topics, each round R's topics distilled by
``SPEC`` with ``ranker=DIR/fold-R.json`` (``SPEC`` default ``main``). Without ``--models`` every
topic is run by ``SPEC`` as is. *table* reads ``bolt score --json`` output and the judgments it
scored with (``bolt assess ... --reuse CAREFUL.jsonl``: each line says ``judged_by`` person or
machine) and prints P_n / R_n / F_GD / ERR per round and run, with how many bullets careful readers
judged and how many the automatic assessor filled in (a marked estimate).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEV_TOPICS = REPO / "topics" / "ebay-dev.xml"
# the rounds' first topics (docs/system.md; topics/ebay-dev.groups.tsv's header names the boundaries)
# rounds 9-14 are the tac2013 rounds A (3.001-3.007), B (3.008-3.014), C (3.015-3.022), D (3.023-3.032),
# E (3.033-3.042) and F (3.043-3.050) of topics/tac2013-dev.xml (topics/tac2013-dev.groups.tsv)
ROUND_STARTS = ("2.001", "2.010", "2.018", "2.024", "2.029", "2.036", "2.043", "2.048",
                "3.001", "3.008", "3.015", "3.023", "3.033", "3.043")
METRICS = ("P_n", "R_n", "F_GD", "ERR")
# topics numbered from here on (a later fresh round) are not development data: never run on them here
DEV_END = "3.051"


def is_dev(topic: str) -> bool:
    """Whether a topic number belongs to the development rounds of ROUND_STARTS."""
    return "2.001" <= topic < DEV_END


def round_of(topic: str) -> int:
    """1-based round of a dev topic number (2.001-2.009 are round 1, ...)."""
    return sum(1 for s in ROUND_STARTS if topic >= s)


def run(index: Path, models: Path | None, out: Path, spec: str, run_id: str, topics_path: Path = DEV_TOPICS) -> None:
    from bolt.pipeline import Distiller, parse_config
    from bolt.pipeline.run import run_topics
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from indexing.search import open_index

    searcher = open_index(index)
    topics = [t for t in read_topics(topics_path) if is_dev(t.topic_id)]
    base = parse_config(spec)
    results = []
    for r in sorted({round_of(t.topic_id) for t in topics}):
        cfg = replace(base, ranker=str(models / f"fold-{r}.json")) if models else base
        results += run_topics([t for t in topics if round_of(t.topic_id) == r],
                              Distiller(searcher, searcher.corpus, cfg), progress=False)
    write_run(run_id, results, out, system=base.name, settings=f"{base!r}, held out by round: {models}")


def table(scores_path: Path, judgments: Path) -> str:
    scores = json.loads(scores_path.read_text(encoding="utf-8"))
    who: dict[tuple[str, int], dict[str, int]] = {}
    for line in judgments.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith('{"_meta"'):
            continue
        j = json.loads(line)
        k = (j["run"], round_of(j["topic"]))
        by = "careful" if j.get("judged_by", "human") in ("human", "mixed") else "machine"  # mixed: facets by a person
        who.setdefault(k, {"careful": 0, "machine": 0})[by] += 1
    rows = ["| round (topics) | run | P_n | R_n | F_GD | ERR | bullets careful / machine |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    topics_all = sorted({t for r in scores["runs"].values() for t in r["topics"]})
    groups = {r: [t for t in topics_all if round_of(t) == r] for r in sorted({round_of(t) for t in topics_all})}
    groups["all"] = topics_all
    for g, ts in groups.items():
        for name, r in scores["runs"].items():
            m = {k: sum(r["topics"].get(t, {}).get(k, 0.0) for t in ts) / len(ts) for k in METRICS}
            counts = [who.get((name, rr), {"careful": 0, "machine": 0}) for rr in ({g} if g != "all" else set(groups) - {"all"})]
            c, mach = sum(x["careful"] for x in counts), sum(x["machine"] for x in counts)
            rows.append(f"| {g} ({len(ts)}) | {name} | " + " | ".join(f"{m[k]:.3f}" for k in METRICS) + f" | {c} / {mach} |")
    return "\n".join(rows)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--index", type=Path, required=True)
    r.add_argument("--models", type=Path, help="folder of fold-R.json models (scripts/train_ranker.py fit)")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--system", default="main")
    r.add_argument("--run-id", help="default: the file name's stem")
    r.add_argument("--topics", type=Path, default=DEV_TOPICS, help="topics file (default topics/ebay-dev.xml)")
    t = sub.add_parser("table")
    t.add_argument("scores", type=Path)
    t.add_argument("--judgments", type=Path, required=True)
    a = p.parse_args()
    if a.cmd == "run":
        run(a.index, a.models, a.out, a.system, a.run_id or a.out.stem, a.topics)
    else:
        print(table(a.scores, a.judgments))
    return 0


if __name__ == "__main__":
    sys.exit(main())
