"""A report pasted into a post as a ``<quote>`` is read as the poster's evidence (``pasted_quotes``);
a quote of an earlier post is not.

One real thread, its raw offsets counted by hand: line 7 (the pasted report) starts at code point
136 (lines 1-6 are 30, 10, 14, 11, 58 and 7 characters, each with its newline); its second sentence
starts 43 characters in ("The river broke its banks on Monday night. "), at 179, and ends at 250
(the line is 114 characters, ``&amp;`` five of them). p1's own sentence starts at 260 (after the
8-character ``</quote>`` line), p2's at 458 and p3's at 680.
"""
from __future__ import annotations

import pytest

from tests.test_pipeline import distiller_for

TID = "bolt-eng-DF-9-900-1"
RAW = """<doc id="bolt-eng-DF-9-900-1">
<headline>
Riverton flood
</headline>
<post author="ann" datetime="2012-03-01T10:00:00" id="p1">
<quote>
The river broke its banks on Monday night. Officials said 200 houses in Riverton &amp; Harbor Street were flooded.
</quote>
From the Riverton Gazette this morning, terrible news for the town.
</post>
<post author="bob" datetime="2012-03-02T10:00:00" id="p2">
<quote orig_author="ann">
terrible news for our town.
</quote>
The mayor promised repairs for every flooded house by the summer.
</post>
<post author="cat" datetime="2012-03-03T10:00:00" id="p3">
<quote>
Officials said 200 houses in Riverton &amp; Harbor Street were flooded.
</quote>
That figure seems low to me given what I saw on the street.
</post>
</doc>
"""
REPORT = "Officials said 200 houses in Riverton & Harbor Street were flooded."
QUERY = "How many houses were flooded in Riverton?"


def _thread():
    from indexing.reader import parse_thread_text

    return parse_thread_text(RAW, path="pasted.xml")


def _sentences(post: str, pasted: bool) -> list[tuple[str, int, int, int]]:
    from bolt.pipeline.candidates import CandidatePost, post_sentences

    sents = post_sentences(_thread(), CandidatePost(TID, post, "eng", 1.0, 0, 1.0), pasted=pasted)
    return [(s.text, s.offset, s.end, s.position) for s in sents]


def test_a_pasted_report_follows_the_own_text_cited_inside_the_quote():
    own = ("From the Riverton Gazette this morning, terrible news for the town.", 260, 327, 0)
    assert _sentences("p1", pasted=False) == [own]
    assert _sentences("p1", pasted=True) == [
        own,
        ("The river broke its banks on Monday night.", 136, 178, 1),
        (REPORT, 179, 250, 2),
    ]
    assert RAW[179:250] == REPORT.replace("&", "&amp;")


def test_a_quote_of_an_earlier_post_or_poster_stays_out():
    # p2 names a poster (ann) though its words are in no earlier post; p3 names no one but repeats
    # p1's pasted sentence.
    assert _sentences("p2", pasted=True) == [
        ("The mayor promised repairs for every flooded house by the summer.", 458, 523, 0)]
    assert _sentences("p3", pasted=True) == [
        ("That figure seems low to me given what I saw on the street.", 680, 739, 0)]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    from indexing.search import build_index, open_index

    root = tmp_path_factory.mktemp("pasted")
    (root / "coll").mkdir()
    (root / "coll" / "eng.xml").write_text(RAW, encoding="utf-8")
    build_index([root / "coll"], root / "index", backend="lucene", progress=False)
    with open_index(root / "index") as s:
        yield s


def test_main_cites_the_pasted_report_and_the_citation_validates(searcher, tmp_path):
    from bolt.formats.submission import write_run
    from bolt.formats.validate import validate_runs
    from bolt.pipeline.run import run_topics
    from bolt.formats.topics import read_topics

    own_only = [b.text for b in distiller_for(searcher, pasted_quotes=False).distill(QUERY)]
    assert REPORT not in own_only
    d = distiller_for(searcher, pasted_quotes=True)
    bullets = d.distill(QUERY)
    assert [tuple(b.sources) for b in bullets if b.text == REPORT] == [((TID, 179),)]
    topics = tmp_path / "topics.xml"
    topics.write_text(f'<topics>\n<topic number="T1"><query>{QUERY}</query></topic>\n</topics>\n', encoding="utf-8")
    run = tmp_path / "run.xml"
    write_run("pasted", run_topics(read_topics(topics), d, progress=False), run, system="main",
              settings=repr(d.config))
    report = validate_runs([run], topics, searcher.corpus)
    assert report.valid, report.problems
