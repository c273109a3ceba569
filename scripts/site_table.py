#!/usr/bin/env python3
"""Per-site means of ``bolt score --json`` output, facets covered, and each default's leave-one-site-out verdict.

    python scripts/site_table.py SCORES.json... --site NAME=PREFIX|NAME=FIRST..LAST ...
        [--runs RUN,RUN,...] [--judgments J.jsonl ...] [--pair DEFAULT=ON_RUN,OFF_RUN ...] [--only RUN=PREFIX ...]

A site is the topics whose number starts with PREFIX (``alriyadh/alghad=5.0``) or the topics numbered
FIRST to LAST, inclusive, compared part by part (``ptt-held-out=4.111..4.219``, a span no one prefix
names). Several score files (one per topics file) may be given; a run's topics are merged. ``bolt
score`` scores every topic of the topics file, a topic a run did not answer as 0; a run made for one
language's topics only (``scripts/spec_runs.py --only``) is named with ``--only`` so that it is
averaged on that language's sites alone and shown as "–" elsewhere.

With ``--judgments`` (careful judgment files) each cell also counts the *facets covered*: distinct
(topic, facet) pairs some judged bullet of the run states, the count a leave-one-site-out rule
compares where a mean of R_n hides facets of unequal weight. For each ``--pair`` (the run with the
default on, the run with it at its off value), the verdict on each site is the rule of
docs/experiments/cross-language-defaults-leave-one-site-out.md: *holds* when R_n with it on is not
lower and F_GD not lower by more than 0.01, *fails* otherwise, *no change* when the two runs'
bullets are scored the same on every topic of the site.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

METRICS = ("P_n", "R_n", "F_GD")
F_GD_SLACK = 0.01


def _number(topic: str) -> tuple[int, ...]:
    return tuple(int(x) for x in topic.split("."))


@dataclass(frozen=True)
class Site:
    """Topics named by a number prefix, or by a first..last span of topic numbers."""

    name: str
    prefix: str = ""
    first: str = ""
    last: str = ""

    def holds(self, topic: str) -> bool:
        if self.first:
            return _number(self.first) <= _number(topic) <= _number(self.last)
        return topic.startswith(self.prefix)

    def label(self) -> str:
        return f"{self.first}..{self.last}" if self.first else self.prefix


def parse_site(item: str) -> Site:
    """``"arz=5.0"`` or ``"ptt=4.111..4.219"``; anything else exits with what to write."""
    name, sep, span = item.partition("=")
    first, dots, last = span.partition("..")
    if not sep or not name or not span or (dots and not (first and last)):
        sys.exit(f"error: --site {item!r}: write NAME=PREFIX (e.g. arz=5.0) or NAME=FIRST..LAST (e.g. ptt=4.111..4.219)")
    try:
        if dots:
            _number(first), _number(last)
    except ValueError:
        sys.exit(f"error: --site {item!r}: FIRST and LAST must be topic numbers such as 4.111")
    return Site(name, first=first, last=last) if dots else Site(name, prefix=span)


def site_topics(run: dict, site: Site | str, only: str = "") -> list[str]:
    """The run's scored topics on a site (a ``Site`` or a number prefix), and under ``only``."""
    site = site if isinstance(site, Site) else Site("", prefix=site)
    return [t for t in run["topics"] if site.holds(t) and t.startswith(only)]


def site_means(run: dict, site: Site | str, only: str = "") -> dict[str, float] | None:
    """Mean of each metric over the run's topics on a site (None when it answered none there, or
    when the run answered only the topics under ``only`` and the site lies outside them)."""
    topics = site_topics(run, site, only)
    if not topics:
        return None
    return {m: sum(run["topics"][t].get(m, 0.0) for t in topics) / len(topics) for m in METRICS} | {"n": len(topics)}


def covered(judgment_lines: list[dict]) -> dict[str, set[tuple[str, str]]]:
    """Per run: the (topic, facet) pairs its judged bullets state."""
    out: dict[str, set[tuple[str, str]]] = {}
    for j in judgment_lines:
        for f in j.get("facets") or ():
            out.setdefault(j["run"], set()).add((j["topic"], f))
    return out


