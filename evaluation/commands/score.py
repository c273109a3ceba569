"""``bolt score``: score runs from judgments (SPEC §6, §8), with a signature that reproduces every number.

The scoring is ``evaluation.api.score``; this module parses the options and prints the report it
returns (table, ``--json``, ``-q``) and the warnings of its notes.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from bolt.commands.encoding_option import add_encoding_option
from indexing.exit_codes import SUCCESS

if TYPE_CHECKING:  # pragma: no cover
    from evaluation.results import ScoreReport


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN.xml", help="submission files to score together")
    p.add_argument("--topics", required=True, metavar="FILE", help="topics file with facets (the updated one, if any)")
    p.add_argument("--judgments", required=True, nargs="+", metavar="FILE",
                   help="judgments JSONL files (human or 'bolt assess'); one judgment per bullet overall")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--json", action="store_true", help="write one JSON document to standard output")
    how.add_argument("-q", "--by-topic", action="store_true",
                     help="trec_eval-style lines on standard output: METRIC<TAB>TOPIC<TAB>SCORE for each topic, "
                     "then METRIC<TAB>all<TAB>MEAN (several runs: the run name first)")
    p.add_argument("--csv", metavar="FILE", help="also write per-topic scores (and means) as CSV")
    p.add_argument("--beta", type=float, default=3.0, help="beta of nugget_F and pyramid_F (5: TREC 2003)")
    p.add_argument("--votes", metavar="FILE", help="vital/okay votes TSV: adds pyramid_F")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--err-residual", dest="err_denominator", action="store_const", const="residual",
                   help="ERR's q divides by the facet's relevant units not yet cited (the default)")
    g.add_argument("--err-total", dest="err_denominator", action="store_const", const="total",
                   help="ERR's q divides by all of the facet's relevant units |C_i|")
    p.set_defaults(err_denominator="residual")
    p.add_argument("--avg-nugget-words", type=float, default=None, metavar="X",
                   help="words per nugget for P_n's estimate of incorrect nuggets (default: from the topics)")
    c = p.add_mutually_exclusive_group()
    c.add_argument("--corpus", nargs="+", metavar="PATH", help="collection, to place nugget citations in posts")
    c.add_argument("--index", metavar="DIR", help="index folder, to place nugget citations in posts")
    add_encoding_option(p)
    p.add_argument("--holistic", metavar="FILE", help="holistic judgments (TSV or JSONL): adds holistic")
    p.add_argument("-m", "--metric", dest="only", action="append", default=None, metavar="METRIC",
                   help="report only this metric (repeatable, trec_eval's -m), e.g. -m F_GD -m 'nugget_F(beta=5)'; "
                   "a bare name takes --beta and --err-*; left out: P_n R_n P_c R_c F_c F_GD ERR nugget_F "
                   "(and pyramid_F with --votes, holistic with --holistic)")
    p.add_argument("--also", action="append", default=[], metavar="METRIC",
                   help="also report this metric, e.g. 'nugget_F(beta=5)' beside nugget_F (repeatable); "
                        "results of two metrics of one name are keyed by their repr")
    p.add_argument("--judged-only", action="store_true",
                   help="score only the topics whose every bullet, in every run, has a finished judgment "
                        "(a campaign halfway through: the means are over those topics)")
    p.add_argument("--correct-with", metavar="PEOPLE.jsonl",
                   help="people's judgments of a random sample of the bullets: also estimate each run's R_n, "
                        "P_n and F_GD from the machine's judgments corrected by that sample, with 95%% intervals "
                        "(docs/assessor.md)")
    p.add_argument("--series-types", metavar="FILE",
                   help="TSV topic<TAB>type (factoid|list|other): series scores use the TREC 2004 weights")


def compute(args) -> "ScoreReport":
    """The score report for parsed ``bolt score`` arguments (``evaluation.api.score``)."""
    from evaluation.api import score
    from evaluation.commands.assess import judged_policy

    policy = None
    if args.corpus or args.index:
        policy, note = judged_policy(args, args.judgments)
        if note:
            print(f"note: {note}", file=sys.stderr)
    return score(args.runs, args.topics, args.judgments, beta=args.beta, err_denominator=args.err_denominator,
                 avg_nugget_words=args.avg_nugget_words, votes=args.votes, holistic=args.holistic,
                 corpus=args.corpus, index=args.index, series_types=args.series_types,
                 also=_parse_metrics(getattr(args, "also", None) or [], "--also"), encoding_errors=policy,
                 judged_only=getattr(args, "judged_only", False), only=_only(getattr(args, "only", None)))


def _only(texts: list[str] | None) -> list[str] | None:
    """The ``-m`` metrics as given (checked here, parsed by ``choose_metrics``), or None."""
    if texts is None:
        return None
    _parse_metrics(texts, "-m")
    return texts


def _parse_metrics(texts: list[str], option: str) -> list:
    from evaluation.metrics import parse_metrics
    from indexing.errors import ToolkitError

    try:
        return parse_metrics(texts)
    except ValueError as exc:
        raise ToolkitError(f"{option}: {exc}",
                           hint=f"give a metric as its repr, e.g. {option} 'nugget_F(beta=5)'") from None


def by_topic_lines(rep) -> list[str]:
    """trec_eval ``-q`` lines: each topic's metrics, then each metric's mean over topics as topic
    ``all``; the run name first when several runs are scored together."""
    several = len(rep.topics) > 1
    out: list[str] = []
    for run, by_topic in rep.topics.items():
        lead = f"{run}\t" if several else ""
        for topic, scores in by_topic.items():
            out.extend(f"{lead}{m:<22}\t{topic}\t{scores[m]:.4f}" for m in rep.metrics if m in scores)
        means = rep.means.get(run, {})
        out.extend(f"{lead}{m:<22}\tall\t{means[m]:.4f}" for m in rep.metrics if m in means)
    return out


def _table(rep) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title="mean over topics", show_lines=False)
    t.add_column("run")
    for m in rep.metrics:
        t.add_column(m, justify="right")
    for run, means in rep.means.items():
        t.add_row(run, *(f"{means[m]:.4f}" for m in rep.metrics))
    console = Console(width=max(100, 12 * (len(rep.metrics) + 2)))
    console.print(t)
    first = rep.metrics[0] if rep.metrics else None
    zero = {m: len(ts) for m, ts in rep.zero_median.items()}
    if first is not None:
        console.print("topics whose median over runs is zero: "
                      + ", ".join(f"{m} {n}" for m, n in zero.items()), highlight=False)
    console.print(rep.signature, highlight=False, soft_wrap=True)


def warn_notes(rep) -> None:
    """The scorer's notes as warnings: unknown facet ids, unfinished judgments, topics left out."""
    from evaluation.judgments import unknown_facets_warning

    notes = rep.notes
    if notes.get("unknown_facets"):
        print("warning: " + unknown_facets_warning(notes["unknown_facets"], notes["topics_file"],
                                                   notes.get("judged_with", ())), file=sys.stderr)
    if notes.get("unfinished"):
        print(f"warning: {notes['unfinished']} judgment(s) are unfinished (\"complete\": false: Done was never "
              "pressed) and are scored as they stand; finish them in bolt judge, or give --judged-only",
              file=sys.stderr)
    counts = notes.get("word_counts") or []
    if counts:
        shown = "; ".join(f"topic {t} run {r} bullet {k}: {given} given, {counted} in its text"
                          for t, r, k, given, counted in counts[:5])
        print(f"warning: {len(counts)} judgment(s) give a word count that differs from the bullet text's by the "
              f"word rule ({shown}{'; ...' if len(counts) > 5 else ''}); the text's count is used, keeping the "
              "judgment's struck words (docs/judgments.md: leave \"words\" out)", file=sys.stderr)
    left = notes.get("left_out") or {}
    if left:
        part, empty = left.get("unfinished", []), left.get("no_bullets", [])
        print(f"--judged-only: left out {len(part)} topic(s) not judged in full"
              + (f" ({', '.join(part[:10])}{', ...' if len(part) > 10 else ''})" if part else "")
              + f" and {len(empty)} the runs give no bullet for", file=sys.stderr)


