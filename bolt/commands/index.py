"""``bolt index PATH... --out DIR [--backend lucene|bm25] [--force]`` and ``bolt index --check DIR``.

Builds an index folder (see ``indexing.search``) with a progress bar (threads/s) on standard error,
prints a summary per language, and reports unreadable threads. ``--check`` re-hashes the inputs
listed in the folder's manifest and exits 1 when any changed.
"""
from __future__ import annotations

import argparse
import json
import sys

from bolt.commands.encoding_option import add_encoding_option
from bolt.commands.output_options import add_output_options, show_progress
from indexing.exit_codes import INVALID, SUCCESS, USAGE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help=".xml, .xml.gz, .zip files or folders")
    parser.add_argument("--out", metavar="DIR", help="the index folder to build")
    parser.add_argument("--backend", choices=("lucene", "bm25"), default="lucene",
                        help="lucene (pyserini, on disk) or bm25 (rank-bm25, in memory when opened)")
    parser.add_argument("--force", action="store_true", help="replace an existing index at --out")
    parser.add_argument("--lang", choices=("eng", "arz", "cmn"), help="override the language of every thread")
    parser.add_argument("--skip-bad", action="store_true",
                        help="skip unreadable threads (reported as warnings) instead of stopping at the first")
    add_encoding_option(parser)
    add_output_options(parser)
    parser.add_argument("--check", metavar="DIR", help="verify an index's manifest against its inputs, then exit")
    parser.add_argument("--json", action="store_true", help="print the manifest (or the check result) as JSON")


def run(args: argparse.Namespace) -> int:
    if args.check:
        return _check(args)
    if not args.paths or not args.out:
        print("error: give PATH... and --out DIR (or --check DIR); see 'bolt index --help'", file=sys.stderr)
        return USAGE
    from indexing.encoding import STRICT
    from indexing.search import build_index

    manifest = build_index(args.paths, args.out, backend=args.backend, force=args.force,
                           progress=show_progress(args) and not args.json, lang=args.lang,
                           skip_bad=args.skip_bad, encoding_errors=args.encoding_errors or STRICT)
    for line in manifest["bad"] + manifest["warnings"]:
        print(f"warning: {line}", file=sys.stderr)
    if args.json:
        print(json.dumps(manifest, indent=2, ensure_ascii=False))
        return SUCCESS
    print(f"index: {args.out} ({manifest['backend']}, {len(manifest['inputs'])} input files)")
    for lang, c in manifest["counts"].items():
        print(f"  {lang}: {c['threads']} threads, {c['posts']} posts, {c['passages']} passages, "
              f"{c['post_units']} post units ({c['quoted_units']} quoted units)")
    if manifest["bad"]:
        print(f"  skipped: {len(manifest['bad'])} unreadable threads or files (see warnings)")
    read = manifest["read"]
    if read["threads_repaired"] or read["duplicates_read_once"]:
        print(f"  read with --encoding-errors {read['encoding_errors']}: threads repaired: {read['threads_repaired']} "
              f"({read['bad_bytes']} bytes not UTF-8), {read['duplicates_read_once']} identical repeats read once")
    return SUCCESS


def _check(args: argparse.Namespace) -> int:
    from indexing.manifest import check_manifest, read_manifest

    problems = check_manifest(args.check)
    if args.json:
        print(json.dumps({"index": args.check, "ok": not problems, "problems": problems}, indent=2))
    else:
        for p in problems:
            print(f"error: {p}; rebuild with 'bolt index ... --out {args.check} --force'", file=sys.stderr)
        if not problems:
            n = len(read_manifest(args.check)["inputs"])
            print(f"ok: {args.check}: all {n} input files unchanged")
    return INVALID if problems else SUCCESS
