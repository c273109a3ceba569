#!/usr/bin/env python3
"""Per-site means of ``bolt score --json`` output, and each default's leave-one-site-out verdict.

    python scripts/site_table.py SCORES.json --site NAME=PREFIX ... [--pair DEFAULT=ON_RUN,OFF_RUN ...]
        [--only RUN=PREFIX ...]

A site is the topics whose number starts with PREFIX (e.g. ``alriyadh/alghad=5.0``). ``bolt score``
scores every topic of the topics file, a topic a run did not answer as 0; a run made for one
language's topics only (``scripts/spec_runs.py --only``) is named with ``--only`` so that it is
averaged on that language's sites alone and shown as "–" elsewhere. For each ``--pair`` (the run with the default on, the run with it at its off value), the
verdict on each site is the rule of docs/experiments/cross-language-defaults-leave-one-site-out.md:
*holds* when R_n with it on is not lower and F_GD not lower by more than 0.01, *fails* otherwise,
*no change* when the two runs' bullets are scored the same on every topic of the site.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

METRICS = ("P_n", "R_n", "F_GD")
F_GD_SLACK = 0.01


def site_means(run: dict, prefix: str, only: str = "") -> dict[str, float] | None:
    """Mean of each metric over the run's topics on a site (None when it answered none there, or
    when the run answered only the topics under ``only`` and the site lies outside them)."""
    if only and not (prefix.startswith(only) or only.startswith(prefix)):
        return None
    topics = [t for t in run["topics"] if t.startswith(prefix) and t.startswith(only)]
    if not topics:
        return None
    return {m: sum(run["topics"][t].get(m, 0.0) for t in topics) / len(topics) for m in METRICS} | {"n": len(topics)}


def verdict(on: dict, off: dict, same: bool) -> str:
    """The rule's word for one default on one site."""
    if same:
        return "no change"
    ok = on["R_n"] >= off["R_n"] - 1e-9 and on["F_GD"] >= off["F_GD"] - F_GD_SLACK - 1e-9
    return "holds" if ok else "fails"


def _named(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep:
            sys.exit(f"error: {item!r}: write {what}")
        out[k] = v
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scores", type=Path)
    p.add_argument("--site", action="append", required=True, metavar="NAME=PREFIX")
    p.add_argument("--pair", action="append", default=[], metavar="DEFAULT=ON_RUN,OFF_RUN")
    p.add_argument("--only", action="append", default=[], metavar="RUN=PREFIX",
                   help="RUN answered only the topics whose number starts with PREFIX")
    a = p.parse_args()
    runs = json.loads(a.scores.read_text(encoding="utf-8"))["runs"]
    sites, only = _named(a.site, "NAME=PREFIX"), _named(a.only, "RUN=PREFIX")
    fmt = lambda m: f"{m['P_n']:.3f} / {m['R_n']:.3f} / {m['F_GD']:.3f}" if m else "–"
    print("| run | " + " | ".join(f"{s} ({p_})" for s, p_ in sites.items()) + " |")
    print("| --- |" + " --- |" * len(sites))
    for name, r in runs.items():
        print(f"| {name} | " + " | ".join(fmt(site_means(r, p_, only.get(name, ""))) for p_ in sites.values()) + " |")
    if a.pair:
        print("\n| default | " + " | ".join(f"{s}: on vs off" for s in sites) + " |")
        print("| --- |" + " --- |" * len(sites))
    for default, pair in _named(a.pair, "DEFAULT=ON_RUN,OFF_RUN").items():
        on_name, off_name = pair.split(",")
        cells = []
        for prefix in sites.values():
            off = site_means(runs[off_name], prefix, only.get(off_name, ""))
            if off is None:
                cells.append("–")
                continue
            on = site_means(runs[on_name], prefix, only.get(off_name, ""))
            ts = [t for t in runs[off_name]["topics"] if t.startswith(prefix) and t.startswith(only.get(off_name, ""))]
            same = all(runs[on_name]["topics"].get(t) == runs[off_name]["topics"][t] for t in ts)
            cells.append(f"F_GD {on['F_GD']:.3f} vs {off['F_GD']:.3f}, R_n {on['R_n']:.3f} vs {off['R_n']:.3f}: "
                         f"{verdict(on, off, same)}")
        print(f"| {default} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
