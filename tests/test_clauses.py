"""Sentences and clauses of Arabic and Chinese forum writing (``indexing.sentences.split_clauses``).

Texts written for these tests, in the style of reader comments and board replies (run-ons, loose
dots, commas and spaces); expected spans counted by hand (Arabic letters and Han characters are
one code point each).
"""
from __future__ import annotations

from indexing.sentences import CLAUSE_LIMITS, WRAP_COLUMNS, split_clauses, split_sentences

# 26 words, no punctuation: "the government must act fast because people are tired of high prices
# and prices rise every day | but nobody listens to us and officials sit in the air conditioning
# feeling nothing at all"
RUN_ON = ("الحكومة لازم تعمل حاجة بسرعة عشان الناس تعبت من الغلا والاسعار بتزيد كل يوم "
          "بس محدش بيسمع كلامنا والمسؤولين قاعدين في التكييف ولا حاسين بحاجة خالص")


def pieces(text: str, lang: str) -> list[str]:
    return [text[s:e] for s, e in split_clauses(text, lang)]


def test_a_long_arabic_run_on_is_cut_at_the_clause_opener_nearest_its_middle():
    # 14 + 12 words: 'بس' (but) at word 15 beats 'عشان' (because) at word 6, which is as strong
    # but would leave 5 | 21; 7+4+4+4+5+4+5+4+2+5+8+5+2+3 = 62 letters and 13 spaces = 75
    assert split_clauses(RUN_ON, "arz") == [(0, 75), (76, 146)]
    assert pieces(RUN_ON, "arz")[1].startswith("بس محدش")


def test_arabic_end_marks_cut_without_a_space_but_not_inside_numbers_or_addresses():
    text = "كلام جميل..بس فين التنفيذ؟ احنا زهقنا من الوعود ، كل سنة نفس الكلام"
    # '..' with no space after still ends a sentence; the spaced comma of an 8-word sentence stays
    assert split_clauses(text, "arz") == [(0, 11), (11, 26), (27, 67)]
    assert pieces(text, "arz") == ["كلام جميل..", "بس فين التنفيذ؟", "احنا زهقنا من الوعود ، كل سنة نفس الكلام"]
    text = "سعر الدولار 5.7 جنيه النهارده في البنك. روح youm7.com واقرا"
    assert pieces(text, "arz") == ["سعر الدولار 5.7 جنيه النهارده في البنك.", "روح youm7.com واقرا"]


def test_the_length_guard_never_leaves_a_clause_shorter_than_five_words():
    # 22 words; 'بس' at word 4 would leave 3 words before it, so the cut falls before the word
    # glued to و ('وتشوف', "and see"): 12 | 10
    text = ("انا مش فاهم بس الموضوع ده محتاج ناس فاهمة تقعد مع بعض "
            "وتشوف الحل المناسب للمشكلة الكبيرة اللي الناس كلها بتعاني منها")
    assert split_clauses(text, "arz") == [(0, 53), (54, 116)]
    min_len, max_len = CLAUSE_LIMITS["arz"]
    assert (min_len, max_len) == (5, 20)
    short = " ".join(["كلام"] * 19 + ["بس", "كده"])  # 21 words, the only opener 2 words from the end
    assert split_clauses(short, "arz") == [(0, len(short))]


def test_chinese_clauses_at_commas_and_spaces_when_the_sentence_is_long():
    # 43 Han characters; the second comma (after 24) is the most balanced cut: 24 | 19
    text = "我覺得央行這次升息半碼其實不太夠，因為通膨還是很高，而且台幣一直貶值，所以外資會繼續賣超台股"
    assert split_clauses(text, "cmn") == [(0, 26), (26, 46)]
    # one user's replies joined by spaces: 35 characters, cut at the middle space: 17 | 18
    text = "這家銀行手續費比較低 建議去那邊換匯 不然會被坑很多錢喔 真的很貴啦大家小心"
    assert pieces(text, "cmn") == ["這家銀行手續費比較低 建議去那邊換匯", "不然會被坑很多錢喔 真的很貴啦大家小心"]
    short = "這家銀行手續費比較低，建議去那邊換匯。"  # 17 characters: one sentence
    assert split_clauses(short, "cmn") == [(0, len(short))]


