"""Back-translation of Arabic and Chinese sentences into a bag of English stems (offline lexicons).

A reply in a forum thread often states a fact without the query's words ("the fee was 12 million
dollars, three-year contract"). Mapping each word of the sentence back to English through the
inverse lexicons (:func:`bolt.lexicon.inverse_lexicon`) lets it be compared with the query and
with the best English evidence, word for word, as an English sentence would be. Numbers are kept
as ASCII digits (the same in every language). Chinese is segmented by forward maximum matching
against the CC-CEDICT headwords (up to 4 characters; both folded to one script), Arabic uses the index's analysed terms
(two-term forms first).
"""
from __future__ import annotations

import re

from bolt.lexicon import inverse_lexicon
from bolt.pipeline.anchors import numbers_in
from bolt.pipeline.text import arabic_terms, english_terms
from indexing.script_fold import fold_chinese

_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def gloss_bag(text: str, lang: str) -> frozenset[str]:
    """English stems (and ASCII numbers) that the sentence's words translate to."""
    out: set[str] = set(numbers_in(text))
    if lang == "eng":
        return frozenset(out.union(english_terms(text)))
    table = inverse_lexicon(lang)
    out.update(english_terms(" ".join(_LATIN.findall(text))))  # Latin words kept in the sentence
    if lang == "cmn":
        for run in _HAN_RUN.findall(fold_chinese(text)):  # the table is keyed by folded headwords
            i = 0
            while i < len(run):
                for n in (4, 3, 2, 1):
                    w = run[i:i + n]
                    if len(w) == n and w in table:
                        out.update(table[w])
                        i += n
                        break
                else:
                    i += 1
    elif lang == "arz":
        toks = arabic_terms(text)
        i = 0
        while i < len(toks):
            pair = tuple(toks[i:i + 2])
            if len(pair) == 2 and pair in table:
                out.update(table[pair])
                i += 2
                continue
            out.update(table.get((toks[i],), ()))
            i += 1
    return frozenset(out)
