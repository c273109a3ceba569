"""``bolt compare``: rank runs by a metric, Kendall's tau-b between rankings, paired tests, stability."""
from __future__ import annotations

import argparse
import json
import sys

from indexing.exit_codes import SUCCESS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scores", nargs="+", metavar="SCORES.json",
                   help="'bolt score --json' outputs (e.g. one per assessor); one file: compare its metrics")
    p.add_argument("--metric", default="F_GD", help="metric to rank runs by")
    p.add_argument("--json", action="store_true", help="write one JSON document to standard output")
    p.add_argument("--test", choices=("randomization", "bootstrap"), default="randomization",
                   help="paired significance test between runs")
    p.add_argument("--resamples", type=int, default=10000, help="permutations or bootstrap samples per pair")
    p.add_argument("--trials", type=int, default=50, help="random topic splits for the stability table")
    p.add_argument("--bin-width", type=float, default=0.01, help="score-difference bin of the stability table")
    p.add_argument("--seed", type=int, default=0, help="random seed (tests and stability are reproducible)")


def compare(args) -> dict:
    """The compare document (SPEC §8 keys plus significance and stability)."""
    from evaluation.compare import compare_reports, load_scores

    return compare_reports([load_scores(p) for p in args.scores], metric=args.metric, test=args.test,
                           resamples=args.resamples, trials=args.trials, bin_width=args.bin_width, seed=args.seed)


def _print(doc: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=120)
    t = Table(title=f"rankings by {doc['metric']}" if doc["settings"]["rank_by"] == "score file" else "rankings by metric")
    t.add_column("name")
    t.add_column("runs, best first")
    for name, runs in doc["rankings"].items():
        t.add_row(name, " ".join(runs))
    console.print(t)
    if doc["kendall_tau"]:
        k = Table(title="Kendall's tau-b")
        k.add_column("pair")
        k.add_column("tau", justify="right")
        for pair, tau in doc["kendall_tau"].items():
            k.add_row(pair.replace("|", " & "), "n/a" if tau is None else f"{tau:.3f}")
        console.print(k)
    for name, rows in doc["significance"].items():
        s = Table(title=f"{name}: paired {doc['settings']['test']} test on {doc['metric']}")
        for col in ("a", "b", "diff", "p"):
            s.add_column(col, justify="right" if col in ("diff", "p") else "left")
        for r in rows:
            s.add_row(r["a"], r["b"], f"{r['diff']:+.4f}", f"{r['p']:.4f}")
        console.print(s)
    for name, rows in doc["stability"].items():
        if not rows:
            continue
        s = Table(title=f"{name}: stability ({doc['settings']['trials']} splits, subset size {rows[0]['subset_size']})")
        for col in ("difference", "pairs", "swaps", "error rate"):
            s.add_column(col, justify="right")
        for r in rows:
            s.add_row(f"[{r['low']:.2f}, {r['high']:.2f})", str(r["pairs"]), str(r["swaps"]), f"{r['error_rate']:.3f}")
        console.print(s)


def run(args) -> int:
    doc = compare(args)
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    else:
        _print(doc)
    return SUCCESS