def machine_error_notes(paths) -> list[str]:
    """For each judgments file the automatic assessor wrote at the forum operating point: its stated
    error on forum runs (``bolt assess`` records it in the header), so the scores carry it."""
    from evaluation.commands.assess import stated_error
    from evaluation.judgments import read_header

    notes = []
    for path in paths:
        header = read_header(path) or {}
        text = stated_error(header) if str(header.get("assessor", "")).startswith("auto:") else None
        if text:
            notes.append(f"note: {path}: {text}")
    return notes


def run(args) -> int:
    rep = compute(args)
    warn_notes(rep)
    for line in machine_error_notes(args.judgments):
        print(line, file=sys.stderr)
    unjudged = sum(rep.unjudged.values())
    if unjudged:
        print(f"warning: {unjudged} bullet(s) of the runs have no judgment and count as irrelevant with "
              f"unsupported sources; judge them (bolt assess) to score them", file=sys.stderr)
    for run_id, n in rep.machine_support.items():
        print(f"warning: run {run_id}: the support of {n} cited source(s) was decided by the machine, not a person "
              "(judged_by: machine); scored as they stand (support_by_machine in --json); to have people decide them, "
              "judge the runs with 'bolt judge --prefill' on these judgments", file=sys.stderr)
    if args.csv:
        rep.write_csv(args.csv)
    fixed = _corrected(args, rep) if getattr(args, "correct_with", None) else None
    if args.json:
        if fixed is None:
            sys.stdout.write(rep.dumps())
        else:
            import json

            sys.stdout.write(json.dumps(dict(rep.to_json(), corrected=fixed), indent=2, ensure_ascii=False) + "\n")
    elif getattr(args, "by_topic", False):
        sys.stdout.write("".join(line + "\n" for line in by_topic_lines(rep)))
        if fixed is not None:  # the trec_eval lines stay clean
            print_corrected(fixed, args.correct_with, file=sys.stderr)
    else:
        _table(rep)
        if fixed is not None:
            print_corrected(fixed, args.correct_with)
    return SUCCESS


