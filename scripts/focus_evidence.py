#!/usr/bin/env python3
"""What the language focus sees per topic, against where the answer is.

    python scripts/focus_evidence.py --index DIR --topics topics/xl-dev.xml \
        --judgments tests/data/careful/xl-dev.judgments.jsonl [--prefix 4.1] [--json OUT]

Per topic with answer languages (``<languages>``, read here only to measure, never by a system):
each language's best multilingual cosine among its ``thread_top`` best-retrieved threads (what
``lang_floor`` reads) and the thread that gives it; the same over every thread of the language
(the index's stored headline + opening vectors) with that language's median cosine; and the best
answering thread's cosine and place in its language. Shows whether the answer language is low
because retrieval missed its answering thread, and whether another language is near only on words
every thread of it shares.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def whole_language(d, query: str, lang: str) -> dict[str, float]:
    """Every thread of ``lang`` -> its headline + opening cosine to ``query`` (the index's stored
    vectors; encoded here when the threads are held in memory)."""
    from bolt.pipeline.dense import language_threads, nearest_threads
    from bolt.pipeline.main.reading import thread_text, xl_encoder

    n = len(language_threads(d.corpus, lang))
    return dict(nearest_threads(query, lang, n, d.corpus, lambda t: thread_text(d, t, lang), xl_encoder(d)))


def topic_row(d, topic, answering: set[str]) -> dict:
    """The facts of one topic (see the module docstring)."""
    import numpy as np

    from bolt.pipeline.main.candidates import language_best_threads

    q = topic.query
    _, posts = d.retrieve_with_feedback(d.plan(q))
    retrieved = {p.thread for p in posts}
    seen = language_best_threads(d, q, posts)
    out = {"topic": topic.topic_id, "answer_langs": sorted(topic.properties.languages), "langs": {}}
    for lang in sorted(d.langs):
        allc = whole_language(d, q, lang)
        if not allc:
            continue
        bt = max(allc, key=lambda t: (allc[t], t))
        vals = np.array(list(allc.values()))
        ans = [t for t in answering if t in allc]
        order = sorted(allc, key=lambda t: (-allc[t], t))
        ba = min(ans, key=order.index) if ans else None
        out["langs"][lang] = {
            "retrieved_best": round(seen.get(lang, (float("nan"), ""))[0], 3), "retrieved_thread": seen.get(lang, (0, ""))[1],
            "whole_best": round(allc[bt], 3), "whole_thread": bt, "median": round(float(np.median(vals)), 3),
            "p90": round(float(np.quantile(vals, 0.9)), 3), "threads": len(allc),
            "answering": ba, "answering_cos": round(allc[ba], 3) if ba else None,
            "answering_place": order.index(ba) + 1 if ba else None, "answering_retrieved": ba in retrieved if ba else None}
    return out


def main() -> int:
    from scripts.thread_reach import traced_topics_arguments

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    traced_topics_arguments(p)
    p.add_argument("--prefix", action="append", default=[], help="only topics starting with this (repeatable)")
    p.add_argument("--json", type=Path)
    a = p.parse_args()
    from bolt.formats.topics import read_topics
    from bolt.pipeline import Distiller, parse_config
    from indexing.search import open_index
    from scripts.thread_reach import answering_threads, read_lines

    topics = [t for t in read_topics(a.topics) if t.properties and t.properties.languages
              and (not a.prefix or any(t.topic_id.startswith(x) for x in a.prefix))]
    answering = answering_threads(topics, read_lines(a.judgments))
    searcher = open_index(a.index)
    d = Distiller(searcher, searcher.corpus, parse_config("main"))
    rows = [topic_row(d, t, answering[t.topic_id]) for t in topics]
    for r in rows:
        cells = [f"{lg} {v['retrieved_best']}/{v['whole_best']} med {v['median']} p90 {v['p90']}"
                 + (f" ans {v['answering_cos']}#{v['answering_place']}{'R' if v['answering_retrieved'] else ''}" if v["answering"] else "")
                 for lg, v in r["langs"].items()]
        print(r["topic"], ",".join(r["answer_langs"]), " | ".join(cells))
    if a.json:
        a.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
