"""``lang_anchor`` (docs/experiments/literal-language-anchor.md): a literal query token (a ticker number, a capital
acronym) that only one non-English language's retrieved threads state in their headline or opening post makes
that language the focus (docs/experiments/literal-anchor-subject.md)."""
from __future__ import annotations

import pytest

from bolt.pipeline.literal_focus import anchored_language, holds, literal_tokens, subject_and_text
from tests.test_pipeline import thread_index_fixture


def test_literal_tokens_keep_identifiers_not_years_or_amounts():
    q = "Why did over 200,000 holders sell Hon Hai (2317) in 2025, and do US ETFs like VTI beat $3,900 gold?"
    # 200,000 and $3,900 are amounts, 2025 a year; ETFs gives ETF; 'Why', 'Hon' are not all capitals
    assert literal_tokens(q) == ["2317", "US", "ETF", "VTI"]
    assert literal_tokens("0050 and 0050 again, 1.5 or 300x") == ["0050"]
    assert literal_tokens("no tokens here") == []


def test_holds_is_a_whole_word_match_that_cjk_may_adjoin():
    assert holds("6415矽力-KY 又破底", "6415")
    assert not holds("64150 張", "6415")
    assert holds("我買了 etf", "ETF")       # forums write acronyms in either case
    assert not holds("QQQM 定期定額", "QQQ")


def _subject_is_all(threads: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str, str]]:
    """(language, text) -> (language, subject, whole text) for threads whose subject is all their text."""
    return {t: (lang, text, text) for t, (lang, text) in threads.items()}


def test_anchored_language_needs_a_token_no_english_thread_holds():
    threads = _subject_is_all({"e1": ("eng", "selling stock on eBay, ETF"), "c1": ("cmn", "6415 矽力 股價"),
                               "c2": ("cmn", "ETF 配息"), "a1": ("arz", "سهم")})
    # ETF is in an English thread: only 6415 counts, held by c1
    assert anchored_language(["6415", "ETF"], threads) == ("cmn", {"c1"})
    assert anchored_language(["ETF"], threads) == (None, set())
    # two languages with one thread each: a tie, no focus
    tie = dict(threads, a2=("arz", "6415 في البورصة", "6415 في البورصة"))
    assert anchored_language(["6415"], tie) == (None, set())
    # two Chinese threads against one Arabic: Chinese
    more = dict(tie, c3=("cmn", "(6415) 新低", "(6415) 新低"))
    assert anchored_language(["6415"], more) == ("cmn", {"c1", "c3"})


def test_subject_and_text():
    assert subject_and_text("6415 矽力", ["開盤 新低", "6415 再跌"]) == ("6415 矽力\n開盤 新低", "6415 矽力\n開盤 新低\n6415 再跌")
    assert subject_and_text(None, []) == ("", "")


def test_only_a_thread_whose_subject_states_the_token_is_anchored():
    # w1 names COVID in a reply only (a commenter's aside), w2 in its headline: w2 alone
    threads = {"w1": ("cmn", "第六版 诊疗方案 发布", "第六版 诊疗方案 发布\n世卫 叫 COVID-19"),
               "w2": ("cmn", "COVID-19 抗体 检测", "COVID-19 抗体 检测\n假阳性 很多"),
               "e1": ("eng", "Stock photos", "Stock photos on eBay")}
    assert anchored_language(["COVID"], threads) == ("cmn", {"w2"})
    # with only the reply's mention, no language is anchored
    del threads["w2"]
    assert anchored_language(["COVID"], threads) == (None, set())
    # an English thread that holds the token in a reply still drops it: it is a common word there
    threads = {"c1": ("cmn", "ETF 配息", "ETF 配息"), "e1": ("eng", "Fees", "Fees\nI hold an ETF")}
    assert anchored_language(["ETF"], threads) == (None, set())


QUERY = "Why has Silergy (6415) stock kept falling?"
STOCK_ZH = "bolt-cmn-DF-1-300-1"
OTHER_ZH = "bolt-cmn-DF-1-300-2"
THREADS = {
    "bolt-eng-DF-1-300-1": ("Stock photos on eBay", ["Why has my stock of photos kept falling in price?",
                                                      "Stock photos sell badly, the price keeps falling."]),
    STOCK_ZH: ("6415 矽力-KY 股票 又創新低", ["矽力 營收 衰退，股票 一直 下跌。", "中國 客戶 砍單，毛利 下滑。"]),
    OTHER_ZH: ("股票 下跌", ["股票 一直 下跌，怎麼辦？", "不要 追高。"]),
}