def _corrected(args, rep) -> dict:
    """The sample-corrected estimates for the scored runs (``evaluation.api.corrected``); the
    machine's judgments are those of the ``--judgments`` files."""
    from evaluation.api import corrected
    from evaluation.judgments import read_judgments
    from indexing.errors import ToolkitError

    machine = [j for p in args.judgments for j in read_judgments(p)]
    people = read_judgments(args.correct_with)
    keys = {j.key for j in machine}
    if not any(j.key in keys for j in people):
        raise ToolkitError("--correct-with: none of its judgments is of a bullet the --judgments files judge",
                           file=str(args.correct_with),
                           hint="give people's judgments of a random sample of these runs' bullets (same topic, "
                                "run and bullet keys)")
    return corrected(args.topics, machine, people, runs=rep.runs)


def print_corrected(fixed: dict, source: str, file=None) -> None:
    """One line per run: each metric's machine score, the corrected estimate and its interval."""
    print(f"sample-corrected (people's judgments of a random sample: {source}; machine -> estimate [95% CI]):",
          file=file)
    for run, by_m in fixed.items():
        figs = ", ".join(f"{m} {c['machine']:.3f} -> {c['estimate']:.3f} "
                         + (f"[{c['ci'][0]:.3f}, {c['ci'][1]:.3f}]" if c["ci"] else "[no interval]")
                         for m, c in by_m.items())
        n = next(iter(by_m.values()))
        print(f"  {run}: {figs} ({n['sampled']} of {n['bullets']} bullets sampled)", file=file)
