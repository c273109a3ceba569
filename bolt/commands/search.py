"""``bolt search DIR "QUERY" [--lang eng|arz|cmn] [--k 10] [--json]``: search an index folder.

With no ``--lang`` every language is searched and the ranked lists are interleaved by rank
(scores of different analysers are not comparable; see ``indexing.search``).
"""
from __future__ import annotations

import argparse
import json

from indexing.exit_codes import SUCCESS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("index", metavar="DIR", help="an index folder built by 'bolt index'")
    parser.add_argument("query", metavar="QUERY", help="the query text")
    parser.add_argument("--lang", choices=("eng", "arz", "cmn"), help="search one language only")
    parser.add_argument("--k", type=int, default=10, help="number of hits")
    parser.add_argument("--units", choices=("passage", "post"), default="passage", help="retrieval unit")
    parser.add_argument("--include-quotes", action="store_true", help="also search quoted text (hits flagged)")
    parser.add_argument("--json", action="store_true", help="write the hits as one JSON list")


def run(args: argparse.Namespace) -> int:
    from indexing.search import open_index

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
