#!/usr/bin/env python3
"""Threads reached per topic, and mean scores of one- and several-thread topics, per topic group.

    python scripts/thread_reach.py RUN.xml... --topics topics/ebay-dev.xml --judgments J.jsonl
        [--scores SCORES.json --groups topics/ebay-dev.groups.tsv]

A topic's *answering threads* are the threads holding its facets: those its nuggets cite and those
a judged bullet stating a facet cites with a supporting source (the careful judgments, every run's).
For each topic with ``<threads multiple="T">`` and each run: the answering threads, how many the
run cites, and from how many of them a bullet of the run states a facet (by the run's own judgment
lines, carried or new). With ``--scores`` (``bolt score --json`` of the same runs) and ``--groups``:
mean P_n, R_n and F_GD of the several-thread and the one-thread topics of each group.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bolt.formats.submission import read_run  # noqa: E402 (after the sys.path line)
from bolt.formats.topics import read_topics  # noqa: E402

METRICS = ("P_n", "R_n", "F_GD")


def answering_threads(topics, judgment_lines: list[dict]) -> dict[str, set[str]]:
    """{topic: threads holding a facet} from the nuggets and the supporting sources of judged bullets."""
    out: dict[str, set[str]] = defaultdict(set)
    for t in topics:
        for f in t.facets:
            out[t.topic_id].update(n.post for n in f.nuggets if n.post)
    for j in judgment_lines:
        if j.get("facets"):
            out[j["topic"]].update(s["post"] for s in j.get("sources", ()) if s.get("supports"))
    return out


def stating_threads(judgment_lines: list[dict], run_id: str) -> dict[str, set[str]]:
    """{topic: threads a bullet of ``run_id`` stating a facet cites with a supporting source}."""
    out: dict[str, set[str]] = defaultdict(set)
    for j in judgment_lines:
        if j.get("run") == run_id and j.get("facets"):
            out[j["topic"]].update(s["post"] for s in j.get("sources", ()) if s.get("supports"))
    return out


def read_lines(path: Path) -> list[dict]:
    """The judgment lines of a JSONL file (the ``_meta`` header aside; a missing file has none)."""
    from scripts.carry_judgments import load_lines

    return load_lines(path)


def traced_topics_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments every per-topic trace of main against careful judgments takes."""
    p.add_argument("--index", type=Path, required=True, help="index made by 'bolt index'")
    p.add_argument("--topics", type=Path, required=True)
    p.add_argument("--judgments", type=Path, required=True, help="careful judgments naming the answering threads")


def group_table(scores: dict, groups: dict[str, str], multi: set[str]) -> list[str]:
    """Markdown rows: per group and kind of topic (several threads / one thread), each run's means."""
    rows = ["| group | topics | run | " + " | ".join(METRICS) + " |", "| --- | --- | --- |" + " --- |" * len(METRICS)]
    for g in dict.fromkeys(groups.values()):
        for kind, want in (("several threads", True), ("one thread", False)):
            ts = [t for t, gg in groups.items() if gg == g and (t in multi) == want]
            if not ts:
                continue
            for run, r in scores["runs"].items():
                per = r["topics"]
                means = [sum(per.get(t, {}).get(m, 0.0) for t in ts) / len(ts) for m in METRICS]
                rows.append(f"| {g} | {kind} ({len(ts)}) | {run} | " + " | ".join(f"{v:.3f}" for v in means) + " |")
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--topics", type=Path, required=True)
    p.add_argument("--judgments", type=Path, required=True, help="careful judgments covering the runs' bullets")
    p.add_argument("--scores", type=Path, help="'bolt score --json' of the same runs")
    p.add_argument("--groups", type=Path, help="TSV topic<TAB>group (with --scores)")
    a = p.parse_args()
    topics = read_topics(a.topics)
    lines = read_lines(a.judgments)
    answering = answering_threads(topics, lines)
    multi = {t.topic_id for t in topics if t.properties and t.properties.multiple_threads}
    runs = [read_run(r) for r in a.runs]
    print("| topic | answering threads | " + " | ".join(f"{r.run_id} cites / states" for r in runs) + " |")
    print("| --- | --- |" + " --- |" * len(runs))
    for t in sorted(multi):
        cells = []
        for r in runs:
            res = r.results.get(t)
            cited = {s.thread for b in (res.bullets if res else ()) for s in b.sources}
            stated = stating_threads(lines, r.run_id)[t]
            cells.append(f"{len(cited & answering[t])} / {len(stated & answering[t])}")
        print(f"| {t} | {len(answering[t])} | " + " | ".join(cells) + " |")
    if a.scores and a.groups:
        sys.path.insert(0, str(REPO / "scripts"))
        from dev_scores import read_groups

        print()
        print("\n".join(group_table(json.loads(a.scores.read_text(encoding="utf-8")), read_groups(a.groups), multi)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
