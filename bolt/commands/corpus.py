"""``bolt corpus``: inspect a collection (``stats``) or the post and text at a citation (``show``).

``stats`` counts threads, posts and quotes per language; ``show`` prints the post that holds a raw
offset and the decoded text from that offset to the end of the post, so a user can check any
citation by hand. JSON shapes are SPEC §8's.
"""
from __future__ import annotations

import argparse
import json
import sys

from bolt.commands.encoding_option import add_encoding_option
from indexing.exit_codes import SUCCESS
from indexing.help_format import DefaultsHelpFormatter


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="<action>", required=True)
    st = sub.add_parser("stats", help="threads, posts and quotes per language; unreadable threads",
                        formatter_class=DefaultsHelpFormatter)
    st.add_argument("paths", nargs="+", metavar="PATH", help="thread files (.xml, .xml.gz, .zip) or folders")
    st.add_argument("--json", action="store_true", help="print one JSON document")
    st.add_argument("--skip-bad", action="store_true",
                    help="skip unreadable threads, count them and list them at the end (default: stop at the first)")
    st.add_argument("--lang", default=None, help="language of every thread (default: read from each thread id)")
    add_encoding_option(st)
    sh = sub.add_parser("show", help="the post holding an offset, and the decoded text from there",
                        formatter_class=DefaultsHelpFormatter)
    sh.add_argument("paths", nargs="*", metavar="PATH", help="thread files (.xml, .xml.gz, .zip) or folders")
    sh.add_argument("--index", default=None, metavar="DIR", help="read the thread from an index folder instead")
    sh.add_argument("--post", required=True, metavar="THREAD", help="thread id (a citation's post attribute)")
    sh.add_argument("--offset", required=True, type=int, help="raw code-point offset into the thread's XML")
    sh.add_argument("--json", action="store_true", help="print one JSON document")
    sh.add_argument("--skip-bad", action="store_true", help="skip unreadable threads while looking")
    add_encoding_option(sh)


def run(args: argparse.Namespace) -> int:
    if args.action == "stats":
        return _stats(args)
    return _show(args)


# --------------------------------------------------------------------------- stats


def _stats(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from indexing.encoding import STRICT
    from indexing.reader import BadThreads, iter_source_files, iter_threads

    files = list(iter_source_files(args.paths))
    bad = BadThreads()  # one log over all files, so a thread repeated across files is noticed too
    threads = posts = quotes = 0
    by_lang: dict[str, dict[str, int]] = {}
    bar = tqdm(files, desc="reading", unit="file", file=sys.stderr,
               disable=len(files) < 2 or not sys.stderr.isatty())
    for f in bar:
        for t in iter_threads(f, lang=args.lang, skip_bad=args.skip_bad, bad=bad,
                              encoding_errors=args.encoding_errors or STRICT):
            threads += 1
            posts += len(t.posts)
            quotes += t.quotes
            d = by_lang.setdefault(t.lang, {"threads": 0, "posts": 0})
            d["threads"] += 1
            d["posts"] += len(t.posts)
    result = {"threads": threads, "posts": posts, "quotes": quotes,
              "by_lang": dict(sorted(by_lang.items())), "errors": bad.messages(),
              "read": bad.counts(), "warnings": bad.warnings()}
    for msg in bad.messages():
        print(f"warning: skipped: {msg}", file=sys.stderr)
    for msg in bad.warnings():
        print(f"warning: {msg}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return SUCCESS
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(files)} file(s)")
    for col in ("language", "threads", "posts"):
        table.add_column(col, justify="right" if col != "language" else "left")
    for lang, d in result["by_lang"].items():
        table.add_row(lang, str(d["threads"]), str(d["posts"]))
    table.add_row("all", str(threads), str(posts), style="bold")
    console = Console()
    console.print(table)
    read = result["read"]
    console.print(f"quotes: {quotes}; skipped threads: {len(bad)}; read with --encoding-errors "
                  f"{read['encoding_errors']}: {read['threads_repaired']} threads repaired ({read['bad_bytes']} bytes "
                  f"not UTF-8); identical repeated threads read once: {read['duplicates_read_once']}")
    return SUCCESS


# --------------------------------------------------------------------------- show


def _find_thread(args: argparse.Namespace):
    from bolt.commands.encoding_option import report_read
    from indexing.errors import ToolkitError

    if args.index:
        from indexing.corpus import open_corpus

        corpus = open_corpus(index_dir=args.index, encoding_errors=args.encoding_errors)
        report_read(corpus)
        thread = corpus.get(args.post)
        where = args.index
    else:
        if not args.paths:
            raise ToolkitError("no corpus given", hint="give thread files or folders, or --index DIR")
        from indexing.encoding import STRICT
        from indexing.reader import BadThreads, iter_threads

        thread = next((t for t in iter_threads(args.paths, skip_bad=args.skip_bad, bad=BadThreads(),
                                               encoding_errors=args.encoding_errors or STRICT)
                       if t.id == args.post), None)
        where = " ".join(args.paths)
    if thread is None:
        raise ToolkitError(f"thread {args.post} is not in {where}",
                           hint="check the thread id (the citation's post attribute) and the corpus paths")
    return thread


def _show(args: argparse.Namespace) -> int:
    from indexing.errors import ToolkitError

    thread = _find_thread(args)
    n = len(thread.raw)
    if not 0 <= args.offset < n:
        raise ToolkitError(f"offset {args.offset} is outside thread {thread.id} (0..{n - 1})",
                           file=thread.path, line=thread.line, hint="offsets count code points from the start of the thread")
    post = thread.post_at(args.offset)
    if post is None:
        nxt = next((p for p in thread.posts if p.start > args.offset), None)
        near = f"; the next post is {nxt.id} at offset {nxt.start}" if nxt else ""
        raise ToolkitError(f"offset {args.offset} of thread {thread.id} is not inside a <post>{near}",
                           file=thread.path, line=thread.line_of(args.offset),
                           hint="a citation must point into a <post> element")
    text = thread.text_at(args.offset)
    result = {"thread": thread.id, "post": post.id, "post_start": post.start, "offset": args.offset, "text": text}
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return SUCCESS
    print(f"thread {thread.id} ({thread.lang}) {thread.path}:{thread.line_of(args.offset)}")
    print(f"post {post.id} by {post.author} at {post.datetime}, raw [{post.start}, {post.end})")
    print(f"offset {args.offset}: {thread.raw[args.offset:args.offset + 40]!r}")
    print("-" * 40)
    print(text)
    return SUCCESS
