"""A topic file's nugget citations against the collection (SPEC §2, §3): does each nugget's offset
point at, or at most three words before, its text inside a ``<post>``; where is the nearest exact one.

``bolt.formats.topics.check_topics(path, corpus)`` runs these checks; ``nugget_resolves`` and
``find_nugget_offsets`` are re-exported from ``bolt.formats.topics``.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexing.problems import Problem
from bolt.formats.topic_rules import (NUGGET_OFFSET_MISMATCH, NUGGET_OFFSET_OUTSIDE_POST, NUGGET_OFFSET_OUTSIDE_THREAD,
                              NUGGET_THREAD_UNKNOWN, RULES)
from indexing.textfacts import CITATION_WORDS_BEFORE, within_citation_reach

if TYPE_CHECKING:  # pragma: no cover - the records are bolt.formats.topics'; annotations only
    from bolt.formats.topics import Facet, Nugget, Topic
    from indexing.records import Thread

MAX_WORDS_BEFORE = CITATION_WORDS_BEFORE  # a nugget offset may point up to three words before its text (SPEC §2)


def check_nugget(file: str, topic: "Topic", facet: "Facet", nugget: "Nugget", corpus) -> list[Problem]:
    """The problems of one nugget's citation in ``corpus`` (empty when it has none or it resolves)."""
    if nugget.post is None or nugget.offset is None:
        return []

    def problem(rule: str, message: str) -> list[Problem]:
        return [Problem(RULES[rule].severity, file, nugget.line, rule, f"facet {facet.id}: {message}", topic.topic_id)]

    thread = corpus.get(nugget.post)
    if thread is None:
        return problem(NUGGET_THREAD_UNKNOWN, f"nugget post {nugget.post} is not a thread of the corpus; "
                       "use a thread id from the collection")
    found = find_nugget_offsets(thread, nugget.text)
    hint = _nearest_hint(found, nugget.offset, nugget.text)
    if not 0 <= nugget.offset < len(thread.raw):
        return problem(NUGGET_OFFSET_OUTSIDE_THREAD, f"offset {nugget.offset} is outside thread "
                       f"{thread.id} (length {len(thread.raw)}); {hint}")
    if thread.post_at(nugget.offset) is None:
        return problem(NUGGET_OFFSET_OUTSIDE_POST, f"offset {nugget.offset} of thread {thread.id} is not "
                       f"inside a <post>; {hint}")
    if _resolves(thread, nugget.text, nugget.offset, found):
        return []
    return problem(NUGGET_OFFSET_MISMATCH, f"the nugget text is not at (or within {MAX_WORDS_BEFORE} "
                   f"words after) offset {nugget.offset} of thread {thread.id}; {hint}")


def nugget_resolves(thread: "Thread", nugget: "Nugget") -> bool:
    """True when ``nugget.offset`` points at, or at most three words before, its text in ``thread``."""
    if nugget.offset is None or thread.post_at(nugget.offset) is None:
        return False
    return _resolves(thread, nugget.text, nugget.offset, find_nugget_offsets(thread, nugget.text))


def _resolves(thread: "Thread", text: str, offset: int, found: list[tuple[int, int]]) -> bool:
    if thread.find_text(text, offset, MAX_WORDS_BEFORE) is not None:
        return True
    # Also accept an exact occurrence in the same post (own or quoted text) found by our search.
    post = thread.post_at(offset)
    return any(thread.post_at(s) is post and (s <= offset < e or (
        offset <= s and within_citation_reach(thread.word_distance(offset, s), MAX_WORDS_BEFORE))) for s, e in found)


def find_nugget_offsets(thread: "Thread", text: str) -> list[tuple[int, int]]:
    """Raw spans where ``text`` (whitespace-insensitive, entities decoded) occurs in the thread's posts.

    Searches each post's own text and its quoted text, so a suggested offset always lies inside
    a ``<post>``.
    """
    words = text.split()
    if not words:
        return []
    pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
    spans: list[tuple[int, int]] = []
    for post in thread.posts:
        for quotes in (False, True):
            tm = thread.text_map(post, quotes=quotes)
            for m in pattern.finditer(tm.text):
                spans.append(tm.raw_span(m.start(), m.end()))
    return sorted(set(spans))


def _nearest_hint(found: list[tuple[int, int]], offset: int, text: str) -> str:
    if not found:
        short = text if len(text) <= 40 else text[:37] + "..."
        return f"the text \"{short}\" is not in that thread; copy the nugget exactly from a post"
    best = min(found, key=lambda s: (abs(s[0] - offset), s[0]))
    return f"the nearest exact offset is {best[0]}"
