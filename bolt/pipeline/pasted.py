"""Quoted passages a poster pasted in (a news report, an official statement), told from replies.

A ``<quote>`` usually repeats an earlier post of its thread (SPEC §2); then its words are that
post's, and citing them here would credit the wrong poster. A quote that names a poster
(``orig_author``) quotes a forum member, even one whose post is not in the thread as collected.
A quote that names no one and whose text is in no earlier post was brought in by this poster: a
report pasted as evidence. Those passages may be read as the poster's own text.
"""
from __future__ import annotations

from indexing.records import TextMap, build_text_map


def _collapsed(text: str) -> str:
    return " ".join(text.split()).casefold()


def quote_blocks(post) -> list[list]:
    """The post's quoted pieces, one list per outermost ``<quote>`` run (nested quotes belong to
    the run that holds them)."""
    blocks: list[list] = []
    inside = False
    for p in post.pieces:
        if p.is_quote:
            if not inside:
                blocks.append([])
            blocks[-1].append(p)
        inside = p.is_quote
    return blocks


def pasted_maps(thread, post) -> list[TextMap]:
    """A text map (exact raw spans) of each quoted passage of ``post`` that names no poster and
    repeats no earlier post of ``thread``."""
    blocks = [b for b in quote_blocks(post) if not any(p.orig_author for p in b)]
    if not blocks:
        return []
    earlier = [p for p in thread.posts if p.start < post.start]
    before = "\n".join(_collapsed(thread.text_map(p, quotes=None).text) for p in earlier)
    out = []
    for block in blocks:
        tm = build_text_map(thread.raw, block)
        text = _collapsed(tm.text)
        if text and text not in before:
            out.append(tm)
    return out
