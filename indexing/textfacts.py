"""Text facts: the toolkit's one definition of a word, a character, a CJK character, an entity,
and the three-word citation rule. Every count a number depends on comes from here.

- **Word** (SPEC §5 ``W_k``/``w_k``, the average words per nugget of ``P_n``, the three-word rule):
  a white-space separated token holding a letter or digit, except that each Han, kana or Hangul
  character is a word of its own (those scripts are written without spaces; one character is
  roughly one English word of content). So ``U.S. troops`` is 2 words, ``e-mail 3.5%`` is 2,
  ``-`` and ``。`` are none, ``中文abc`` is 3.
- **Character** (SPEC §5 ``L_k``, the ``l`` of the nugget F length allowance): a non-white-space
  code point.
- **Entity**: the five XML named entities and numeric character references decode to their
  character; any other ``&name;`` stays as written (the LDC files declare no others).
- **Digits**: Arabic-Indic, Persian and full-width digits fold to ASCII (:func:`normalize_digits`);
  the system's anchors and the assessor's number match use this one folding.
- **Citation reach**: a citation or nugget offset may point at, or at most
  :data:`CITATION_WORDS_BEFORE` words before, the start of the text it cites (SPEC §2, §4).

:data:`WORDS_VERSION` names this definition; judgments headers and score settings carry it, so a
number computed under another definition is never silently compared with one computed under this.
"""
from __future__ import annotations

import re

#: Version of the word definition, recorded in judgments and score settings (``words:...``).
#: ``ws2``: white-space tokens holding a letter or digit, each CJK character a word. Before it,
#: judgments counted that way but nugget lengths and the three-word rule counted letter/digit runs.
WORDS_VERSION = "ws2"

#: A citation may point up to this many words before the text it cites (the guidelines' "three words").
CITATION_WORDS_BEFORE = 3

#: Han ideographs (extension A, unified, compatibility), Hiragana/Katakana and Hangul syllables.
CJK_RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"

CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
# A CJK character, or a maximal run of characters that are neither white space nor CJK.
_TOKEN = re.compile(rf"[{CJK_RANGES}]|[^\s{CJK_RANGES}]+")
_WORDISH = re.compile(r"[^\W_]")  # a letter or digit (CJK characters are letters)
_NOT_WORDISH = re.compile(r"[\W_]+")
ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
#: The five entities XML predefines.
XML_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def words(text: str) -> list[str]:
    """The words of decoded text, in order (see the module docstring for what a word is)."""
    search = _WORDISH.search
    return [t for t in _TOKEN.findall(text) if search(t)]


def count_words(text: str) -> int:
    """How many words decoded text holds."""
    cjk = len(CJK_CHAR.findall(text))
    rest = CJK_CHAR.sub(" ", text) if cjk else text
    search = _WORDISH.search
    return cjk + sum(1 for tok in rest.split() if search(tok))


def word_keys(text: str) -> list[str]:
    """The words of ``text`` case-folded with punctuation dropped (``U.S.`` -> ``us``): what two
    texts are compared on when one may be punctuated or cased differently from the other."""
    sub = _NOT_WORDISH.sub
    return [sub("", w) for w in words(text.casefold())]


def non_ws_chars(text: str) -> int:
    """Non-white-space characters.

    ``str.split()`` splits on exactly the characters regex ``\\s`` matches (``str.isspace``, checked
    over every code point in the tests), at a third of the cost of removing them with a regex.
    """
    return sum(map(len, text.split()))


def decode_entity(body: str, whole: str) -> str:
    """The character an entity reference encodes (``body`` is between ``&`` and ``;``); ``whole``
    (the reference as written) for a named entity other than XML's five."""
    if body.startswith("#x"):
        return chr(int(body[2:], 16))
    if body.startswith("#"):
        return chr(int(body[1:]))
    return XML_ENTITIES.get(body, whole)


def decode_entities(text: str) -> str:
    """``text`` with every entity reference decoded by :func:`decode_entity`."""
    if "&" not in text:
        return text
    return ENTITY.sub(lambda m: decode_entity(m.group(1), m.group(0)), text)


_DIGITS = str.maketrans({**{chr(0x0660 + i): str(i) for i in range(10)},
                         **{chr(0x06F0 + i): str(i) for i in range(10)},
                         **{chr(0xFF10 + i): str(i) for i in range(10)}})


def normalize_digits(text: str) -> str:
    """Arabic-Indic, Persian and full-width digits -> ASCII digits."""
    return text.translate(_DIGITS)


def within_citation_reach(words_between: int, max_words: int = CITATION_WORDS_BEFORE) -> bool:
    """True when a citation that many words before its text still cites it (the three-word rule)."""
    return words_between <= max_words


__all__ = ["WORDS_VERSION", "CITATION_WORDS_BEFORE", "CJK_RANGES", "CJK_CHAR", "ENTITY", "XML_ENTITIES", "words", "count_words",
           "word_keys", "non_ws_chars", "decode_entity", "decode_entities", "within_citation_reach",
           "normalize_digits"]
