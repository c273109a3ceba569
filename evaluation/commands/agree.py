"""``bolt agree``: how far two judgment files agree, or the assessor's text matching against pair labels.

``bolt agree A.jsonl B.jsonl [--topics FILE]`` takes ``A`` as the reference (e.g. a careful
person) and reports, over the bullets both judged: per-bullet relevance agreement, per-facet
accuracy, Cohen's kappa, precision and recall of ``B`` against ``A``, support agreement, and
with ``--topics`` each run's mean R_n, P_n and F_GD under each file, their difference (the second
file's bias) and Kendall's tau between the two run rankings, each with a bootstrap interval over
topics (the assessor studies of the seeds and TREC's automatic-judging studies report the same
figures).

``bolt agree --pairs LABELS.tsv`` decides every (paragraph, statement) pair of a pair-label file
with the assessor's text matching and compares with the labels (``evaluation.matching.pairlabels``).
"""
from __future__ import annotations

import argparse
import json
import sys

from indexing.exit_codes import SUCCESS, USAGE


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", metavar="JUDGMENTS.jsonl",
                   help="two judgment files: the reference (e.g. a person's) first, then the one to check")
    p.add_argument("--topics", metavar="FILE",
                   help="topic file: per-facet agreement over all its facets, and run scores (R_n, P_n, F_GD)")
    p.add_argument("--pairs", metavar="LABELS.tsv",
                   help="instead of two files: a pair-label TSV (key, topic, label, paragraph, statement; or "
                   "the common unit-label layout: source, topic, unit_id, unit_text, text_id, text, label)")
    p.add_argument("--statement-model", metavar="FILE", default=None,
                   help="--pairs: a statement model JSON (default: the shipped one)")
    p.add_argument("--model", default=None, metavar="NAME",
                   help="--pairs: sentence-transformers model for the cosine features (default: the bundled one)")
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _print_table(title: str, rows: dict[str, dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title)
    for col in ("what", "n", "accuracy", "kappa [95% CI]", "precision", "recall", "first yes", "second yes"):
        t.add_column(col, justify="left" if col == "what" else "right")
    for name, a in rows.items():
        ci = a.get("kappa_ci")
        kappa = f"{a['kappa']:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")
        t.add_row(name, str(a["n"]), f"{a['accuracy']:.3f}", kappa, f"{a['precision']:.3f}",
                  f"{a['recall']:.3f}", str(a["reference_yes"]), str(a["candidate_yes"]))
    Console(width=120).print(t)
    print("kappa's interval: bootstrap over topics (1,000 resamples of whole topics, percentile 95%)")


def _signed(value: float, ci) -> str:
    """``+0.012 [-0.010, +0.031]``."""
    return f"{value:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")


def _tau(value, ci) -> str:
    return "n/a" if value is None else f"{value:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def _run_pairs(args) -> int:
    from evaluation.agreement import with_ci
    from evaluation.matching import pairlabels as pl
    from evaluation.matching.statement import load_model

    pairs = pl.read_pairs(args.pairs)
    model = load_model(args.statement_model)
    embedder = None
    if model.needs_embeddings:
        from indexing.models.embedding import get_embedder

        embedder = get_embedder(args.model)
    data = pl.prepare(pairs, embedder)
    decided = pl.decide(model, data, range(len(pairs)))  # the assessor's rule: p >= the model's threshold
    out = {"pairs": len(pairs), "positives": sum(data.labels), "statement_model": model.name,
           "threshold": model.threshold,
           "assessor": with_ci(data.labels, decided, data.groups),
           "held_out_by_source": model.fit_notes.get("held_out_by_source"),
           "note": "the shipped model was fitted on the iKAT dev, REALSumm and forum pairs: on them this is an "
                   "in-sample figure; 'scripts/bench.py score --part assess-transfer' gives held-out ones"}
    if embedder is not None:
        out["old_defaults"] = with_ci(data.labels, data.old_default, data.groups)
    if args.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        rows = {f"assessor ({model.name}, p >= {model.threshold})": out["assessor"]}
        if "old_defaults" in out:
            rows["old defaults (0.1)"] = out["old_defaults"]
        _print_table(f"{args.pairs}: labels (first) vs decisions (second)", rows)
        print(out["note"])
    return SUCCESS


def run(args) -> int:
    if args.pairs:
        if args.files:
            print("error: give either two judgment files or --pairs, not both", file=sys.stderr)
            return USAGE
        return _run_pairs(args)
    if len(args.files) != 2:
        print("error: give two judgment files (reference first), or --pairs LABELS.tsv; "
              "see 'bolt agree --help'", file=sys.stderr)
        return USAGE
    from bolt.formats.topics import read_topics
    from evaluation.agreement import judgment_agreement
    from evaluation.judgments import read_judgments

    first, second = (read_judgments(p) for p in args.files)
    topics = read_topics(args.topics) if args.topics else None
    out = {"first": args.files[0], "second": args.files[1], **judgment_agreement(first, second, topics)}
    if args.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return SUCCESS
    print(f"bullets judged in both: {out['bullets_in_both']} (only in first: {out['only_in_first']}, "
          f"only in second: {out['only_in_second']})")
    _print_table("agreement (first = reference)",
                 {"bullet relevant": out["relevance"], "bullet x facet": out["facets"],
                  "citation supports": out["support"]})
    if "runs" in out:
        from rich.console import Console
        from rich.table import Table

        t = Table(title="run means: first / second (bias of the second [95% CI])")
        t.add_column("run")
        metrics = list(next(iter(out["runs"].values()))) if out["runs"] else []
        for m in metrics:
            t.add_column(m, justify="right")
        for r, ms in out["runs"].items():
            t.add_row(r, *(f"{v['first']:.3f} / {v['second']:.3f} ({_signed(v['difference'], v['difference_ci'])})"
                           for v in ms.values()))
        Console(width=140).print(t)
        print("bias of the second, mean over runs: "
              + ", ".join(f"{m} {_signed(v['bias'], v['ci'])}" for m, v in out["bias"].items()))
        print("Kendall's tau between run rankings: "
              + ", ".join(f"{m} {_tau(v, out['kendall_tau_ci'][m])}" for m, v in out["kendall_tau"].items()))
        print("intervals: bootstrap over topics (1,000 resamples of whole topics, percentile 95%)")
    return SUCCESS
