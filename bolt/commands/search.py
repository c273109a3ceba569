"""``bolt search --index DIR "QUERY" [--lang eng|arz|cmn] [--hits 10] [--json]``: search an index folder.

``bolt search DIR "QUERY"`` (the folder as the first word) is the old spelling and still works;
``--k`` is ``--hits``'s old name.

With no ``--lang`` every language is searched and the ranked lists are interleaved by rank
(scores of different analysers are not comparable; see ``indexing.search``).
"""
from __future__ import annotations

import argparse
import json
import sys

from indexing.exit_codes import SUCCESS, USAGE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", metavar="DIR", help="an index folder built by 'bolt index'")
    parser.add_argument("index_word", nargs="?", metavar="DIR", help="the index folder (old spelling of --index)")
    parser.add_argument("query", metavar="QUERY", help="the query text")
    parser.add_argument("--lang", choices=("eng", "arz", "cmn"), help="search one language only")
    parser.add_argument("--hits", "--k", dest="k", type=int, default=10, metavar="N", help="number of hits")
    parser.add_argument("--units", choices=("passage", "post"), default="passage", help="retrieval unit")
    parser.add_argument("--include-quotes", action="store_true", help="also search quoted text (hits flagged)")
    parser.add_argument("--json", action="store_true", help="write the hits as one JSON list")


def run(args: argparse.Namespace) -> int:
    from indexing.search import open_index

    if (args.index is None) == (args.index_word is None):
        print("error: give the index folder once: bolt search --index DIR \"QUERY\"", file=sys.stderr)
        return USAGE
    args.index = args.index or args.index_word
    if args.k < 1:
        print(f"error: --hits must be at least 1, not {args.k}", file=sys.stderr)
        return USAGE
    with open_index(args.index) as searcher:
        hits = searcher.search(args.query, k=args.k, lang=args.lang, units=args.units,
                               include_quotes=args.include_quotes)
    if args.json:
        print(json.dumps([h.to_json() for h in hits], indent=2, ensure_ascii=False))
        return SUCCESS
    for rank, h in enumerate(hits, 1):
        quoted = " (quoted)" if h.quoted else ""
        text = " ".join(h.text.split())
        print(f"{rank:>3}  {h.score:7.3f}  {h.thread} {h.post} @{h.offset}{quoted}\n     {text[:200]}")
    if not hits:
        print("no hits")
    return SUCCESS
