"""The careful forum judgments as runs, judged again by the assessor (the forum meter's inputs).

Each careful judgment file holds the judged bullets of many runs with their text and citations.
They are turned back into runs and judged by the assessor once per set, over the set's
collection; every machine judgment keeps each facet's probability, so the decision can be
re-read at any threshold without judging again (``fitting.forum_meter``). Not installed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[1]
CAREFUL = REPO / "tests" / "data" / "careful"
SHARED = REPO.parent / "shared" / "real-samples"
EBAY = SHARED / "bolt-eng-DF-215.xml"


@dataclass(frozen=True)
class JudgedSet:
    """One development set: its topics, its careful judgments and the collection they cite."""

    name: str
    topics: Path
    careful: tuple[Path, ...]
    corpora: tuple[Path, ...]
    encoding_errors: str | None = None


def judged_sets() -> dict[str, JudgedSet]:
    """The five sets of careful forum judgments (the sample's collection is bundled)."""
    from bolt.data import sample_corpus_path, topic_path

    return {
        "ebay": JudgedSet("ebay", REPO / "topics" / "ebay-dev.xml", tuple(sorted(CAREFUL.glob("ebay-dev*.jsonl"))),
                          (EBAY,)),
        "tac2013": JudgedSet("tac2013", REPO / "topics" / "tac2013-dev.xml", (CAREFUL / "tac2013-dev.judgments.jsonl",),
                             (SHARED / "bolt-eng-DF-tac2013-sentiment.xml", EBAY), "cp1252"),
        "xl": JudgedSet("xl", REPO / "topics" / "xl-dev.xml", (CAREFUL / "xl-dev.judgments.jsonl",),
                        (SHARED / "arz-youm7-comments-2010.xml", SHARED / "cmn-ptt-stock-2025.xml", EBAY)),
        "xl-sites": JudgedSet("xl-sites", REPO / "topics" / "xl-sites.xml", (CAREFUL / "xl-sites.judgments.jsonl",),
                              (SHARED / "arz-aoc-alriyadh-alghad-2010.xml", SHARED / "cmn-weibo-checked-2020.xml",
                               EBAY)),
        "sample": JudgedSet("sample", Path(topic_path("sample.xml")), (CAREFUL / "sample.judgments.jsonl",),
                            (Path(sample_corpus_path()),)),
    }


def careful_judgments(s: JudgedSet) -> list:
    """The set's careful judgments, one per (topic, run, bullet) (the first file that judged it wins)."""
    from evaluation.judgments import read_judgments

    seen: dict[tuple, object] = {}
    for path in s.careful:
        for j in read_judgments(path):
            seen.setdefault(j.key, j)
    return list(seen.values())


def runs_of(judgments: Sequence) -> list:
    """Runs rebuilt from judgments that carry their bullet's ``text``: each judged bullet at its
    position with its citations (positions no judgment names are left out)."""
    from bolt.formats.submission.records import Bullet, Result, Run, Source

    by_run: dict[str, dict[str, list]] = {}
    for j in judgments:
        text = j.extra.get("text")
        if not text:
            raise ValueError(f"{j.run} {j.topic_id} bullet {j.bullet}: the judgment has no 'text'")
        b = Bullet(j.bullet, text, tuple(Source(s.post, s.offset) for s in j.sources))
        by_run.setdefault(j.run, {}).setdefault(j.topic_id, []).append(b)
    return [Run(run, f"<careful:{run}>", {t: Result(t, tuple(sorted(bs, key=lambda b: b.position)))
                                          for t, bs in sorted(topics.items())})
            for run, topics in sorted(by_run.items())]


def machine_judgments(s: JudgedSet, workdir: Path) -> list:
    """The assessor's judgments of the set's careful bullets at the models' own thresholds (cached in
    ``workdir``); every judgment keeps each facet's probability."""
    from bolt.formats.topics import read_topics
    from evaluation.assessor import Assessor, AssessorConfig
    from evaluation.judgments import read_judgments, write_judgments
    from indexing.corpus import open_corpus

    out = workdir / f"{s.name}.auto.jsonl"
    if not out.exists():
        corpus = open_corpus(paths=[str(p) for p in s.corpora], encoding_errors=s.encoding_errors)
        a = Assessor(read_topics(s.topics), corpus, AssessorConfig(operating_point="model"))
        write_judgments(a.assess(runs_of(careful_judgments(s))), out, a.header())
    return read_judgments(out)


_BOARD = re.compile(r"DF[-_]0*(\d+)")


def board_of(topic) -> str:
    """The forum a topic's nuggets come from: the most frequent ``DF-NNN`` number of its nugget
    threads (``DF-215`` is the eBay board), else the thread id's first part."""
    from collections import Counter

    c: Counter = Counter()
    for f in topic.facets:
        for n in f.nuggets:
            m = _BOARD.search(n.post or "")
            c[f"DF-{m.group(1)}" if m else (n.post or "?").split("_")[0]] += 1
    return c.most_common(1)[0][0] if c else "?"
