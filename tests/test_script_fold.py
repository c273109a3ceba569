"""Chinese script folding (``indexing.script_fold``) everywhere Chinese text is compared, and a
Traditional-script thread reached by English and Simplified queries with exact offsets."""
from __future__ import annotations

import json

import pytest

from indexing.script_fold import describe, fold_chinese, fold_table

# A Traditional-script thread (Taiwan: 台灣, 銀行, 匯率), written for this test.
P1 = "請問要去日本玩，台幣換日圓去哪裡比較划算？"
P2 = "台灣銀行的匯率比較好，手續費也比較低。"
P3 = "機場的銀行也可以換，但是匯率差很多。"
P4 = "我在銀行工作很多年了，每天都很忙。"
TRAD = f"""<doc id="bolt-cmn-DF-29-1-1">
<headline>
換匯問題
</headline>
<post author="a" datetime="2025-10-01T09:00:00" id="p1">
{P1}
</post>
<post author="b" datetime="2025-10-01T09:30:00" id="p2">
{P2}
</post>
<post author="c" datetime="2025-10-01T10:00:00" id="p3">
{P3}
</post>
<post author="d" datetime="2025-10-01T10:30:00" id="p4">
{P4}
</post>
</doc>
"""
# A board article hard-wrapped at 60 columns (30 Han characters), and an Egyptian run-on comment.
WRAPPED = "台積電今天開盤就大漲外資連續買超好幾天市場情緒非常樂觀投資人\n都在追高。"
WRAP_DOC = f"""<doc id="bolt-cmn-DF-29-3-1">
<headline>
台股
</headline>
<post author="e" datetime="2025-10-02T09:00:00" id="p1">
{WRAPPED}
</post>
</doc>
"""
RUN_ON = ("الحكومة لازم تعمل حاجة بسرعة عشان الناس تعبت من الغلا والاسعار بتزيد كل يوم "
          "بس محدش بيسمع كلامنا والمسؤولين قاعدين في التكييف ولا حاسين بحاجة خالص")
ARZ = f"""<doc id="bolt-arz-DF-29-4-1">
<headline>
الاسعار
</headline>
<post author="f" datetime="2010-04-10T09:00:00" id="p1">
{RUN_ON}
</post>
</doc>
"""
ENG = """<doc id="bolt-eng-DF-29-2-1">
<headline>
weekend
</headline>
<post author="d" datetime="2012-01-01T00:00:00" id="p1">
We went hiking in the mountains on Saturday and it rained all day.
</post>
</doc>
"""
# Hand-counted: '<doc id="bolt-cmn-DF-29-1-1">' is 29 characters + line break (30), '<headline>' 11 more
# (41), '換匯問題' 5 (46), '</headline>' 12 (58), the p1 start tag 56 + 1 (115), P1 21 + 1 (137),
# '</post>' 8 (145), the p2 start tag 57 (202): P2 starts at code point 202.
P2_OFFSET = 202


def test_folding_is_one_character_for_one_and_idempotent():
    assert fold_chinese("臺灣銀行的匯率") == "台湾银行的汇率"
    assert fold_chinese("裡裏") == "里里" and fold_chinese("頭髮發展") == "头发发展"
    assert fold_chinese("兩萬億") == "两万亿"
    # Taiwan's 著 and the Simplified particle 着 fold together (tw2s 著->着, hk2s 着->著: a cycle, least wins)
    assert fold_chinese("看著") == fold_chinese("看着") == "看着"
    # 么 is a Simplified character (麼 -> 么): the Taiwan table's 么 -> 幺 is not taken
    assert fold_chinese("什麼") == fold_chinese("什么") == "什么"
    simplified = "台湾银行的汇率比较好，手续费也比较低。"
    assert fold_chinese(simplified) == simplified
    other = "The fee is 25 dollars. الرسوم ٢٥ دولار"
    assert fold_chinese(other) == other
    table = fold_table()
    assert all(len(v) == 1 for v in table.values())
    assert all(ord(v) not in table for v in table.values())  # folding twice = folding once
    assert len(fold_chinese(TRAD)) == len(TRAD)
    d = describe()
    assert d["converter"] == "opencc" and d["characters"] == len(table) and len(d["sha256"]) == 16


def test_the_same_folding_wherever_chinese_is_compared():
    from bolt.lexicon import inverse_lexicon, lookup
    from indexing.models.multilingual import normalise
    from bolt.pipeline.anchors import numbers_in
    from bolt.pipeline.backtranslate import gloss_bag
    from bolt.pipeline.text import char_ngrams, chinese_terms
    from bolt.pipeline.translate import concept_matches, plan_query
    from evaluation.matching.lexical import content_terms
    from indexing.analysis import AnalysisConfig

    simp = "台湾银行的汇率比较好，手续费也比较低。"
    a = AnalysisConfig()
    assert a.prepare(P2, "cmn") == a.prepare_aligned(P2, "cmn") == simp
    assert a.tokens(P2, "cmn") == a.tokens(simp, "cmn")
    assert AnalysisConfig(cmn_fold="").prepare(P2, "cmn") == P2
    with pytest.raises(ValueError):
        AnalysisConfig(cmn_fold="hk2s")
    assert chinese_terms(P2) == chinese_terms(simp)  # scoring and BM25 over sentences
    assert char_ngrams(P2) == char_ngrams(simp)  # the redundancy filter
    assert gloss_bag(P2, "cmn") == gloss_bag(simp, "cmn") and "bank" in gloss_bag(P2, "cmn")
    assert "银行" in inverse_lexicon("cmn")
    assert numbers_in("兩萬") == numbers_in("两万") == {"20000"}
    assert content_terms(P2) == content_terms(simp)  # the assessor's lexical terms
    assert normalise("臺灣 銀行") == "台湾 银行"  # the multilingual encoder's input
    # the lexicon gives both scripts; the query sends one form per folded word
    assert lookup("cmn", "bank")[0] == "银行" and "銀行" in lookup("cmn", "bank")
    plan = plan_query("Which bank in Taiwan has the best exchange rate?")
    words = plan.query_for("cmn").split()
    assert "银行" in words and "銀行" not in words and "汇率" in words
    assert len({fold_chinese(w) for w in words}) == len(words)
    bank = next(c for c in plan.concepts if c.stem == "bank")
    assert concept_matches(bank, "cmn", P2, frozenset(chinese_terms(P2)))
    assert concept_matches(bank, "cmn", simp, frozenset(chinese_terms(simp)))


