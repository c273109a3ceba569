#!/usr/bin/env python3
"""A blind sample of judged bullets for a second careful reader.

    python scripts/blind_sample.py JUDGMENTS.jsonl... --assessor NAME... --topics SPAN... --size N --out FILE
                                   [--seed S]

Reads the first reader's judgment lines of the given assessors whose topic lies in one of the spans
(``5.009-5.016`` or a single ``2.052``), keeps each distinct (topic, bullet text) once, draws ``--size`` of
them at random stratified by topic (an equal share per topic, a topic with fewer bullets giving its
leftover to the others), shuffles them and writes one JSON line each with ONLY ``topic``, ``text`` and
``sources`` (the cited posts and offsets): no facets, run, assessor or verdict, so the second reader
judges blind. The draw depends only on the seed and the files.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scripts.carry_judgments import numbered_lines  # noqa: E402 (after the sys.path line)
from scripts.site_table import Site  # noqa: E402


def in_spans(topic: str, spans: list[Site]) -> bool:
    """Whether a topic number such as ``5.012`` lies in one of the spans (False for a topic that is no number)."""
    try:
        return any(s.holds(topic) for s in spans)
    except ValueError:
        return False


def parse_span(text: str) -> Site:
    """``5.009-5.016`` -> the span 5.009..5.016; ``2.052`` -> that topic alone."""
    first, _, last = text.partition("-")
    return Site(text, first=first, last=last or first)


def bullets(paths: list[Path], assessors: set[str], spans: list[Site]) -> dict[tuple[str, str], list]:
    """Distinct (topic, text) of the chosen assessors' lines, each with the sources of its first line."""
    out: dict[tuple[str, str], list] = {}
    for path in paths:
        for _, d in numbered_lines(path):
            if d.get("assessor") in assessors and in_spans(str(d.get("topic", "")), spans) and "text" in d:
                sources = [{"post": s["post"], "offset": s["offset"]} for s in d.get("sources", [])]
                out.setdefault((d["topic"], d["text"]), sources)
    return out


def stratified(keys: list[tuple[str, str]], size: int, rng: random.Random) -> list[tuple[str, str]]:
    """``size`` keys, an equal share per topic; a topic short of its share gives the rest to the others."""
    by_topic: dict[str, list[tuple[str, str]]] = {}
    for k in sorted(keys):
        by_topic.setdefault(k[0], []).append(k)
    for ks in by_topic.values():
        rng.shuffle(ks)
    quota = dict.fromkeys(by_topic, 0)
    left = min(size, len(keys))
    while left:
        open_topics = [t for t in sorted(by_topic) if quota[t] < len(by_topic[t])]
        rng.shuffle(open_topics)
        for t in open_topics[:left]:
            quota[t] += 1
        left -= min(left, len(open_topics))
    chosen = [k for t, ks in by_topic.items() for k in ks[:quota[t]]]
    rng.shuffle(chosen)
    return chosen


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("judgments", type=Path, nargs="+")
    p.add_argument("--assessor", nargs="+", required=True, help="the first reader's assessor names to draw from")
    p.add_argument("--topics", nargs="+", required=True, metavar="SPAN", help="topic numbers, e.g. 5.009-5.016")
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    pool = bullets(a.judgments, set(a.assessor), [parse_span(s) for s in a.topics])
    chosen = stratified(list(pool), a.size, random.Random(a.seed))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    with a.out.open("w", encoding="utf-8") as f:
        for topic, text in chosen:
            f.write(json.dumps({"topic": topic, "text": text, "sources": pool[(topic, text)]}, ensure_ascii=False) + "\n")
    print(f"{len(chosen)} of {len(pool)} distinct bullets over {len({k[0] for k in pool})} topics -> {a.out}")


if __name__ == "__main__":
    main()
