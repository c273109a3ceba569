"""``bolt assess``: judge runs automatically (SPEC §5) and write a judgments file the scorer reads.

One judgment per bullet of every run, written atomically; the first line (``{"_meta": ...}``)
records the assessor's name and version, every threshold and the embedding model id, so a score
computed from the file can say exactly how its judgments were made. A per-run summary follows on
standard output (``--json``: one JSON document instead). The judging itself is
``evaluation.api.assessment``; this module parses the options, writes the file and prints.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable, Iterator

from bolt.commands.encoding_option import add_encoding_option
from bolt.commands.output_options import add_output_options, show_progress
from indexing.exit_codes import SUCCESS
from evaluation.assessor import AssessorConfig

_DEFAULT = AssessorConfig()


def add_judging_inputs(parser: argparse.ArgumentParser, out_help: str = "judgments file to write") -> None:
    """The options every judging command shares: runs, topics, the collection, the judgments file."""
    parser.add_argument("runs", nargs="+", metavar="RUN.xml", help="submission files to judge")
    parser.add_argument("--topics", required=True, metavar="FILE", help="topic file with facets and nuggets")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--corpus", nargs="+", metavar="PATH", help="thread files or folders the runs cite")
    src.add_argument("--index", metavar="DIR", help="an index folder built by 'bolt index' (its thread store)")
    parser.add_argument("--out", required=True, metavar="JUDGMENTS.jsonl", help=out_help)
    add_encoding_option(parser)


def judged_policy(args: argparse.Namespace, judgments: Iterable[str] = ()) -> tuple[str, str | None]:
    """The ``--encoding-errors`` policy to read the collection with, and a note (or None): the one
    given, else the one the index or the judgments files (``judgments``: those this command
    continues from or reads) record; files that disagree, or a given policy that differs, are an
    error with the fix (``indexing.encoding.resolve_policy``)."""
    from evaluation.judgments import read_header
    from indexing.encoding import MANIFEST_KEY, resolve_policy
    from indexing.manifest import recorded_policy

    records = [(recorded_policy(args.index), str(args.index))] if args.index else []
    for path in judgments:
        header = read_header(path) or {}
        records.append((header.get(MANIFEST_KEY), str(path)))
    return resolve_policy(args.encoding_errors, records)


def open_judged_corpus(args: argparse.Namespace, judgments: Iterable[str] = ()):
    """The collection the runs cite, read under ``judged_policy``; prints the reader's note and warnings."""
    from bolt.commands.encoding_option import report_read
    from indexing.corpus import open_corpus

    policy, note = judged_policy(args, judgments)
    corpus = open_corpus(paths=args.corpus, index_dir=args.index, encoding_errors=policy)
    corpus.note = note
    report_read(corpus, quiet=getattr(args, "quiet", False))
    return corpus


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_judging_inputs(parser)
    parser.add_argument("--model", default=None, metavar="NAME",
                        help="sentence-transformers model name or local path (default: the bundled "
                        "all-MiniLM-L6-v2, or $BOLT_EMBEDDING_MODEL)")
    parser.add_argument("--lexical-threshold", type=float, default=_DEFAULT.lexical_threshold, metavar="X",
                        help="fraction of a facet text's stemmed content terms a bullet must contain")
    parser.add_argument("--lexical-min-terms", type=int, default=_DEFAULT.lexical_min_terms, metavar="N",
                        help="shared content terms needed as well (capped at the facet text's own count)")
    parser.add_argument("--semantic-threshold", type=float, default=_DEFAULT.semantic_threshold, metavar="Y",
                        help="cosine similarity of sentence embeddings needed for a semantic match")
    parser.add_argument("--support-lexical-threshold", type=float, default=_DEFAULT.support_lexical_threshold,
                        metavar="X", help="fraction of a bullet's content terms the cited text must contain")
    parser.add_argument("--support-semantic-threshold", type=float, default=_DEFAULT.support_semantic_threshold,
                        metavar="Y", help="cosine of bullet and cited text needed for semantic support")
    parser.add_argument("--decision", choices=("statement", "overlap"), default=_DEFAULT.decision,
                        help="text matching: 'statement' (does the bullet state the facet? a fitted "
                        "logistic regression, docs/assessor.md) or 'overlap' (the 0.1 rules: lexical or "
                        "semantic threshold)")
    parser.add_argument("--statement-model", default=None, metavar="FILE",
                        help="statement model JSON (default: the one shipped in evaluation/matching)")
    parser.add_argument("--statement-threshold", type=float, default=None, metavar="P",
                        help="probability needed for a statement match (default: the model's own)")
    parser.add_argument("--no-crosslingual", action="store_true",
                        help="match Arabic and Chinese bullets by anchoring alone (no multilingual encoder)")
    parser.add_argument("--crosslingual-threshold", type=float, default=_DEFAULT.crosslingual_threshold,
                        metavar="P", help="probability needed to match an Arabic or Chinese bullet to a facet "
                        "(default: the cross-language model's own, per language)")
    parser.add_argument("--operating-point", choices=("forum", "model"), default=_DEFAULT.operating_point,
                        help="where thresholds not given come from: 'forum' (chosen so that per-run scores of "
                        "forum runs are unbiased against careful readers; docs/assessor.md) or 'model' (each "
                        "model's own, chosen for agreement per bullet)")
    parser.add_argument("--no-semantic", action="store_true",
                        help="match by anchoring and lexical overlap only (no embedding model)")
    parser.add_argument("--reuse", nargs="+", default=[], metavar="HUMAN.jsonl",
                        help="people's judgments (from 'bolt judge'): used where they judged the same bullet text, "
                        "the machine's elsewhere; each judgment says which (judged_by)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    add_output_options(parser)


def config_from_args(args: argparse.Namespace) -> AssessorConfig:
    """The assessor configuration the options describe (bad values: a usage-level ToolkitError)."""
    from indexing.errors import ToolkitError

    try:
        return AssessorConfig(lexical_threshold=args.lexical_threshold, lexical_min_terms=args.lexical_min_terms,
                              semantic_threshold=args.semantic_threshold,
                              support_lexical_threshold=args.support_lexical_threshold,
                              support_semantic_threshold=args.support_semantic_threshold,
                              semantic=not args.no_semantic,
                              model=args.model, decision=args.decision,
                              statement_model=args.statement_model,
                              statement_threshold=args.statement_threshold,
                              crosslingual=not args.no_crosslingual,
                              crosslingual_threshold=args.crosslingual_threshold,
                              operating_point=args.operating_point)
    except ValueError as exc:
        raise ToolkitError(str(exc), hint="see 'bolt assess --help' for the allowed values") from None


def decided_by(model, threshold: float) -> str:
    """One line naming the model that decided text matches and its agreement with people held out
    by source (fitted on the other sources), as its file records it."""
    held = model.fit_notes.get("held_out_by_source") or {}
    figs = "; ".join(f"{s} kappa {f['kappa']:.2f} [{f['kappa_ci'][0]:.2f}, {f['kappa_ci'][1]:.2f}]"
                     for s, f in held.items())
    return (f"text matches decided by statement model {model.name!r} ({', '.join(model.features)}; p >= {threshold}); "
            + (f"agreement with people held out by source: {figs}" if figs else
               "no held-out-by-source agreement recorded for this model"))


def crosslingual_transfer(model) -> str | None:
    """One line giving the cross-language decision's agreement with people on fresh topics it was
    never fitted on, per language, as its file records it (None when it records none): the
    held-out-by-topic figures of its fit do not all carry over, and a user should see that."""
    fresh = model.fit_notes.get("fresh_test") or {}
    figs = "; ".join(f"{lang} kappa {f['kappa']:.2f} [{f['kappa_ci'][0]:.2f}, {f['kappa_ci'][1]:.2f}] ({f['topics']})"
                     for lang, f in sorted(fresh.items()) if isinstance(f, dict))
    if not figs:
        return None
    return (f"Arabic and Chinese bullets decided by cross-language model {model.name!r}; agreement with people "
            f"on fresh topics: {figs}; where kappa is low, treat those figures as estimates")


def stated_error(header: dict) -> str | None:
    """What a judgments header says the assessor's error on forum runs is (the forum operating
    point's held-out bias per language and metric), or None when it was not judged at that point."""
    from evaluation.matching.operating_point import OperatingPoint, stated_error_text

    point = header.get("operating_point")
    if not point or not point.get("languages"):
        return None
    return stated_error_text(OperatingPoint.from_dict(point))


def summarize(judgments: Iterable, stats: dict) -> Iterator:
    """Pass judgments through while counting, per run, bullets, matched bullets and supporting sources."""
    for j in judgments:
        s = stats.setdefault(j.run, {"bullets": 0, "matched": 0, "supported": 0, "sources": 0,
                                     "supporting_sources": 0})
        s["bullets"] += 1
        s["matched"] += bool(j.facets)
        s["supported"] += any(src.supports for src in j.sources)
        s["sources"] += len(j.sources)
        s["supporting_sources"] += sum(src.supports for src in j.sources)
        yield j


def run(args: argparse.Namespace) -> int:
    from evaluation.api import assessment
    from evaluation.judgments import write_judgments
    from evaluation.judgments.reuse import same_file
    from indexing.errors import ToolkitError

    config = config_from_args(args)
    if any(same_file(p, args.out) for p in args.reuse):
        raise ToolkitError("--out is also given as --reuse", file=str(args.out),
                           hint="write the mixed judgments to a new file")
    corpus = open_judged_corpus(args)
    result = assessment(args.runs, args.topics, collection=corpus, config=config, reuse=args.reuse,
                        progress=show_progress(args) and sys.stderr.isatty())
    if result.reuse_warning:
        print(f"warning: --reuse: {result.reuse_warning}", file=sys.stderr)
    assessor, header, reused = result.assessor, result.header, result.judged_by
    stats: dict[str, dict] = {r.run_id: {"bullets": 0, "matched": 0, "supported": 0, "sources": 0,
                                         "supporting_sources": 0} for r in result.runs}
    write_judgments(summarize(result.judgments, stats), args.out, header)
    if args.json:
        doc = {"out": str(args.out), "assessor": config.name, "config": repr(config),
               "statement_model": (None if assessor.statement is None else
                                   {"name": assessor.statement.name,
                                    "held_out_by_source": assessor.statement.fit_notes.get("held_out_by_source")}),
               "model": header["model"], "runs": stats,
               "texts_embedded": assessor.stats.texts_embedded}
        if reused is not None:
            doc["judged_by"] = reused
        if header.get("operating_point"):
            doc["operating_point"] = header["operating_point"]
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return SUCCESS
    width = max([len("run")] + [len(r) for r in stats])
    print(f"{'run':<{width}}  bullets  matched  supported  sources  supporting")
    for name, s in stats.items():
        print(f"{name:<{width}}  {s['bullets']:>7}  {s['matched']:>7}  {s['supported']:>9}  "
              f"{s['sources']:>7}  {s['supporting_sources']:>10}")
    print(f"wrote {sum(s['bullets'] for s in stats.values())} judgments to {args.out} "
          f"({config.name}; {config!r}; model {header['model'] or 'none'})")
    if assessor.statement is not None:
        print(decided_by(assessor.statement, assessor.statement_threshold))
    if config.crosslingual:
        from evaluation.matching.crosslingual import load_cross_model

        line = crosslingual_transfer(load_cross_model())
        if line:
            print(line)
    line = stated_error(header)
    if line:
        print(line)
    if reused is not None:
        print(f"judged by people: {reused['human']}, partly (some sources the machine's): {reused['mixed']}, "
              f"by the machine: {reused['machine']} (from {', '.join(map(str, args.reuse))})")
    return SUCCESS
