#!/usr/bin/env python3
"""Several system specs over one topic set in one process (the encoders load and encode once).

    python scripts/spec_runs.py --index DIR --topics FILE --out-dir DIR NAME=SPEC [NAME=SPEC ...]
        [--topic-prefix 5.] [--only NAME=PREFIX ...]

Writes ``DIR/NAME.xml`` (run id NAME) for each ``NAME=SPEC`` (e.g. ``main-no-xl_dense=main(xl_dense=0)``);
a run file already there is kept, so a stopped job resumes where it was. Used for the cross-language
leave-one-site-out tables (docs/experiments/), where each default is run on and off.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def parse_named(items: list[str]) -> dict[str, str]:
    """``["a=main(x=1)", ...]`` -> ``{"a": "main(x=1)"}``; a malformed item exits with what to write."""
    out = {}
    for item in items:
        name, sep, spec = item.partition("=")
        if not sep or not name or not spec or "(" in name:
            sys.exit(f"error: {item!r}: write NAME=SPEC, e.g. main-off=main(xl_dense=0)")
        out[name] = spec
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--index", type=Path, required=True)
    p.add_argument("--topics", type=Path, required=True)
    p.add_argument("--out-dir", type=Path, required=True)
    p.add_argument("--topic-prefix", default="", help="only topics whose number starts with this")
    p.add_argument("--only", action="append", default=[], metavar="NAME=PREFIX",
                   help="run NAME only on topics whose number starts with PREFIX (e.g. a setting one language uses)")
    p.add_argument("runs", nargs="+", metavar="NAME=SPEC")
    a = p.parse_args()
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from bolt.pipeline import Distiller, parse_config
    from bolt.pipeline.run import run_topics
    from indexing.search import open_index

    runs, only = parse_named(a.runs), parse_named(a.only)
    searcher = open_index(a.index)
    topics = [t for t in read_topics(a.topics) if t.topic_id.startswith(a.topic_prefix)]
    a.out_dir.mkdir(parents=True, exist_ok=True)
    for name, spec in runs.items():
        out = a.out_dir / f"{name}.xml"
        if out.exists():
            continue
        cfg = parse_config(spec)
        t0 = time.perf_counter()
        todo = [t for t in topics if t.topic_id.startswith(only.get(name, ""))]
        results = run_topics(todo, Distiller(searcher, searcher.corpus, cfg), progress=False)
        write_run(name, results, out, system=cfg.name, settings=repr(cfg))
        print(f"{name}: {len(todo)} topics in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