def test_a_line_wrapped_at_the_terminal_width_goes_on():
    # 30 Han characters are 60 columns: wrapped, so the sentence goes on to the next line
    wrapped = "台積電今天開盤就大漲外資連續買超好幾天市場情緒非常樂觀投資人\n都在追高。"
    assert WRAP_COLUMNS == 60
    assert split_clauses(wrapped, "cmn") == [(0, 36)]
    # 29 characters (58 columns): a line of its own
    line = "台積電今天開盤就大漲外資連續買超好幾天市場情緒非常樂觀投資\n都在追高。"
    assert split_clauses(line, "cmn") == [(0, 29), (30, 35)]


def test_english_is_cut_into_sentences_as_before():
    text = "The fee is 25 dollars, but only in cash. Ask at the counter and they will help you with it."
    assert split_clauses(text, "eng") == split_sentences(text, "eng") == [(0, 40), (41, 91)]


def test_longer_arabic_clause_limits_keep_a_26_word_run_on_whole_and_cut_at_8():
    # the 26-word RUN_ON above: with max_len 30 it is not long enough to cut; with (8, 20) the cut
    # at 'بس' (word 15: 14 | 12, both >= 8) still wins, and (13, 20) leaves no boundary with both
    # sides >= 13 but 'بس' (14 | 12 fails), so the comment stays whole
    assert split_clauses(RUN_ON, "arz", (8, 30)) == [(0, 146)]
    assert split_clauses(RUN_ON, "arz", (8, 20)) == [(0, 75), (76, 146)]
    assert split_clauses(RUN_ON, "arz", (13, 20)) == [(0, 146)]


def test_bad_clause_limits_are_refused():
    import pytest

    with pytest.raises(ValueError, match="clause limits"):
        split_clauses(RUN_ON, "arz", (10, 5))


# 25 + 6 words, written for this test: "we've talked about this a lot before and the officials have
# known the problem well for ages, and so what | that is, when people complain again does anyone
# listen or answer us. God mend things, folks, by God"
WINDOW = ("الموضوع ده اتكلمنا فيه كتير قبل كده والمسؤولين عارفين المشكلة كويس من زمان وايه "
          "يعنى لما الناس تشتكي تاني هو حد بيسمع ولا بيرد علينا. ربنا يصلح الحال يا جماعة والله")


def test_clauses_know_the_sentence_they_were_cut_from():
    from indexing.sentences import clauses_by_sentence

    # 25 words cut before 'يعنى' (that is): 14 | 11. The first clause is 66 letters and 13 spaces
    # (7+2+7+3+4+3+3+10+6+7+4+2+4+4), the second 43 letters and 10 spaces; the second sentence
    # (after '.') is 25 letters and 5 spaces
    assert clauses_by_sentence(WINDOW, "arz") == [(0, 0, 79), (0, 80, 133), (1, 134, 164)]
    assert split_clauses(WINDOW, "arz") == [(0, 79), (80, 133), (134, 164)]
    assert WINDOW[0:79].endswith("وايه") and WINDOW[80:133].startswith("يعنى")
    assert clauses_by_sentence("One. Two three.", "eng") == [(0, 0, 4), (1, 5, 15)]


def test_a_clause_window_joins_the_next_clause_of_its_sentence_only():
    from bolt.pipeline.candidates import CandidatePost, clause_window, post_sentences
    from indexing.reader import parse_thread_text

    head = '<doc id="ARZ_T1">\n<headline>\nعنوان\n</headline>\n'  # 18 + 11 + 6 + 12 = 47 characters
    tag = '<post author="a" datetime="2010-04-04T20:41:00" id="p1">\n'  # 57 characters
    raw = head + tag + WINDOW + "\n</post>\n</doc>\n"
    thread = parse_thread_text(raw, path="a.xml", lang="arz")
    sents = post_sentences(thread, CandidatePost("ARZ_T1", "p1", "arz", 1.0, 0, 1.0))
    assert [(s.offset, s.end) for s in sents] == [(104, 183), (184, 237), (238, 268)]  # 104 + the spans
    assert all(raw[s.offset:s.end] == s.text for s in sents)
    # the dangling "and so what" clause gets the clause that says what it means; the citation
    # (its first character) stays where it was
    assert clause_window(thread, sents[0], 1, 60) == WINDOW[0:133]
    # never into the next sentence, never past max_words, never into another bullet's clause
    assert clause_window(thread, sents[1], 1, 60) == WINDOW[80:133]
    assert clause_window(thread, sents[0], 1, 24) == WINDOW[0:79]
    assert clause_window(thread, sents[0], 1, 60, taken=frozenset({1})) == WINDOW[0:79]
    assert clause_window(thread, sents[0], 0, 60) == WINDOW[0:79]