def verdict(on: dict, off: dict, same: bool) -> str:
    """The rule's word for one default on one site."""
    if same:
        return "no change"
    ok = on["R_n"] >= off["R_n"] - 1e-9 and on["F_GD"] >= off["F_GD"] - F_GD_SLACK - 1e-9
    return "holds" if ok else "fails"


def cell(means: dict | None, facets: set[tuple[str, str]] | None, site: Site) -> str:
    """``P_n / R_n / F_GD`` (and ``, N facets`` when judgments were read); "–" when the run answered none."""
    if not means:
        return "–"
    text = f"{means['P_n']:.3f} / {means['R_n']:.3f} / {means['F_GD']:.3f}"
    return text if facets is None else f"{text}, {sum(1 for t, _ in facets if site.holds(t))} facets"


def _named(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        k, sep, v = item.partition("=")
        if not sep:
            sys.exit(f"error: {item!r}: write {what}")
        out[k] = v
    return out


def _pair_cell(runs: dict, on_name: str, off_name: str, site: Site, only: str) -> str:
    off = site_means(runs[off_name], site, only)
    if off is None:
        return "–"
    on = site_means(runs[on_name], site, only)
    same = all(runs[on_name]["topics"].get(t) == runs[off_name]["topics"][t]
               for t in site_topics(runs[off_name], site, only))
    return (f"F_GD {on['F_GD']:.3f} vs {off['F_GD']:.3f}, R_n {on['R_n']:.3f} vs {off['R_n']:.3f}: "
            f"{verdict(on, off, same)}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scores", type=Path, nargs="+", help="bolt score --json output (one per topics file)")
    p.add_argument("--site", action="append", required=True, metavar="NAME=PREFIX|NAME=FIRST..LAST")
    p.add_argument("--runs", help="comma-separated run ids, in row order (default: every run scored)")
    p.add_argument("--judgments", type=Path, nargs="+", help="careful judgments: count the facets each run covers")
    p.add_argument("--pair", action="append", default=[], metavar="DEFAULT=ON_RUN,OFF_RUN")
    p.add_argument("--only", action="append", default=[], metavar="RUN=PREFIX",
                   help="RUN answered only the topics whose number starts with PREFIX")
    a = p.parse_args()
    runs: dict[str, dict] = {}
    for path in a.scores:
        for name, r in json.loads(path.read_text(encoding="utf-8"))["runs"].items():
            runs.setdefault(name, {"topics": {}})["topics"].update(r["topics"])
    names = a.runs.split(",") if a.runs else list(runs)
    missing = [r for r in names if r not in runs]
    if missing:
        sys.exit(f"error: --runs: {', '.join(missing)} not in the score files (they hold {', '.join(runs)})")
    sites, only = [parse_site(s) for s in a.site], _named(a.only, "RUN=PREFIX")
    facets = None
    if a.judgments:
        from scripts.carry_judgments import load_lines
        for path in a.judgments:
            if not path.is_file():
                sys.exit(f"error: --judgments {path}: no such file; give a careful judgments file (tests/data/careful/)")
        facets = covered([j for path in a.judgments for j in load_lines(path)])
    print("| run | " + " | ".join(f"{s.name} ({s.label()})" for s in sites) + " |")
    print("| --- |" + " --- |" * len(sites))
    for name in names:
        mine = None if facets is None else facets.get(name, set())
        print(f"| {name} | " + " | ".join(cell(site_means(runs[name], s, only.get(name, "")), mine, s)
                                         for s in sites) + " |")
    if a.pair:
        print("\n| default | " + " | ".join(f"{s.name}: on vs off" for s in sites) + " |")
        print("| --- |" + " --- |" * len(sites))
    for default, pair in _named(a.pair, "DEFAULT=ON_RUN,OFF_RUN").items():
        on_name, off_name = pair.split(",")
        print(f"| {default} | " + " | ".join(_pair_cell(runs, on_name, off_name, s, only.get(off_name, ""))
                                            for s in sites) + " |")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
