"""``bolt validate``: check submissions (or a topic file) and say exactly what to fix.

One line per finding on standard error (``error: run.xml:42: topic 1.001 bullet 3: ... [rule]``),
then a summary per file with counts by rule and the run's signature (what wrote it, from its
header), and a last line naming the checks that were skipped. ``--json`` has the signature's
fields under ``runs``.
Exit status 0 when there are no errors (warnings allowed), 1 when there are, 2 on usage errors.
"""
from __future__ import annotations

import argparse
import json
import sys

from bolt.commands.encoding_option import add_encoding_option, report_read
from indexing.exit_codes import INVALID, SUCCESS, USAGE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", nargs="*", metavar="RUN.xml",
                        help="submission files to check; none: check the --topics file itself")
    parser.add_argument("--topics", required=True, metavar="FILE",
                        help="the topic file the runs answer (or, with no runs, the file to check)")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--corpus", nargs="+", metavar="PATH",
                     help="thread files or folders: also check threads, offsets and the three-word rule")
    src.add_argument("--index", metavar="DIR", help="an index folder built by 'bolt index' (same checks as --corpus)")
    add_encoding_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="also print the findings as one JSON document on standard output "
                        "(the one-line findings still go to standard error)")


def _open_corpus(args: argparse.Namespace):
    if not args.corpus and not args.index:
        return None
    from indexing.corpus import open_corpus

    corpus = open_corpus(paths=args.corpus, index_dir=args.index, encoding_errors=args.encoding_errors)
    report_read(corpus)
    return corpus


def _counts(counter) -> str:
    return ", ".join(f"{rule}: {n}" for rule, n in counter.most_common())


def signature_line(header) -> str:
    """What a run's header says wrote it: its signature, else its system and settings, else that
    it says nothing (runs written before signatures, or by other tools)."""
    if header.signature is not None:
        return f"signature {header.signature}"
    if header.system or header.settings:
        return f"no signature; system {header.system or '?'}, settings {header.settings or '?'}"
    return "no signature (written before runs recorded one, or by another tool)"


def summary_lines(report) -> list[str]:
    """One line per file (counts by rule) and, for a run, the line saying what wrote it; then the
    totals and the skipped checks."""
    from indexing.problems import ERROR, WARNING

    lines = []
    files = list(report.files) or sorted({p.file for p in report.problems})
    extra = sorted({p.file for p in report.problems} - set(files))
    for f in files + extra:
        e, w = report.counts(f, ERROR), report.counts(f, WARNING)
        ne, nw = sum(e.values()), sum(w.values())
        line = f"{f}: {ne} error{'s' * (ne != 1)}"
        line += f" ({_counts(e)})" if ne else ""
        line += f", {nw} warning{'s' * (nw != 1)}"
        line += f" ({_counts(w)})" if nw else ""
        lines.append(line)
        if f in report.headers:
            lines.append(f"{f}: {signature_line(report.headers[f])}")
    verdict = "valid" if report.valid else "invalid"
    ne, nw = len(report.errors), len(report.warnings)
    total = (f"{verdict}: {ne} error{'s' * (ne != 1)}, {nw} warning{'s' * (nw != 1)} in {len(files)} "
             f"file{'s' * (len(files) != 1)}")
    if report.bullets:
        total += f" ({report.results} results, {report.bullets} bullets)"
    if report.skipped_checks:
        total += f"; skipped: {', '.join(report.skipped_checks)}"
    lines.append(total)
    return lines


def run(args: argparse.Namespace) -> int:
    from bolt import api
    from bolt.formats.validate import validate_topics

    if args.runs:
        corpus = _open_corpus(args)
        report = api.validate(args.runs, args.topics, corpus=corpus)
    elif args.topics:
        corpus = _open_corpus(args)
        report = validate_topics(args.topics, corpus)
    else:  # pragma: no cover - argparse requires --topics
        print("error: give RUN.xml files and --topics FILE, or --topics FILE alone", file=sys.stderr)
        return USAGE
    if args.json:
        json.dump(report.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    err = sys.stderr
    order = {f: i for i, f in enumerate(report.files)}
    for p in sorted(report.problems, key=lambda p: (order.get(p.file, -1), p.line or 0)):
        print(p.format(), file=err)
    for line in summary_lines(report):
        print(line, file=err)
    return SUCCESS if report.valid else INVALID
