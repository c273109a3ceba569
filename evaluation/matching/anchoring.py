"""Citation anchoring (SPEC §5 step 1): a citation that lands on a nugget's span supports its facet.

A nugget's span is its text located at (or up to three words after) its offset in its thread
(``Thread.find_text``); when the text cannot be found there (a translated or trimmed nugget) the
span falls back to ``[offset, offset + len(text))``. A citation is anchored to the nugget when it
cites the same thread and post, and its offset lies inside the span or at most ``max_words`` words
before it (the guidelines let a citation point up to three words before the supporting text).
"""
from __future__ import annotations

from typing import NamedTuple

from indexing.textfacts import CITATION_WORDS_BEFORE, within_citation_reach


class NuggetSpan(NamedTuple):
    """Where a facet's nugget sits: ``nugget`` is its 0-based index among the facet's nuggets."""

    facet: str
    nugget: int
    thread: str
    start: int
    end: int
    post: str | None
    located: bool  # False when the fallback span [offset, offset + len(text)) was used


class Anchor(NamedTuple):
    """A citation anchored to a nugget, ``distance`` words before its span (0: inside)."""

    span: NuggetSpan
    distance: int


def locate(thread, facet_id: str, index: int, nugget) -> NuggetSpan | None:
    """The nugget's raw span in ``thread`` (None for a nugget without post/offset)."""
    if nugget.post is None or nugget.offset is None or thread is None:
        return None
    found = None
    try:
        found = thread.find_text(nugget.text, nugget.offset)
    except (ValueError, IndexError):
        found = None
    if found is not None:
        start, end = found
        located = True
    else:
        start, end, located = nugget.offset, nugget.offset + max(len(nugget.text), 1), False
    post = thread.post_at(start)
    return NuggetSpan(facet_id, index, thread.id, start, end, post.id if post else None, located)


def anchors(thread, offset: int, spans: list[NuggetSpan], max_words: int = CITATION_WORDS_BEFORE) -> list[Anchor]:
    """Every nugget span of ``thread`` that a citation at ``offset`` is anchored to."""
    if thread is None:
        return []
    post = thread.post_at(offset)
    if post is None:
        return []
    out: list[Anchor] = []
    for span in spans:
        if span.thread != thread.id or span.post != post.id:
            continue
        if span.start <= offset < span.end:
            out.append(Anchor(span, 0))
        elif offset < span.start:
            d = thread.word_distance(offset, span.start)
            if within_citation_reach(d, max_words):
                out.append(Anchor(span, d))
    return out
