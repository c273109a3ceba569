"""The one definition of a word, a character and an entity (indexing.textfacts), used everywhere."""
from __future__ import annotations

import pytest

from indexing import lookup, textfacts
from indexing.textfacts import (CITATION_WORDS_BEFORE, count_words, decode_entities, non_ws_chars, word_keys,
                                within_citation_reach, words)


@pytest.mark.parametrize("text, expected", [
    ("U.S. troops", ["U.S.", "troops"]),
    ("e-mail 3.5%", ["e-mail", "3.5%"]),
    ("Bain Capital - 1992 ok", ["Bain", "Capital", "1992", "ok"]),   # a lone dash is not a word
    ("中国派出了 rescue team", ["中", "国", "派", "出", "了", "rescue", "team"]),
    ("GDP 增长 7%", ["GDP", "增", "长", "7%"]),
    ("中文abc 。", ["中", "文", "abc"]),                                 # 。 alone is not a word
    ("don't", ["don't"]),
    ("  \n ", []),
])
def test_words_are_white_space_tokens_with_each_cjk_character_a_word(text, expected):
    assert words(text) == expected
    assert count_words(text) == len(expected)


def test_every_module_counts_words_the_same_way():
    from evaluation.matching import text as matching_text
    from evaluation import scoring

    for sample in ("U.S. troops", "e-mail 3.5%", "中国派出了救援队。", "a&b - c", "x_y __ 1"):
        n = textfacts.count_words(sample)
        assert lookup.count_words(sample) == matching_text.count_words(sample) == scoring.count_words(sample) == n
        assert lookup.words(sample) == words(sample)


def test_characters_are_non_white_space_code_points():
    assert non_ws_chars(" a\u3000b\u00a0c\u2028 d\t") == 4
    assert non_ws_chars("U.S. troops") == 10


def test_word_keys_drop_case_and_punctuation():
    assert word_keys("The U.S. troops, e-mail") == ["the", "us", "troops", "email"]


def test_entities_decode_xml_and_numeric_references_only():
    assert decode_entities("a &amp; b &lt;&#x4e2d;&#25991;&gt; &nbsp;") == "a & b <中文> &nbsp;"
    assert decode_entities("no refs") == "no refs"


def test_citation_reach_is_three_words():
    assert CITATION_WORDS_BEFORE == 3
    assert within_citation_reach(3) and not within_citation_reach(4)


def test_average_nugget_words_and_scores_announce_the_word_definition():
    from bolt.formats.topics import Facet, Nugget, Topic, average_nugget_words

    topic = Topic("1", "q", facets=(Facet("1", "vital", "d", (Nugget("U.S. troops left"), Nugget("e-mail 3.5%"))),))
    assert average_nugget_words([topic]) == pytest.approx(2.5)   # 3 and 2 words
    assert textfacts.WORDS_VERSION == "ws2"
