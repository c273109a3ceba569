"""The Chinese names list (``bolt/lexicon/eng_cmn_names.tsv``, ``SystemConfig.cmn_names``;
docs/experiments/chinese-names-list.md): English company names reach Chinese threads that write
only the Chinese name, on a real Lucene index.

The collection (hand-made, checked by hand): without the list the Chinese query of "Did Hon Hai
raise wages for factory workers?" is ``Hon Hai 提出 提高 增加 工资 工厂 厂家 厂工 工人 职工 劳动者``
(CC-CEDICT has no 鴻海). Two Chinese threads about a shoe factory and a toy factory say 工廠
and fill the two passages Chinese retrieval keeps (``k_cmn=2``); the thread about Hon Hai writes
鴻海 and 加薪 (a raise) but none of those words, so only the name finds it.
"""
from __future__ import annotations

import pytest

from tests.test_pipeline import distiller_for, thread_index_fixture

QUERY = "Did Hon Hai raise wages for factory workers?"
HONHAI = "bolt-cmn-DF-1-500-1"
REPLY = "鴻海今年基層員工加薪百分之五，郭董說要留住人才。"
THREADS = {
    "bolt-eng-DF-1-500-1": ("Selling shoes on eBay", ["I sell used shoes on eBay every week.",
                                                       "Photos with good light sell shoes faster."]),
    HONHAI: ("鴻海加薪", ["鴻海宣布明年加薪的消息嗎？", REPLY]),
    "bolt-cmn-DF-1-500-2": ("鞋子工廠", ["鞋子工廠的老闆很好。", "這家鞋子工廠在台中。"]),
    "bolt-cmn-DF-1-500-3": ("玩具工廠", ["玩具工廠在桃園。", "玩具工廠的玩具很好玩。"]),
}


def test_lookup_of_names_hand_checked():
    from bolt.lexicon import lookup_name

    # both scripts, full and short forms
    assert lookup_name("TSMC") == ("台積電", "台积电", "臺積電", "台積", "台积")
    assert lookup_name("Nvidia")[:4] == ("輝達", "辉达", "英偉達", "英伟达")
    # a two-word name, any case; a stem variant ("Semiconductors") and a three-word form
    assert lookup_name("hon hai") == lookup_name("HON HAI") == ("鴻海", "鸿海", "鴻海精密", "鸿海精密", "富士康")
    assert lookup_name("Taiwan Semiconductors") == lookup_name("Taiwan Semiconductor Manufacturing") \
        == lookup_name("TSMC")
    # stop words and one-letter tokens drop out as they do from queries
    assert lookup_name("Bank of Taiwan")[:2] == ("台灣銀行", "台湾银行")
    assert lookup_name("E.Sun Bank")[:2] == ("玉山", "玉山金")
    assert lookup_name("Nvidia's") == lookup_name("Nvidia")
    assert lookup_name("Riverton") == () and lookup_name("bank") == ()


def test_plan_query_names_replace_their_words_translations():
    from bolt.pipeline.translate import plan_query

    off = plan_query("Taiwan Semiconductor profits").query_for("cmn").split()
    on = plan_query("Taiwan Semiconductor profits", cmn_names=True)
    assert off[:2] == ["台湾", "半导体"]
    # the name once, in one form per script-folded word, instead of 台湾 半导体; "profits" unchanged
    assert on.query_for("cmn").split() == ["台積電", "台積"] + off[2:]
    assert on.concepts[1].forms_in("cmn") == on.concepts[0].forms_in("cmn")  # "Semiconductor" is the name too
    assert on.query_for("arz") == plan_query("Taiwan Semiconductor profits").query_for("arz")  # Chinese only
    # lower case: a word no lexicon knows is a name anyway; ordinary words need capitals
    assert plan_query("foxconn wages", cmn_names=True).query_for("cmn").split()[0] == "鴻海"
    assert plan_query("china steel exports", cmn_names=True) == plan_query("china steel exports")
    # a one-word name that is also an English word keeps that word's translations after its own
    shell = plan_query("Shell fuel prices", cmn_names=True).concepts[0].forms_in("cmn")
    assert shell[:2] == ("殼牌", "壳牌") and len(shell) > 2
    # a name written twice is sent once
    assert plan_query("Hon Hai and Foxconn workers", cmn_names=True).query_for("cmn").split().count("鴻海") == 1


searcher = thread_index_fixture("cmn_names", THREADS)


def distiller(searcher, **kw):
    # no multilingual encoder: the names list alone is under test
    return distiller_for(searcher, k_cmn=2, xl_encoder=None, **kw)


def test_an_english_company_name_reaches_a_chinese_thread_with_the_names_list(searcher):
    for on in (False, True):
        d = distiller(searcher, cmn_names=on)
        _, posts = d.retrieve_with_feedback(d.plan(QUERY))
        cmn = {p.thread for p in posts if p.lang == "cmn"}
        assert (HONHAI in cmn) is on, on
    # and the reply that answers becomes a bullet citing it
    off = distiller(searcher, cmn_names=False).distill(QUERY)
    assert HONHAI not in {t for b in off for t, _ in b.sources}
    on = distiller(searcher, cmn_names=True).distill(QUERY)
    cited = [b for b in on if b.sources[0][0] == HONHAI]
    assert [b.text for b in cited] == [REPLY]


def test_cmn_names_is_a_main_option_on_by_default():
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.config import parse_config

    assert SystemConfig().cmn_names is True and repr(SystemConfig()) == "main"
    assert repr(parse_config("main(cmn_names=False)")) == "main(cmn_names=False)"
    assert SystemConfig(cmn_names=False).settings()["cmn_names"] is False
