"""``bolt index PATH... --out DIR [--backend lucene|bm25] [--force]``, ``bolt index --add-vectors DIR``
and ``bolt index --check DIR``.

Builds an index folder (see ``indexing.search``) with a progress bar (threads/s) on standard error,
then encodes what the system's encoders read into it (:mod:`bolt.vectors.build`, a bar per encoder;
``--no-vectors`` skips that, for the reference systems), prints a summary per language, and reports
unreadable threads. ``--add-vectors`` encodes into an existing index (only the texts it lacks).
``--check`` re-hashes the inputs listed in the folder's manifest and exits 1 when any changed.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

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
    vectors = parser.add_argument_group("vectors (what main's encoders read, encoded once into the index)")
    vectors.add_argument("--add-vectors", metavar="DIR",
                         help="encode into the existing index DIR the vectors --system reads (only texts it lacks)")
    vectors.add_argument("--no-vectors", action="store_true",
                         help="build without vectors (enough for lead and bm25-sentences; main refuses such an index)")
    vectors.add_argument("--system", default="main", metavar="SPEC",
                         help="the system whose vectors to encode, as 'bolt run --system' takes it (default: main)")
    vectors.add_argument("--workers", type=int, default=1, metavar="N",
                         help="encode on N local Ray workers (same vectors, byte for byte, whatever N)")
    vectors.add_argument("--ray-address", metavar="ADDR", help="encode on the running Ray cluster at ADDR")
    vectors.add_argument("--vectors-from", action="append", default=[], metavar="DIR",
                         help="reuse the vectors of another index DIR (same encoder and settings) for texts it holds")
    vectors.add_argument("--ann-min-rows", type=int, metavar="N",
                         help="give a swept language with more than N sentences an approximate index "
                              "(default 200000; 0: every swept language)")
    parser.add_argument("--check", metavar="DIR", help="verify an index's manifest against its inputs, then exit")
    parser.add_argument("--json", action="store_true", help="print the manifest (or the check result) as JSON")


def run(args: argparse.Namespace) -> int:
    if args.check:
        return _check(args)
    if args.add_vectors:
        if args.paths or args.out:
            print("error: --add-vectors DIR takes no PATH or --out; see 'bolt index --help'", file=sys.stderr)
            return USAGE
        return _report_vectors(args, args.add_vectors, add_vectors_to(args, args.add_vectors))
    if not args.paths or not args.out:
        print("error: give PATH... and --out DIR (or --add-vectors DIR, or --check DIR); see 'bolt index --help'",
              file=sys.stderr)
        return USAGE
    from indexing.encoding import STRICT
    from indexing.search import build_index

    with earlier_vectors(args.out if args.force and not args.no_vectors else None) as reuse:
        manifest = build_index(args.paths, args.out, backend=args.backend, force=args.force,
                               progress=show_progress(args) and not args.json, lang=args.lang,
                               skip_bad=args.skip_bad, encoding_errors=args.encoding_errors or STRICT)
        tables = {} if args.no_vectors else add_vectors_to(args, args.out, reuse)
    for line in manifest["bad"] + manifest["warnings"]:
        print(f"warning: {line}", file=sys.stderr)
    if args.json:
        print(json.dumps({**manifest, "vectors": tables}, indent=2, ensure_ascii=False))
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
    if args.no_vectors:
        print("  vectors: none (--no-vectors; main needs 'bolt index --add-vectors DIR')")
    return _report_vectors(args, args.out, tables, summary_only=True)


def add_vectors_to(args: argparse.Namespace, index_dir: str, reuse=()) -> dict:
    """Encode into ``index_dir`` the vectors of ``--system`` (see :func:`bolt.vectors.build.add_vectors`)."""
    from bolt import api
    from bolt.vectors.build import add_vectors
    from indexing.vectors.ann import EXACT_MAX_ROWS

    min_rows = EXACT_MAX_ROWS if args.ann_min_rows is None else args.ann_min_rows
    return add_vectors(index_dir, api.config(args.system), workers=args.workers, address=args.ray_address,
                       progress=show_progress(args) and not args.json, ann_min_rows=min_rows,
                       reuse=[*reuse, *args.vectors_from])


@contextlib.contextmanager
def earlier_vectors(index_dir: str | None):
    """The vector tables of the index being replaced, linked aside so the new build reuses them
    (adding threads encodes only the new ones); removed afterwards."""
    src = Path(index_dir) / "vectors" if index_dir else None
    if src is None or not src.is_dir():
        yield []
        return
    with tempfile.TemporaryDirectory(prefix=".bolt-vectors-", dir=Path(index_dir).resolve().parent) as tmp:
        aside = Path(tmp) / "old"
        shutil.copytree(src, aside / "vectors", copy_function=_link_or_copy)
        yield [aside]


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _report_vectors(args: argparse.Namespace, index_dir: str, tables: dict, summary_only: bool = False) -> int:
    if args.json and not summary_only:
        print(json.dumps({"index": index_dir, "vectors": tables}, indent=2, ensure_ascii=False))
        return SUCCESS
    if args.json:
        return SUCCESS
    for key, m in tables.items():
        rate = f", {m['texts_per_second']} texts/s" if m.get("texts_per_second") else ""
        ann = "".join(f", {lang} approximate ({a['rows']} sentences)" for lang, a in (m.get("ann") or {}).items())
        print(f"  vectors {key}: {m['distinct']} texts ({m['encoded']} encoded in {m['encode_seconds']} s{rate}, "
              f"{m['reused']} reused){ann}")
    if not tables and not summary_only:
        print(f"vectors: {index_dir} needs none for --system {args.system}")
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
