"""Script detection, word and character counts, bullet sentences: the text facts a judgment records.

Words (SPEC §5 ``W_k``, ``w_k``) and characters (``L_k``) are ``indexing.textfacts``'s, the
toolkit's one definition: white-space tokens holding a letter or digit with each CJK character a
word, and non-white-space code points.
"""
from __future__ import annotations

import functools
import re

from indexing import textfacts

_CJK_CHAR = textfacts.CJK_CHAR
_ARABIC_CHAR = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")
_LATIN_CHAR = re.compile(r"[A-Za-z\u00c0-\u024f]")


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
    """Words of ``text`` (``indexing.textfacts.count_words``)."""
    return textfacts.count_words(text)


def count_chars(text: str) -> int:
    """Non-white-space characters (``L_k``, and the length ``l`` of the TREC nugget F)."""
    return textfacts.non_ws_chars(text)


@functools.lru_cache(maxsize=200_000)
def sentences(text: str, lang: str) -> tuple[str, ...]:
    """The bullet's sentences (spaCy blank + sentencizer); the whole text when it has only one."""
    from indexing.sentences import split_sentences

    spans = split_sentences(text, lang)
    out = tuple(text[s:e] for s, e in spans if text[s:e].strip())
    return out or (text,)
