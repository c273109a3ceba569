"""``bolt convert``: read other evaluations' files into ours (import) and write ours back (export).

Formats: see ``bolt convert formats`` and docs/formats.md. An import checks the whole input first and
reports every problem (file, line, what to fix) as ``bolt validate`` does; nothing is written unless
the input is clean. After an import the command prints the ``bolt score`` / ``bolt compare`` commands
that score the converted files.
"""
from __future__ import annotations

import argparse
import sys

from indexing.exit_codes import INVALID, SUCCESS, USAGE
from indexing.help_format import DefaultsHelpFormatter, RawDescriptionDefaultsHelpFormatter

EPILOG = """examples:
  bolt convert import aquaint-pilot PILOT_DIR --out conv/
  bolt convert export aquaint-pilot --out back/ --runs conv/runs/*.xml --topics author=conv/topics.author.xml \\
      --judgments author=conv/judgments.author.jsonl --holistic conv/holistic.tsv
  bolt convert import trec-qa QA_DIR --out conv/      # then: bolt score ... --beta 3 --votes conv/votes.tsv
  bolt convert import trec-rag answers.jsonl nuggets.jsonl assignments.jsonl --out conv/
  bolt convert score autonuggetizer --topics conv/topics.xml --judgments conv/judgments.jsonl
  bolt convert import argue nugget-banks.jsonl judgments.jsonl --out conv/
  bolt convert score argue --topics conv/topics.xml --judgments conv/judgments.jsonl --json > argue.json
  bolt compare argue.json --metric argue_f1
  bolt convert formats
See docs/formats.md for every format and which metrics apply."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from evaluation.convert import FORMATS, TRACK_SCORERS

    p.epilog = EPILOG
    p.formatter_class = RawDescriptionDefaultsHelpFormatter
    sub = p.add_subparsers(dest="action", metavar="<action>")
    imp = sub.add_parser("import", help="read another evaluation's files; write topics, runs, judgments",
                         formatter_class=DefaultsHelpFormatter)
    imp.add_argument("format", choices=[f for f, spec in FORMATS.items() if spec.import_name],
                     help="the input's format (bolt convert formats)")
    imp.add_argument("inputs", nargs="+", metavar="INPUT", help="the input folder or files (see docs/formats.md)")
    out = imp.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", metavar="DIR", help="folder for the converted files")
    out.add_argument("--check", action="store_true", help="only check the input (every problem, file and line); "
                     "write nothing")
    exp = sub.add_parser("export", help="write our topics, runs and judgments in another evaluation's format",
                         formatter_class=DefaultsHelpFormatter)
    exp.add_argument("format", choices=[f for f, spec in FORMATS.items() if spec.export_name])
    exp.add_argument("--out", required=True, metavar="DIR", help="folder for the written files")
    exp.add_argument("--runs", nargs="+", default=[], metavar="RUN.xml", help="submission files")
    exp.add_argument("--topics", nargs="+", default=[], metavar="[ASSESSOR=]FILE",
                     help="topic files (one per assessor where the format keeps assessors apart)")
    exp.add_argument("--judgments", nargs="*", default=[], metavar="[ASSESSOR=]FILE", help="judgments JSONL files")
    exp.add_argument("--holistic", metavar="FILE", help="holistic judgments TSV (aquaint-pilot)")
    exp.add_argument("--votes", metavar="FILE", help="votes TSV (trec-qa pyramid votes)")
    sc = sub.add_parser("score", help="score converted files with a track's own metrics (AutoNuggetizer, ARGUE)",
                        formatter_class=DefaultsHelpFormatter)
    sc.add_argument("track", choices=list(TRACK_SCORERS), help="whose metrics")
    sc.add_argument("--topics", required=True, metavar="FILE", help="topics file written by 'bolt convert import'")
    sc.add_argument("--judgments", required=True, metavar="FILE",
                    help="judgments file written by 'bolt convert import'")
    sc.add_argument("--runs", nargs="+", default=None, metavar="RUN_ID",
                    help="run ids to score (default: every run in the judgments)")
    sc.add_argument("--json", action="store_true", help="write the 'bolt score --json'-shaped document")
    sub.add_parser("formats", help="list the formats read and written")


def _pairs(values: list[str], what: str) -> dict[str, str]:
    from indexing.errors import ToolkitError

    out: dict[str, str] = {}
    for v in values:
        name, sep, path = v.partition("=")
        if not sep:
            name, path = "default", v
        if name in out:
            raise ToolkitError(f"--{what} names assessor {name} twice", hint=f"give one {what} file per assessor")
        out[name] = path
    return out


def run(args: argparse.Namespace) -> int:
    from indexing.problems import ERROR, ProblemsError
    from evaluation.convert import FORMATS

    if args.action is None:
        print("error: give an action: import, export or formats; see 'bolt convert --help'", file=sys.stderr)
        return USAGE
    if args.action == "formats":
        for name, spec in FORMATS.items():
            ways = "+".join(w for w, ok in (("import", spec.import_name), ("export", spec.export_name)) if ok)
            print(f"{name:16} {ways:14} {spec.summary}")
        return SUCCESS
    if args.action == "score":
        return _score(args)
    spec = FORMATS[args.format]
    try:
        if args.action == "export":
            written = spec.exporter(args.out, runs=args.runs, topics=_pairs(args.topics, "topics"),
                                    judgments=_pairs(args.judgments, "judgments"), holistic=args.holistic,
                                    votes=args.votes)
        elif args.check:  # the whole import, into a folder thrown away
            import tempfile

            with tempfile.TemporaryDirectory(prefix="bolt-convert-check-") as tmp:
                result = spec.importer(args.inputs, tmp)
        else:
            result = spec.importer(args.inputs, args.out)
    except ProblemsError as exc:
        for p in exc.problems:
            print(p.format(), file=sys.stderr)
        n = sum(1 for p in exc.problems if p.severity == ERROR)
        print(f"{n} error(s); nothing was written", file=sys.stderr)
        return INVALID
    if args.action == "export":
        print(f"wrote {len(written)} file(s) to {args.out}", file=sys.stderr)
        return SUCCESS
    for p in result.warnings:
        print(p.format(), file=sys.stderr)
    counts = ", ".join(f"{v} {k}" for k, v in result.counts.items())
    if args.check:
        print(f"{args.format}: the input is valid ({counts}); nothing was written", file=sys.stderr)
        return SUCCESS
    print(f"converted {args.format}: {counts} -> {result.out}", file=sys.stderr)
    print("score and compare with:", file=sys.stderr)
    for line in result.commands():
        print(f"  {line}", file=sys.stderr)
    return SUCCESS


def _score(args: argparse.Namespace) -> int:
    import importlib
    import json

    from evaluation.convert import TRACK_SCORERS

    module, func = TRACK_SCORERS[args.track]
    doc = getattr(importlib.import_module(module), func)(args.topics, args.judgments, args.runs)
    for w in doc.get("warnings", []):
        print(f"warning: {w}", file=sys.stderr)
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return SUCCESS
    from rich.console import Console
    from rich.table import Table

    metrics = doc["settings"]["metrics"]
    t = Table(title=f"{args.track}: mean over topics")
    # Run names are shown whole: runs that share a long prefix must not print as one name.
    run_width = max([3, *(len(r) for r in doc["runs"])])
    t.add_column("run", no_wrap=True, min_width=run_width)
    for m in metrics:
        t.add_column(m, justify="right")
    for run, d in doc["runs"].items():
        t.add_row(run, *(f"{d['mean'][m]:.4f}" for m in metrics))
    console = Console(width=max(100, run_width + 4 + 16 * len(metrics)))
    console.print(t)
    console.print(doc["signature"], highlight=False, soft_wrap=True)
    return SUCCESS
