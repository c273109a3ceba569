"""Typed records of a forum collection, ir_datasets style.

Every ``start``/``end`` is a raw offset: a 0-based index in Unicode code points into
``Thread.raw``, the still-escaped XML of the thread (SPEC §2 "Offsets"). ``thread.raw[offset]``
is the character a citation points at. For a file that holds one ``<doc>`` after an XML
declaration, ``raw`` starts at the beginning of the file (the declaration included), as in the
LDC releases; for concatenated ``<doc>`` elements, ``raw`` starts at the ``<`` of ``<doc``.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Iterable, Iterator

from indexing.markup import Piece, Post, _post_pieces, find_posts  # noqa: F401  (Piece, Post re-exported)
from indexing.textfacts import CITATION_WORDS_BEFORE, ENTITY, count_words, decode_entities, within_citation_reach
from indexing.textfacts import decode_entity as _decode_entity

LANGS = ("eng", "arz", "cmn")

_QUOTE_TAG = re.compile(r"<quote(?=[\s/>])")
_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")
_ENTITY = ENTITY


@dataclass(frozen=True, slots=True)
class TextMap:
    """Decoded text with the raw span of every character, so any span maps back to the XML.

    ``offsets[i]`` is the raw offset of ``text[i]`` and ``ends[i]`` the raw end of it (an entity
    such as ``&amp;`` is one decoded character whose raw span is 5 long); ``offsets[len(text)]``
    is the raw end of the last piece. Pieces separated by inline tags only (``<a>``, ``<img/>``)
    are joined directly; pieces separated by a ``<quote>`` boundary are joined with one newline,
    a zero-width character whose offset and end are the end of the previous piece.
    """

    text: str
    offsets: tuple[int, ...]
    ends: tuple[int, ...] = ()

    def raw_offset(self, i: int) -> int:
        """Raw offset of decoded character ``i`` (``i == len(text)`` gives the raw end)."""
        return self.offsets[i]

    def raw_span(self, i: int, j: int) -> tuple[int, int]:
        """Raw [start, end) of decoded ``text[i:j]``; an entity at either edge is included whole."""
        if j <= i:
            return self.offsets[i], self.offsets[i]
        return self.offsets[i], self.ends[j - 1]

    def index_of_raw(self, offset: int) -> int:
        """The first decoded index whose raw offset is at or after ``offset``."""
        return bisect.bisect_left(self.offsets, offset, 0, len(self.text))

    def index_at_raw(self, offset: int) -> int:
        """The decoded index of the character whose raw span holds ``offset``, else the next one.

        An offset inside ``&amp;`` gives the ``&`` it encodes; an offset inside a tag gives the
        first character after the tag; ``len(text)`` when nothing follows.
        """
        return bisect.bisect_right(self.ends, offset)


class Thread:
    """One ``<doc>``: its id, language, headline, source, raw XML and posts in document order.

    Immutable. ``posts`` may be given (the reader finds them while it reads the thread), or left
    to be found in ``raw`` on first use (the reader does that for unusual threads, e.g. with
    comments or CDATA; it has checked the thread completely, so finding them later cannot fail).
    """

    __slots__ = ("id", "lang", "headline", "path", "raw", "line", "_posts", "_starts", "_by_id")

    id: str
    lang: str
    headline: str
    path: str
    raw: str
    line: int  # 1-based line of the first character of ``raw`` in the source file

    def __init__(self, id: str, lang: str, headline: str, path: str, raw: str,
                 posts: tuple[Post, ...] | None = None, line: int = 1) -> None:
        setter = object.__setattr__
        setter(self, "id", id)
        setter(self, "lang", lang)
        setter(self, "headline", headline)
        setter(self, "path", path)
        setter(self, "raw", raw)
        setter(self, "line", line)
        setter(self, "_posts", None if posts is None else tuple(posts))
        setter(self, "_starts", None)
        setter(self, "_by_id", None)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"Thread is immutable (cannot set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Thread is immutable (cannot delete {name})")

    def _key(self) -> tuple:
        return (self.id, self.lang, self.headline, self.path, self.raw, self.line)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Thread) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.id, self.path, self.line, len(self.raw)))

    def __repr__(self) -> str:
        return (f"Thread(id={self.id!r}, lang={self.lang!r}, headline={self.headline!r}, path={self.path!r}, "
                f"line={self.line}, chars={len(self.raw)})")

    def __reduce__(self):
        return (Thread, (self.id, self.lang, self.headline, self.path, self.raw, self._posts, self.line))

    @property
    def posts(self) -> tuple[Post, ...]:
        """The ``<post>`` elements in document order (found in ``raw`` on first use)."""
        posts = self._posts
        if posts is None:
            posts = find_posts(self.raw, self.line)
            object.__setattr__(self, "_posts", posts)
        return posts

    @property
    def quotes(self) -> int:
        """Number of ``<quote>`` elements in the thread, nested ones included."""
        return len(_QUOTE_TAG.findall(self.raw))

    @property
    def _post_starts(self) -> tuple[int, ...]:
        starts = self._starts
        if starts is None:
            starts = tuple(p.start for p in self.posts)
            object.__setattr__(self, "_starts", starts)
        return starts

    def post(self, post_id: str) -> Post | None:
        """The post with id ``post_id`` (``"p4"``), or None (the first, should two share an id)."""
        by_id = self._by_id
        if by_id is None:
            by_id = {}
            for p in self.posts:
                by_id.setdefault(p.id, p)
            object.__setattr__(self, "_by_id", by_id)
        return by_id.get(post_id)

    def post_at(self, offset: int) -> Post | None:
        """The post whose element spans ``offset`` (None outside every ``<post>``)."""
        i = bisect.bisect_right(self._post_starts, offset) - 1
        if i >= 0 and self.posts[i].start <= offset < self.posts[i].end:
            return self.posts[i]
        return None

    def line_of(self, offset: int) -> int:
        """1-based line in the source file of raw offset ``offset`` (for messages)."""
        return self.line + self.raw.count("\n", 0, max(0, offset))

    def text_map(self, post: Post, quotes: bool | None = False) -> TextMap:
        """The post's decoded text with exact raw spans per character.

        ``quotes=False``: the author's own text; ``True``: the quoted text only; ``None``: all of it.
        Built on demand (never stored), so reading a collection stays cheap.
        """
        if quotes is None:
            return build_text_map(self.raw, post.pieces)
        return build_text_map(self.raw, [p for p in post.pieces if p.is_quote == quotes])

    def text_at(self, offset: int) -> str:
        """Decoded text from ``offset`` to the end of the post that holds it (quotes included).

        An offset inside an entity starts at that entity's character; one inside a tag starts at
        the next text. Empty when no post holds the offset.
        """
        post = self.post_at(offset)
        if post is None:
            return ""
        tm = self.text_map(post, quotes=None)
        return tm.text[tm.index_at_raw(offset):]

    def span_text(self, start: int, end: int) -> str:
        """Decoded text of raw ``[start, end)`` within one post (tags dropped, pieces joined)."""
        post = self.post_at(start)
        if post is None:
            return ""
        tm = self.text_map(post, quotes=None)
        return tm.text[tm.index_at_raw(start):max(tm.index_at_raw(start), tm.index_of_raw(end))]

    def word_distance(self, offset: int, span_start: int) -> int:
        """Words of decoded text between ``offset`` and ``span_start`` (0 when offset is at or after).

        Used for the three-word rule: a citation may point up to three words before its text.
        Tags count as word breaks, entities as their character; words are ``indexing.textfacts`` words.
        """
        if offset >= span_start:
            return 0
        between = _TAG.sub(" ", self.raw[offset:span_start])
        return count_words(decode_entities(between))

    def find_text(self, text: str, near: int, max_words: int = CITATION_WORDS_BEFORE) -> tuple[int, int] | None:
        """Raw span of ``text`` in the post holding ``near`` that contains ``near`` or starts at most
        ``max_words`` words after it; the nearest such occurrence, None when there is none.

        Matching is exact on characters and insensitive to whitespace (any run of white space, and
        the joins between pieces, match any other); quoted text counts, since citations may point there.
        """
        post = self.post_at(near)
        needle = " ".join(text.split())
        if post is None or not needle:
            return None
        tm = self.text_map(post, quotes=None)
        hay, idx = _collapse(tm.text)
        i = hay.find(needle)
        while i >= 0:
            a, b = idx[i], idx[i + len(needle) - 1] + 1
            s, e = tm.raw_span(a, b)
            if s <= near < e:
                return s, e
            if s >= near:
                if within_citation_reach(self.word_distance(near, s), max_words):
                    return s, e
                break  # later occurrences are further away
            i = hay.find(needle, i + 1)
        return None

    def iter_pieces(self) -> Iterator[tuple[Post, Piece]]:
        for post in self.posts:
            for piece in post.pieces:
                yield post, piece


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


def decode_offsets(raw: str, start: int) -> tuple[str, list[int]]:
    """Decode an escaped text run ``raw`` that begins at raw offset ``start``.

    Returns the decoded string and the raw offset of each decoded character.
    """
    text, offs, _ = decode_spans(raw, start)
    return text, offs


def decode_spans(raw: str, start: int) -> tuple[str, list[int], list[int]]:
    """Like ``decode_offsets``, plus the raw end of each decoded character."""
    out: list[str] = []
    offs: list[int] = []
    ends: list[int] = []
    pos = 0
    for m in _ENTITY.finditer(raw):
        if m.start() > pos:
            out.append(raw[pos:m.start()])
            offs.extend(range(start + pos, start + m.start()))
            ends.extend(range(start + pos + 1, start + m.start() + 1))
        out.append(_decode_entity(m.group(1), m.group(0)))
        offs.append(start + m.start())
        ends.append(start + m.end())
        pos = m.end()
    if pos < len(raw):
        out.append(raw[pos:])
        offs.extend(range(start + pos, start + len(raw)))
        ends.extend(range(start + pos + 1, start + len(raw) + 1))
    return "".join(out), offs, ends


def _quote_between(raw: str, a: int, b: int) -> bool:
    gap = raw[a:b]
    return "<quote" in gap or "</quote" in gap


def build_text_map(raw: str, pieces: Iterable[Piece]) -> TextMap:
    """Join pieces into one decoded text with exact per-character raw spans (:class:`SpanMap`).

    Offsets come from decoding each piece's escaped slice ``raw[start:end]`` again, so an entity
    such as ``&amp;`` maps its one decoded character to the raw span of the whole entity.
    Pieces are joined directly unless a ``<quote>`` boundary lies between them (then a newline).
    """
    return SpanMap(raw, pieces).text_map()


class SpanMap:
    """A segment's decoded text and the raw span of any stretch of it, kept piece by piece.

    Pieces are joined directly unless a ``<quote>`` boundary lies between them (then a newline,
    a zero-width character whose offset and end are the end of the previous piece). A piece
    without entities, the common case, costs one tuple instead of two integers per character
    (cutting units is the Python half of indexing); :meth:`text_map` gives the per-character
    :class:`TextMap`.
    """

    __slots__ = ("text", "raw_end", "_starts", "_chunks", "_base")

    def __init__(self, raw: str, pieces) -> None:
        parts: list[str] = []
        starts: list[int] = []  # decoded index where each chunk starts
        chunks: list[tuple] = []  # (raw start,) for a verbatim piece, else (offsets, ends)
        n = 0
        last_end = -1
        for p in pieces:
            if last_end >= 0 and _quote_between(raw, last_end, p.start):
                starts.append(n)
                chunks.append(((last_end,), (last_end,)))
                parts.append("\n")
                n += 1
            starts.append(n)
            if p.end - p.start == len(p.text):
                chunks.append((p.start,))
                parts.append(p.text)
                n += len(p.text)
            else:
                text, offs, ends = decode_spans(raw[p.start:p.end], p.start)
                chunks.append((offs, ends))
                parts.append(text)
                n += len(text)
            last_end = p.end
        self.text = "".join(parts)
        self.raw_end = max(last_end, 0)  # the raw end of the last piece
        self._starts = starts
        self._chunks = chunks
        # one verbatim piece, the common case: decoded index i is raw offset base + i
        self._base = chunks[0][0] if len(chunks) == 1 and len(chunks[0]) == 1 else None

    def _offset(self, i: int, end: bool) -> int:
        k = bisect.bisect_right(self._starts, i) - 1
        chunk, d = self._chunks[k], i - self._starts[k]
        if len(chunk) == 1:
            return chunk[0] + d + end
        return chunk[1][d] if end else chunk[0][d]

    def raw_span(self, i: int, j: int) -> tuple[int, int]:
        """Raw [start, end) of decoded ``text[i:j]`` (``j > i``); an entity at an edge is whole."""
        if self._base is not None:
            return self._base + i, self._base + j
        return self._offset(i, False), self._offset(j - 1, True)

    def text_map(self) -> TextMap:
        """The same spans, one per character."""
        offs: list[int] = []
        ends: list[int] = []
        for chunk, a, b in zip(self._chunks, self._starts, self._starts[1:] + [len(self.text)]):
            if len(chunk) == 1:
                offs.extend(range(chunk[0], chunk[0] + b - a))
                ends.extend(range(chunk[0] + 1, chunk[0] + b - a + 1))
            else:
                offs.extend(chunk[0])
                ends.extend(chunk[1])
        offs.append(self.raw_end)
        return TextMap(self.text, tuple(offs), tuple(ends))
