#!/usr/bin/env python3
"""Per site and run: mean P_n / R_n / F_GD and the facets the run's bullets cover, by careful judgments.

    python scripts/site_facets.py SCORES.json... --judgments J.jsonl... --site NAME=FIRST..LAST ...
        [--runs RUN,RUN,...]

A site is the topics numbered FIRST to LAST (inclusive; "4.111..4.219" is the held-out PTT rounds of
xl-dev, which no one prefix names). Means come from ``bolt score --json`` (every topic of its topics
file). *Facets covered* is the number of distinct (topic, facet) pairs some judged bullet of the run
states: the count a leave-one-site-out rule compares, which a mean of R_n hides when facets differ
in weight. Several score files (one per topics file) may be given; a run's topics are merged.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

METRICS = ("P_n", "R_n", "F_GD")


def parse_site(item: str) -> tuple[str, str, str]:
    """``"ptt=4.111..4.219"`` -> ``("ptt", "4.111", "4.219")``; anything else exits with what to write."""
    name, sep, span = item.partition("=")
    first, dots, last = span.partition("..")
    if not sep or not dots or not name or not first or not last:
        sys.exit(f"error: --site {item!r}: write NAME=FIRST..LAST, e.g. ptt=4.111..4.219")
    return name, first, last


def in_site(topic: str, first: str, last: str) -> bool:
    """Whether topic number ``topic`` lies in ``first``..``last`` (numbers compared part by part)."""
    key = lambda t: tuple(int(x) for x in t.split("."))
    return key(first) <= key(topic) <= key(last)


def covered(judgment_lines: list[dict]) -> dict[str, set[tuple[str, str]]]:
    """Per run: the (topic, facet) pairs its judged bullets state."""
    out: dict[str, set[tuple[str, str]]] = {}
    for j in judgment_lines:
        for f in j.get("facets") or ():
            out.setdefault(j["run"], set()).add((j["topic"], f))
    return out


def site_row(topics: dict[str, dict], facets: set[tuple[str, str]], first: str, last: str) -> str:
    """``P_n / R_n / F_GD, N facets`` over the site's topics ("–" when the run answered none)."""
    ts = [t for t in topics if in_site(t, first, last)]
    if not ts:
        return "–"
    m = {k: sum(topics[t].get(k, 0.0) for t in ts) / len(ts) for k in METRICS}
    n = sum(1 for t, _ in facets if in_site(t, first, last))
    return f"{m['P_n']:.3f} / {m['R_n']:.3f} / {m['F_GD']:.3f}, {n} facets"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scores", type=Path, nargs="+")
    p.add_argument("--judgments", type=Path, nargs="+", required=True)
    p.add_argument("--site", action="append", required=True, metavar="NAME=FIRST..LAST")
    p.add_argument("--runs", help="comma-separated run ids, in column order (default: every run scored)")
    a = p.parse_args()
    from scripts.carry_judgments import load_lines

    sites = [parse_site(s) for s in a.site]
    topics: dict[str, dict[str, dict]] = {}
    for path in a.scores:
        for name, r in json.loads(path.read_text(encoding="utf-8"))["runs"].items():
            topics.setdefault(name, {}).update(r["topics"])
    runs = a.runs.split(",") if a.runs else list(topics)
    missing = [r for r in runs if r not in topics]
    if missing:
        sys.exit(f"error: --runs: {', '.join(missing)} not in the score files (they hold {', '.join(topics)})")
    facets = covered([j for path in a.judgments for j in load_lines(path)])
    print("| site | " + " | ".join(runs) + " |")
    print("| --- |" + " --- |" * len(runs))
    for name, first, last in sites:
        n = len({t for r in runs for t in topics[r] if in_site(t, first, last)})
        print(f"| {name} ({n}) | " + " | ".join(site_row(topics[r], facets.get(r, set()), first, last) for r in runs) + " |")
    return 0


if __name__ == "__main__":
    REPO = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(REPO))
    sys.exit(main())
