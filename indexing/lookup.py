"""Lookups by raw offset in function form: the text there, a text near it, words between.

``Thread`` owns the offset path (``post_at``, ``text_map`` and the methods these call); this module
only delegates to it, one way, for callers that hold a thread and want a function, e.g. the
validator's three-word rule (SPEC §2, §4): a citation points at, or at most three words before,
the start of its supporting text inside a ``<post>``.

Words are ``indexing.textfacts`` words (the toolkit's one definition, re-exported here); between two
offsets, tags count as breaks and entities as the one character they encode.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from indexing.textfacts import CITATION_WORDS_BEFORE, count_words, words

if TYPE_CHECKING:  # pragma: no cover - annotations only: this module calls the thread's methods
    from indexing.records import Thread

__all__ = ["words", "count_words", "word_distance", "text_at", "find_text_near", "span_text"]


def word_distance(thread: Thread, offset: int, span_start: int) -> int:
    """Words of text between raw ``offset`` and raw ``span_start`` (``Thread.word_distance``)."""
    return thread.word_distance(offset, span_start)


def text_at(thread: Thread, offset: int) -> str:
    """Decoded text from raw ``offset`` to the end of its post (``Thread.text_at``)."""
    return thread.text_at(offset)


def find_text_near(thread: Thread, text: str, near: int,
                   max_words: int = CITATION_WORDS_BEFORE) -> tuple[int, int] | None:
    """Raw span of ``text`` at or at most ``max_words`` words after ``near`` (``Thread.find_text``)."""
    return thread.find_text(text, near, max_words)


def span_text(thread: Thread, start: int, end: int) -> str:
    """Decoded text of raw ``[start, end)`` within one post (``Thread.span_text``)."""
    return thread.span_text(start, end)
