"""Lookups by raw offset: the post that holds it, the text there, a text near it, words between.

These back the ``Thread`` methods (``text_at``, ``find_text``, ``word_distance``) and the
validator's three-word rule (SPEC §2, §4): a citation points at, or at most three words before,
the start of its supporting text inside a ``<post>``.

Words are ``indexing.textfacts`` words (the toolkit's one definition); between two offsets, tags
count as breaks and entities as the one character they encode.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexing.textfacts import CITATION_WORDS_BEFORE, count_words, decode_entities, within_citation_reach, words

if TYPE_CHECKING:  # pragma: no cover - records imports this module; annotations only
    from indexing.records import TextMap, Thread

_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")

__all__ = ["words", "count_words", "word_distance", "text_at", "find_text_near", "span_text"]


def word_distance(thread: Thread, offset: int, span_start: int) -> int:
    """Words of text between raw ``offset`` and raw ``span_start`` (0 when offset >= span_start)."""
    if offset >= span_start:
        return 0
    between = _TAG.sub(" ", thread.raw[offset:span_start])
    return count_words(decode_entities(between))


def text_at(thread: Thread, offset: int) -> str:
    """Decoded text (quotes included) from raw ``offset`` to the end of the post that holds it."""
    post = thread.post_at(offset)
    if post is None:
        return ""
    tm = thread.text_map(post, quotes=None)
    return tm.text[tm.index_at_raw(offset):]


def _collapse(text: str) -> tuple[str, list[int]]:
    """``text`` with every whitespace run made one space, and each kept character's index."""
    out: list[str] = []
    idx: list[int] = []
    pos = 0
    for m in _SPACE.finditer(text):
        out.append(text[pos:m.start()])
        idx.extend(range(pos, m.start()))
        out.append(" ")
        idx.append(m.start())
        pos = m.end()
    out.append(text[pos:])
    idx.extend(range(pos, len(text)))
    return "".join(out), idx


def find_text_near(thread: Thread, text: str, near: int,
                   max_words: int = CITATION_WORDS_BEFORE) -> tuple[int, int] | None:
    """Raw span of ``text`` in the post holding ``near`` that contains ``near`` or starts at most
    ``max_words`` words after it; the nearest such occurrence, None when there is none.

    Matching is exact on characters and insensitive to whitespace (any run of white space, and
    the joins between pieces, match any other); quoted text counts, since citations may point there.
    """
    post = thread.post_at(near)
    needle = " ".join(text.split())
    if post is None or not needle:
        return None
    tm: TextMap = thread.text_map(post, quotes=None)
    hay, idx = _collapse(tm.text)
    i = hay.find(needle)
    while i >= 0:
        a, b = idx[i], idx[i + len(needle) - 1] + 1
        s, e = tm.raw_span(a, b)
        if s <= near < e:
            return s, e
        if s >= near:
            if within_citation_reach(word_distance(thread, near, s), max_words):
                return s, e
            break  # later occurrences are further away
        i = hay.find(needle, i + 1)
    return None


def span_text(thread: Thread, start: int, end: int) -> str:
    """Decoded text of raw ``[start, end)`` within one post (tags dropped, pieces joined)."""
    post = thread.post_at(start)
    if post is None:
        return ""
    tm = thread.text_map(post, quotes=None)
    return tm.text[tm.index_at_raw(start):max(tm.index_at_raw(start), tm.index_of_raw(end))]