@pytest.fixture(scope="module", params=["lucene", "bm25"])
def trad_index(request, tmp_path_factory):
    from bolt.cli import main
    from indexing.exit_codes import SUCCESS

    d = tmp_path_factory.mktemp(f"trad-{request.param}")
    (d / "in").mkdir()
    (d / "in" / "cmn.xml").write_text(TRAD + WRAP_DOC, encoding="utf-8")
    (d / "in" / "arz.xml").write_text(ARZ, encoding="utf-8")
    (d / "in" / "eng.xml").write_text(ENG, encoding="utf-8")
    assert main(["index", str(d / "in"), "--out", str(d / "idx"), "--backend", request.param,
                 "--no-progress", "--no-vectors"]) == SUCCESS
    return d / "idx"


@pytest.mark.slow
def test_english_and_simplified_queries_reach_the_traditional_post_at_its_offset(trad_index, capsys):
    from bolt.cli import main
    from bolt.pipeline.translate import plan_query
    from indexing.manifest import read_manifest
    from indexing.search import open_index

    assert TRAD[P2_OFFSET:P2_OFFSET + 4] == "台灣銀行"
    assert read_manifest(trad_index)["settings"]["script_fold"]["name"] == "opencc-t2s-chars"
    english = plan_query("Which bank in Taiwan has the best exchange rate?").query_for("cmn")
    with open_index(trad_index) as s:
        for query in (english, "台湾银行 汇率", "台灣銀行 匯率"):
            hits = s.search(query, k=3, lang="cmn", units="post")
            assert hits[0].post == "p2", query
            assert (hits[0].offset, hits[0].end) == (P2_OFFSET, P2_OFFSET + len(P2))
            assert hits[0].text == P2  # the original Traditional characters, not the folded ones
            raw = s.corpus.get("bolt-cmn-DF-29-1-1").raw
            assert raw[hits[0].offset:hits[0].end] == P2
    capsys.readouterr()
    assert main(["search", str(trad_index), "台湾银行", "--lang", "cmn", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["post"] == "p2" and hits[0]["offset"] == P2_OFFSET and hits[0]["text"] == P2


@pytest.mark.slow
def test_a_system_cites_the_traditional_sentence_from_an_english_query(trad_index):
    from bolt.pipeline import Distiller, SystemConfig
    from indexing.search import open_index

    with open_index(trad_index) as s:
        d = Distiller(s, s.corpus, SystemConfig(name="bm25-sentences"))
        bullets = d.distill("Which bank in Taiwan has the best exchange rate?")
    zh = [b for b in bullets if b.lang == "cmn"]
    assert zh and zh[0].text == P2 and zh[0].sources == (("bolt-cmn-DF-29-1-1", P2_OFFSET),)


@pytest.mark.slow
def test_candidate_clauses_cite_their_first_character(trad_index):
    """The pipeline's sentences are clauses (``split_clauses``) at exact raw offsets; a wrapped
    Chinese line is one sentence whose text drops the line break between two Han characters."""
    from bolt.pipeline.candidates import CandidatePost, post_sentences
    from indexing.search import open_index

    with open_index(trad_index) as s:
        arz = s.corpus.get("bolt-arz-DF-29-4-1")
        sents = post_sentences(arz, CandidatePost("bolt-arz-DF-29-4-1", "p1", "arz", 1.0, 0, 1.0))
        start = ARZ.index(RUN_ON)  # the comment starts its post's text
        # the two clauses of tests/test_clauses.py: [0, 75) and [76, 146) of the comment
        assert [(x.offset, x.end) for x in sents] == [(start, start + 75), (start + 76, start + 146)]
        assert [x.text for x in sents] == [RUN_ON[:75], RUN_ON[76:]]
        cmn = s.corpus.get("bolt-cmn-DF-29-3-1")
        sents = post_sentences(cmn, CandidatePost("bolt-cmn-DF-29-3-1", "p1", "cmn", 1.0, 0, 1.0))
        start = WRAP_DOC.index(WRAPPED)
        assert [(x.offset, x.end, x.text) for x in sents] == [
            (start, start + len(WRAPPED), WRAPPED.replace("\n", ""))]


def test_a_code_with_a_leading_zero_gets_no_chinese_numeral():
    from bolt.pipeline.translate import plan_query

    # 0050 is a fund's code: kept as it is, never 五十; 300 is an amount: 三百 beside the digits
    words = plan_query("Is the 0050 fund worth 300 dollars?").query_for("cmn").split()
    assert "0050" in words and "五十" not in words
    assert "300" in words and "三百" in words
