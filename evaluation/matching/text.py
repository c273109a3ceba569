"""Script detection, word and character counts, bullet sentences: the text facts a judgment records.

Words (SPEC §5 ``W_k``, ``w_k``): whitespace-separated tokens, except that each CJK character
counts as one word (Chinese is written without spaces, and one character is roughly one English
word of content). Characters (``L_k``): non-white-space code points. Both rules are
language-agnostic, so a bullet that mixes scripts is counted consistently.
"""
from __future__ import annotations

import functools
import re

# Han ideographs (unified + extension A + compatibility), kana and Hangul: written without spaces.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_ARABIC_CHAR = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
_LATIN_CHAR = re.compile(r"[A-Za-z\u00c0-\u024f]")
_NON_SPACE = re.compile(r"\S")
_WORDISH = re.compile(r"[^\W_]")


@functools.lru_cache(maxsize=200_000)
def script_lang(text: str) -> str:
    """``"eng"``, ``"cmn"`` or ``"arz"`` by the script most of the text's letters are written in.

    Latin wins ties and text with no letters at all, since topics and facet descriptions are English.
    """
    cjk = len(_CJK_CHAR.findall(text))
    arabic = len(_ARABIC_CHAR.findall(text))
    latin = len(_LATIN_CHAR.findall(text))
    if cjk > latin and cjk >= arabic:
        return "cmn"
    if arabic > latin and arabic > cjk:
        return "arz"
    return "eng"


def count_words(text: str) -> int:
    """Whitespace tokens holding a letter or digit, with every CJK character one word.

    A token of punctuation alone (``-``, ``。``) is not a word; a token mixing CJK and other
    characters counts each CJK character plus one for the rest.
    """
    cjk = len(_CJK_CHAR.findall(text))
    rest = _CJK_CHAR.sub(" ", text) if cjk else text
    return cjk + sum(1 for tok in rest.split() if _WORDISH.search(tok))


def count_chars(text: str) -> int:
    """Non-white-space characters (``L_k``, and the length ``l`` of the TREC nugget F)."""
    return len(_NON_SPACE.findall(text))


@functools.lru_cache(maxsize=200_000)
def sentences(text: str, lang: str) -> tuple[str, ...]:
    """The bullet's sentences (spaCy blank + sentencizer); the whole text when it has only one."""
    from indexing.sentences import split_sentences

    spans = split_sentences(text, lang)
    out = tuple(text[s:e] for s, e in spans if text[s:e].strip())
    return out or (text,)
