#!/usr/bin/env python3
"""Mean scores per topic group (tuning / held-out) of runs scored with ``bolt score --json``.

    python scripts/dev_scores.py SCORES.json --groups topics/ebay-dev.groups.tsv

``bolt score`` averages over every topic of the topics file; development figures must be reported
per group (tuning topics vs held-out topics), so this reads the per-topic scores and averages
them per group. The groups file is TSV: ``topic<TAB>group``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

METRICS = ("P_n", "R_n", "F_GD", "ERR")


def read_groups(path: Path) -> dict[str, str]:
    """{topic: group} from the groups TSV; a malformed line exits naming the file and line."""
    groups = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            sys.exit(f"error: {path}:{n}: expected 'topic<TAB>group'")
        groups[parts[0].strip()] = parts[1].strip()
    return groups


def group_means(scores: dict, groups: dict[str, str]) -> dict[str, dict[str, dict[str, float]]]:
    """{group: {run: {metric: mean over the group's topics}}} (a topic absent from a run scores 0)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for g in dict.fromkeys(groups.values()):
        topics = [t for t, gg in groups.items() if gg == g]
        out[g] = {}
        for run, r in scores["runs"].items():
            per = r["topics"]
            out[g][run] = {m: sum(per.get(t, {}).get(m, 0.0) for t in topics) / len(topics) for m in METRICS}
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scores", type=Path, help="output of 'bolt score ... --json'")
    p.add_argument("--groups", type=Path, required=True, help="TSV topic<TAB>group")
    a = p.parse_args()
    groups = read_groups(a.groups)
    means = group_means(json.loads(a.scores.read_text(encoding="utf-8")), groups)
    for g, runs in means.items():
        print(f"\n{g} ({sum(1 for v in groups.values() if v == g)} topics)\n")
        print("| run | " + " | ".join(METRICS) + " |")
        print("| --- |" + " --- |" * len(METRICS))
        for run, m in runs.items():
            print(f"| {run} | " + " | ".join(f"{m[k]:.3f}" for k in METRICS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
