"""The cited post as the page shows it: decoded text in runs, quotes marked, the cited text lit.

The page never sees raw XML or a file path: only these runs of decoded text, so nothing of the
collection beyond the cited posts leaves the server. The lit span is the bullet's text found at
(or within three words after) the cited offset; when the bullet is not a verbatim extract, it is
the sentence that starts at the offset.
"""
from __future__ import annotations

import re
from typing import Any

from indexing.records import decode_spans

_SENTENCE_END = re.compile(r"[.!?。！？؟\n]")
_FALLBACK_CHARS = 400
_CONTEXT_END = ".!?。！？؟"
_DIRECTION = {"arz": ("ar", "rtl"), "cmn": ("zh", "ltr"), "eng": ("en", "ltr")}


def post_view(thread, offsets: tuple[int, ...], bullet_text: str | tuple[str, ...]) -> dict[str, Any]:
    """A JSON-ready view of the post holding ``offsets[0]``: header fields and text segments.

    Segments are ``{"t": text, "q": quote depth > 0, "hl": lit, "cite": starts at a cited offset}``.
    ``bullet_text`` is the text cited at every offset, or one text per offset (the post-at-a-time
    view lights every bullet citing the post). ``before`` is the sentence before the first lit text
    in the post (context for a bullet such as "That's a 60% jump.", shown on demand).
    """
    texts = (bullet_text,) * len(offsets) if isinstance(bullet_text, str) else tuple(bullet_text)
    post = thread.post_at(offsets[0])
    lang, direction = _DIRECTION.get(thread.lang or "", ("", "auto"))
    if post is None:
        return {"thread": thread.id, "post": None, "lang": lang, "dir": direction, "segments": [],
                "missing": f"offset {offsets[0]} lies outside every post of this thread"}
    chars: list[tuple[str, int, bool]] = []  # (character, raw offset, in a quote)
    for piece in post.pieces:
        text, offs, _ = decode_spans(thread.raw[piece.start:piece.end], piece.start)
        if chars and piece.is_quote != chars[-1][2] and chars[-1][0] != "\n" and not text.startswith("\n"):
            chars.append(("\n", offs[0] if offs else piece.start, piece.is_quote))
        chars.extend((c, o, piece.is_quote) for c, o in zip(text, offs))
    found = [_find(thread, o, t) for o, t in zip(offsets, texts)]  # the bullet's own text at each citation
    spans = [f if f is not None else _sentence_span(chars, o) for f, o in zip(found, offsets)]
    cites = set(offsets)
    segments: list[dict[str, Any]] = []
    seen_cite: set[int] = set()
    for c, off, quote in chars:
        lit = any(s <= off < e for s, e in spans)
        cite = False
        for o in cites - seen_cite:
            if off >= o:
                cite = True
                seen_cite.add(o)
        last = segments[-1] if segments else None
        if last is not None and last["q"] == quote and last["hl"] == lit and not cite:
            last["t"] += c
        else:
            segments.append({"t": c, "q": quote, "hl": lit, "cite": cite})
    before = _sentence_before(chars, min(s for s, _ in spans)) if spans else ""
    _trim(segments)
    return {"thread": thread.id, "post": post.id, "author": post.author, "datetime": post.datetime,
            "lang": lang, "dir": direction, "segments": segments, "before": before,
            "found": any(f is not None for f in found)}


def _sentence_before(chars: list[tuple[str, int, bool]], start: int) -> str:
    """The sentence that ends just before raw offset ``start`` in the post ("" when it opens the post)."""
    i = next((k for k, (_, o, _) in enumerate(chars) if o >= start), len(chars))
    end = i
    while end > 0 and chars[end - 1][0].isspace():
        end -= 1
    k = end - 1  # skip the closing punctuation of that sentence, then find where it starts
    while k > 0 and end - k < _FALLBACK_CHARS:
        c = chars[k - 1][0]
        if c in _CONTEXT_END or (c == "\n" and k >= 2 and chars[k - 2][0] == "\n"):
            break  # a sentence's end, or a blank line (a line break alone may only wrap a sentence)
        k -= 1
    return " ".join("".join(c for c, _, _ in chars[max(k, 0):end]).split())


def _find(thread, offset: int, text: str) -> tuple[int, int] | None:
    """Raw span of the bullet's text cited at ``offset`` (None when it is not there); searched once
    per citation, for both the lit span and the page's "found" flag."""
    try:
        return thread.find_text(text, offset)
    except (ValueError, IndexError):
        return None


def _sentence_span(chars: list[tuple[str, int, bool]], offset: int) -> tuple[int, int]:
    """Raw span to light when the bullet's text is not at the citation: the sentence at the offset."""
    start = next((i for i, (_, o, _) in enumerate(chars) if o >= offset), len(chars))
    end = start
    while end < len(chars) and end - start < _FALLBACK_CHARS:
        if end > start and _SENTENCE_END.match(chars[end][0]):
            end += 1
            break
        end += 1
    if start >= len(chars):
        return (offset, offset)
    return (chars[start][1], chars[end - 1][1] + 1)


_BLANK_LINES = re.compile(r"[ \t]*\n[ \t\n]*\n")


def _tidy(segments: list[dict[str, Any]]) -> None:
    """At most one blank line in a row, inside a segment or across segments (quotes leave many)."""
    run = 0  # line breaks at the end of the text kept so far
    for seg in segments:
        text = _BLANK_LINES.sub("\n\n", seg["t"])
        body = text.lstrip()
        lead = text[:len(text) - len(body)]
        if lead.count("\n") + run > 2:
            text = "\n" * max(0, 2 - run) + body
        seg["t"] = text
        tail = text[len(text.rstrip()):]
        run = run + tail.count("\n") if not body else tail.count("\n")
    segments[:] = [seg for seg in segments if seg["t"] or seg["cite"]]


def _trim(segments: list[dict[str, Any]]) -> None:
    """Drop the white space that opens and closes a post (the XML's line breaks)."""
    _tidy(segments)
    while segments and not segments[0]["t"].strip() and not segments[0]["cite"]:
        segments.pop(0)
    if segments:
        segments[0]["t"] = segments[0]["t"].lstrip()
    while segments and not segments[-1]["t"].strip():
        segments.pop()
    if segments:
        segments[-1]["t"] = segments[-1]["t"].rstrip()