searcher = thread_index_fixture("anchor", THREADS)
# the same threads but the Chinese stock thread names 6415 in a reply only
REPLY_ZH = "bolt-cmn-DF-1-301-1"
THREADS_REPLY = {
    "bolt-eng-DF-1-301-1": THREADS["bolt-eng-DF-1-300-1"],
    REPLY_ZH: ("矽力-KY 股票 又創新低", ["矽力 營收 衰退，股票 一直 下跌。", "有人 說 6415 還會 再跌。"]),
    "bolt-cmn-DF-1-301-2": THREADS[OTHER_ZH],
}
reply_searcher = thread_index_fixture("anchor-reply", THREADS_REPLY)


def test_literal_anchor_on_a_real_index(searcher):
    from bolt.pipeline import Distiller, SystemConfig
    from bolt.pipeline.main.candidates import literal_anchor

    d = Distiller(searcher, searcher.corpus, SystemConfig(lang_anchor=1))
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    assert "eng" in {p.lang for p in posts} and STOCK_ZH in {p.thread for p in posts}
    # 6415 is in the Chinese headline and in no English thread: Chinese, that thread alone
    assert literal_anchor(d, QUERY, posts) == ("cmn", {STOCK_ZH})
    assert literal_anchor(d, "Why has the stock kept falling?", posts) == (None, set())


def test_a_token_only_a_reply_states_anchors_nothing_on_a_real_index(reply_searcher):
    from bolt.pipeline import Distiller, SystemConfig
    from bolt.pipeline.main.candidates import literal_anchor

    d = Distiller(reply_searcher, reply_searcher.corpus, SystemConfig(lang_anchor=3))
    plan, posts = d.retrieve_with_feedback(d.plan(QUERY))
    assert REPLY_ZH in {p.thread for p in posts}
    # the thread holds 6415 (in its second post), but neither its headline nor its opening post does
    assert literal_anchor(d, QUERY, posts) == (None, set())


def test_lang_anchor_drops_the_english_bullets(searcher):
    from bolt.pipeline import Distiller, SystemConfig

    # English's threads here are farther than Chinese's: ``eng_below`` alone would drop its bullets too
    on = Distiller(searcher, searcher.corpus, SystemConfig(lang_anchor=1, eng_below=0.0)).distill(QUERY)
    assert on and {b.sources[0][0].split("-")[1] for b in on} == {"cmn"}
    off = Distiller(searcher, searcher.corpus, SystemConfig(lang_anchor=0, eng_below=0.0)).distill(QUERY)
    assert "eng" in {b.sources[0][0].split("-")[1] for b in off}


def test_lang_anchor_3_lets_the_anchored_threads_replies_through_the_gate(searcher):
    from bolt.pipeline import Distiller, SystemConfig

    reply = "中國 客戶 砍單，毛利 下滑。"  # answers why without a word of the query
    # without the thread sweep, whose reading (``xl_sweep_read``) lets its best thread's replies through
    # the gate too (tests/test_thread_sweep.py)
    texts = {n: [b.text for b in Distiller(searcher, searcher.corpus,
                                           SystemConfig(lang_anchor=n, xl_sweep=0)).distill(QUERY)]
             for n in (1, 2, 3)}
    assert reply not in texts[1] and reply not in texts[2]
    assert reply in texts[3]
    # 2 keeps only the thread that states 6415: nothing of the other Chinese thread
    assert not any("怎麼辦" in t or "追高" in t for t in texts[2])


def test_lang_anchor_must_not_be_negative():
    from bolt.pipeline import SystemConfig

    with pytest.raises(ValueError, match="lang_anchor"):
        SystemConfig(lang_anchor=-1)


def _subjects(path, tokens):
    """Per thread of a real file: (language, headline + opening post, every post), as literal_anchor reads them."""
    from indexing.reader import iter_threads

    out = {}
    for th in iter_threads(path):
        subject, text = subject_and_text(th.headline, [p.own_text for p in th.posts])
        if any(holds(text, t) for t in tokens):
            out[th.id] = (th.lang, subject, text)
    return out


def test_on_the_real_weibo_threads_covid_anchors_nothing(real_samples):
    # of the 357 Weibo threads one holds "COVID", in a comment asking for the WHO name; no headline or
    # opening post states it (Weibo writes 新冠), so it anchors no thread
    threads = _subjects(real_samples / "cmn-weibo-checked-2020.xml", ["COVID"])
    assert len(threads) == 1
    assert anchored_language(["COVID"], threads) == (None, set())


def test_on_the_real_ptt_threads_a_ticker_in_a_headline_anchors_its_thread(real_samples):
    # 6415 (Silergy) is in one PTT thread, in its headline or article: that thread is the anchor
    threads = _subjects(real_samples / "cmn-ptt-stock-2025.xml", ["6415"])
    assert len(threads) == 1
    assert anchored_language(["6415"], threads) == ("cmn", set(threads))
