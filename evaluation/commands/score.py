"""``bolt score``: score runs from judgments (SPEC §6, §8), with a signature that reproduces every number."""
from __future__ import annotations

from indexing.atomic import atomic_write_text

import argparse
import csv
import io
import json
import sys
from pathlib import Path

from bolt.exit_codes import SUCCESS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", nargs="+", metavar="RUN.xml", help="submission files to score together")
    p.add_argument("--topics", required=True, help="topics file with facets (the updated one, if any)")
    p.add_argument("--judgments", required=True, nargs="+", metavar="FILE",
                   help="judgments JSONL files (human or 'bolt assess'); one judgment per bullet overall")
    p.add_argument("--json", action="store_true", help="write one JSON document to standard output")
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
    p.add_argument("--holistic", metavar="FILE", help="holistic judgments (TSV or JSONL): adds holistic")
    p.add_argument("--series-types", metavar="FILE",
                   help="TSV topic<TAB>type (factoid|list|other): series scores use the TREC 2004 weights")


def _unit_resolver(args):
    """(thread, offset) -> post id from the corpus, or None without --corpus/--index."""
    if not (args.corpus or args.index):
        return None, "judgments-or-offset"
    from indexing.corpus import open_corpus

    corpus = open_corpus(paths=args.corpus, index_dir=args.index)

    def unit_of(thread_id: str, offset: int) -> str | None:
        thread = corpus.get(thread_id)
        if thread is None:
            return None
        post = thread.post_at(offset)
        return post.id if post is not None else None

    return unit_of, "corpus"


def _read_series_types(path: str) -> dict[str, str]:
    from indexing.errors import ToolkitError

    out = {}
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 2 or cells[1].strip() not in ("factoid", "list", "other"):
            raise ToolkitError("expected topic<TAB>factoid|list|other", file=path, line=lineno,
                               hint="one topic per line, its question type after a tab")
        out[cells[0].strip()] = cells[1].strip()
    return out


def compute(args) -> "ScoreReport":  # noqa: F821 - for callers (demo, benchmarks) that want the report
    from bolt.submission import read_run
    from bolt.topics import read_topics, read_votes
    from evaluation.judgments import file_sha256, load_judgments, read_holistic
    from evaluation.scoring import build_stats, choose_metrics, report, settings_dict

    topics = read_topics(args.topics)
    runs = [read_run(p) for p in args.runs]
    sets = [load_judgments(p) for p in args.judgments]
    votes = read_votes(args.votes) if args.votes else None
    hol = read_holistic(args.holistic) if args.holistic else None
    unit_of, units = _unit_resolver(args)
    table = build_stats(topics, runs, sets, avg_nugget_words=args.avg_nugget_words, votes=votes,
                        holistic_judgments=hol, unit_of=unit_of)
    metrics = choose_metrics(beta=args.beta, err_denominator=args.err_denominator, votes=votes is not None,
                             holistic_file=hol is not None)
    extra = {"votes_sha256": file_sha256(args.votes) if args.votes else None,
             "holistic_sha256": file_sha256(args.holistic) if args.holistic else None,
             "series": "trec2004" if args.series_types else "macro"}
    settings = settings_dict(metrics, table, judgments=sets, topics_count=len(topics),
                             topics_sha256=file_sha256(args.topics), units=units, extra=extra)
    types = _read_series_types(args.series_types) if args.series_types else None
    return report(topics, table, metrics, settings, series_types=types)


def _csv_text(rep) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["run", "topic", *rep.metrics])
    for run, by_topic in rep.topics.items():
        for topic, scores in by_topic.items():
            w.writerow([run, topic, *(f"{scores[m]:.6f}" for m in rep.metrics)])
        w.writerow([run, "all", *(f"{rep.means[run][m]:.6f}" for m in rep.metrics)])
    return buf.getvalue()


def _write_atomic(path: str, text: str) -> None:
    atomic_write_text(path, text, newline="")


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


def run(args) -> int:
    rep = compute(args)
    unjudged = sum(rep.unjudged.values())
    if unjudged:
        print(f"warning: {unjudged} bullet(s) of the runs have no judgment and count as irrelevant with "
              f"unsupported sources; judge them (bolt assess) to score them", file=sys.stderr)
    if args.csv:
        _write_atomic(args.csv, _csv_text(rep))
    if args.json:
        sys.stdout.write(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        _table(rep)
    return SUCCESS
