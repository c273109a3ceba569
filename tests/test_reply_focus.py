"""``reply_focus``: an English thread's focus also reads how near its posts come to the query.

Two real threads: ``ask`` asks the query in its headline and opening post and its replies chat about
something else; ``answer`` opens on another subject and its replies answer the query.
"""
from __future__ import annotations

import math

import pytest

from tests.test_pipeline import distiller_for

QUERY = "How do I get rid of mould on a bathroom ceiling?"
ASK, ANSWER = "bolt-eng-DF-9-901-1", "bolt-eng-DF-9-901-2"


def _post(pid: str, author: str, text: str) -> str:
    return f'<post author="{author}" datetime="2012-03-01T10:00:00" id="{pid}">\n{text}\n</post>\n'


RAW = (f'<doc id="{ASK}">\n<headline>\nMould on my bathroom ceiling\n</headline>\n'
       + _post("p1", "ann", "How do I get rid of the black mould on my bathroom ceiling for good?")
       + _post("p2", "bob", "My cat sleeps on the radiator all winter and snores loudly at night.")
       + _post("p3", "cat", "We went to the seaside last weekend and the weather was lovely.")
       + f'</doc>\n<doc id="{ANSWER}">\n<headline>\nNew house, first winter\n</headline>\n'
       + _post("p1", "dan", "We moved into an old cottage in October and the heating is strange.")
       + _post("p2", "eve", "Scrub the mould off the ceiling with diluted bleach, then paint it with anti-mould paint.")
       + _post("p3", "fay", "Open the bathroom window after a shower so the damp ceiling dries and the mould stays away.")
       + '</doc>\n')


def test_the_focus_is_the_geometric_mean_over_the_best():
    from bolt.pipeline.main.replies import with_posts

    # nearness over the best (0.4): a 0.5, b 1.0, c 0.25; geometric means 0.7071, 0.7071, 0.25
    got = with_posts({"a": 1.0, "b": 0.5, "c": 0.25, "x": 0.8}, {"a": 0.2, "b": 0.4, "c": 0.1})
    assert got["a"] == pytest.approx(1.0) and got["b"] == pytest.approx(1.0)
    assert got["c"] == pytest.approx(0.25 / math.sqrt(0.5))  # 0.3536
    assert got["x"] == 0.8  # a thread without English posts keeps its focus
    assert with_posts({"a": 1.0}, {"a": 0.0}) == {"a": 1.0}  # no post near the query: unchanged


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    from indexing.search import build_index, open_index

    root = tmp_path_factory.mktemp("reply-focus")
    (root / "coll").mkdir()
    (root / "coll" / "eng.xml").write_text(RAW, encoding="utf-8")
    build_index([root / "coll"], root / "index", backend="lucene", progress=False)
    with open_index(root / "index") as s:
        yield s


def test_a_thread_whose_replies_answer_gains_focus(searcher):
    from bolt.pipeline.main.system import MainSystem

    plain = MainSystem(distiller_for(searcher)).trace(QUERY).scores.focus
    read = MainSystem(distiller_for(searcher, reply_focus=True)).trace(QUERY).scores.focus
    assert plain[ASK] == 1.0 and plain[ANSWER] < 1.0
    assert read[ANSWER] > plain[ANSWER]
    assert max(read.values()) == pytest.approx(1.0)
