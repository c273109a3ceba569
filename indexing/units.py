"""Retrieval units: what an index stores and a search returns, each mapped to raw offsets.

A post is cut into *segments*: maximal runs of its own text, and of its quoted text, between
``<quote>`` boundaries. Own and quoted text never share a unit, so a hit on a quoted copy is
always flagged ``quoted=True`` and never passed off as the original (SPEC §2: quotes usually
repeat an earlier post). Each segment gives

- one ``post`` unit: the whole segment (for most posts, the author's whole own text), and
- ``passage`` units: windows of ``window`` sentences, moving ``stride`` sentences at a time
  (default 3 and 2, so consecutive passages share one sentence and no sentence is cut off).

Every unit carries ``offset``/``end``: raw code-point offsets into ``Thread.raw`` such that the
raw slice, with tags removed and entities decoded (:func:`raw_to_text`), is the unit's ``text``
up to white space (inline tags such as ``<a>`` become line breaks in ``text``).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, fields
from typing import Iterator, NamedTuple

from indexing.records import Post, SpanMap, Thread, decode_offsets
from indexing.sentences import split_sentences, strip_span

POST = "post"
PASSAGE = "passage"
UNIT_KINDS = (PASSAGE, POST)


class Unit(NamedTuple):
    """One retrievable piece of text; ``raw[offset:end]`` holds exactly its text."""

    thread: str
    post: str
    lang: str
    unit: str  # 'post' | 'passage'
    quoted: bool
    offset: int
    end: int
    text: str
    at: int = 0  # where ``text`` starts in the text of its segment's post unit (passages)


@dataclass(frozen=True)
class UnitConfig:
    """How posts are cut into passages; its repr (defaults left out) goes into the manifest."""

    window: int = 3
    stride: int = 2
    splitter: str = "regex"  # 'regex' (fast, see fast_sentences) | 'spacy' (indexing.sentences)

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ValueError(f"UnitConfig.window must be >= 1, not {self.window}")
        if not 1 <= self.stride <= self.window:
            raise ValueError(f"UnitConfig.stride must be in 1..window ({self.window}), not {self.stride}")
        if self.splitter not in ("regex", "spacy"):
            raise ValueError(f"UnitConfig.splitter must be 'regex' or 'spacy', not {self.splitter!r}")

    def sentences(self, text: str, lang: str) -> list[tuple[int, int]]:
        if self.splitter == "spacy":
            return split_sentences(text, lang)
        return fast_sentences(text)

    def __repr__(self) -> str:
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return f"UnitConfig({', '.join(changed)})"


def segments(post: Post) -> Iterator[tuple[bool, list]]:
    """Maximal runs of a post's pieces that are all own text or all quoted: ``(quoted, pieces)``.

    White-space-only pieces (the line breaks around ``<quote>`` tags) are left out.
    """
    run: list = []
    quoted = False
    for piece in post.pieces:
        if not piece.text.strip():
            continue
        if run and piece.is_quote != quoted:
            yield quoted, run
            run = []
        quoted = piece.is_quote
        run.append(piece)
    if run:
        yield quoted, run


def windows(n: int, window: int, stride: int) -> Iterator[tuple[int, int]]:
    """Sentence index ranges ``[i, j)`` covering ``0..n``: ``window`` long, ``stride`` apart."""
    if n <= 0:
        return
    i = 0
    while True:
        j = min(i + window, n)
        yield i, j
        if j >= n:
            return
        i += stride


def iter_units(thread: Thread, config: UnitConfig = UnitConfig(),
               kinds: tuple[str, ...] = UNIT_KINDS) -> Iterator[Unit]:
    """Every unit of a thread in document order (a segment's post unit before its passages)."""
    tid, lang, raw = thread.id, thread.lang, thread.raw
    want_post, want_passages = POST in kinds, PASSAGE in kinds
    for post in thread.posts:
        pid = post.id
        for quoted, pieces in segments(post):
            span = SpanMap(raw, pieces)
            text = span.text
            i, j = strip_span(text, 0, len(text))
            if i >= j:
                continue
            if want_post:
                start, end = span.raw_span(i, j)
                yield Unit(tid, pid, lang, POST, quoted, start, end, text[i:j])
            if want_passages:
                sents = config.sentences(text, lang)
                for a, b in windows(len(sents), config.window, config.stride):
                    s, e = sents[a][0], sents[b - 1][1]
                    start, end = span.raw_span(s, e)
                    yield Unit(tid, pid, lang, PASSAGE, quoted, start, end, text[s:e], s - i)


# A sentence ends after a run of terminal marks (plus closing quotes/brackets) followed by white
# space, or right after a CJK / Arabic full stop, question or exclamation mark; lines always end one.
# One match is one sentence: it starts at a non-space and runs over anything but a line break or
# such an ending (possessively: no backtracking), then takes the ending if there is one.
_END_MARKS = "\u3002\uff01\uff1f\u061f\u06d4"
_ASCII_END = r"""[.!?\u2026]+["'\u201d\u2019)\]]*(?=\s)"""
_CJK_END = rf"""[{_END_MARKS}]+["'\u201d\u300d\u300f)\]]*"""
_SENTENCE = re.compile(rf"(?=\S)(?:[^\n.!?\u2026{_END_MARKS}]++|(?!{_ASCII_END})[.!?\u2026]+)*+"
                       rf"(?:{_ASCII_END}|{_CJK_END})?")


def fast_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans over ``text`` like spaCy's sentencizer rule (split after terminal marks and at
    line breaks), with one regular expression: about 20x faster, which matters when indexing.
    Spans hold no white space at either end."""
    spans = []
    for m in _SENTENCE.finditer(text):
        s, e = m.span()
        if text[e - 1].isspace():  # a line's last sentence, up to the line break
            e = s + len(m.group().rstrip())
        spans.append((s, e))
    return spans


_TAG = re.compile(r"<[^>]*>")
_SPACE = re.compile(r"\s+")


def raw_to_text(raw: str, start: int, end: int) -> str:
    """The decoded text of ``raw[start:end]``: tags removed, entities decoded."""
    return decode_offsets(_TAG.sub("", raw[start:end]), 0)[0]


def same_text(a: str, b: str) -> bool:
    """Equal but for white space (a unit's text joins the runs between inline tags with newlines)."""
    return _SPACE.sub("", a) == _SPACE.sub("", b)


class UnitTable:
    """The units of an index folder (``units.sqlite``), shared by both backends.

    A unit's row id is its document id in the backend, whose index for the unit's language holds
    it with its kind tag (:func:`kind_of`).
    """

    SCHEMA = ("CREATE TABLE IF NOT EXISTS units (id INTEGER PRIMARY KEY, "
              "thread TEXT NOT NULL, post TEXT NOT NULL, lang TEXT NOT NULL, unit TEXT NOT NULL, "
              "quoted INTEGER NOT NULL, offset INTEGER NOT NULL, end INTEGER NOT NULL, text TEXT, "
              "parent INTEGER, at INTEGER NOT NULL, length INTEGER NOT NULL)")
    # A passage that follows its post unit stores no text of its own (NULL) but its post unit's id
    # (``parent``) and its place in that text (``at``, ``length``): passages repeat each post's text
    # about one and a half times, so this keeps units.sqlite, and the time to write it, small.
    _TEXT = "COALESCE(u.text, substr(p.text, u.at + 1, u.length))"  # SQLite counts characters
    _FROM = "FROM units u LEFT JOIN units p ON p.id = u.parent"

    def __init__(self, path, write: bool = False) -> None:
        import sqlite3

        self.path = str(path)
        if write:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=OFF")
            self.db.execute("PRAGMA synchronous=OFF")
            self.db.execute(self.SCHEMA)
        else:
            self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        self._next = (self.db.execute("SELECT COALESCE(MAX(id), 0) FROM units").fetchone()[0]) + 1
        self._pending: list[tuple] = []

    def add_many(self, units: list[Unit]) -> int:
        """Store units under consecutive ids and return the first (rows are written in batches;
        call ``close``). A passage after its post unit is stored as a place in that unit's text."""
        first = self._next
        self._next += len(units)
        rows = self._pending
        parent, segment = None, None
        for uid, u in enumerate(units, first):
            if u.unit == POST:
                parent, segment = uid, (u.post, u.quoted)
                text, at_parent = u.text, None
            elif (u.post, u.quoted) == segment:
                text, at_parent = None, parent
            else:
                text, at_parent = u.text, None
            rows.append((uid, u.thread, u.post, u.lang, u.unit, int(u.quoted), u.offset, u.end, text,
                         at_parent, u.at, len(u.text)))
        if len(rows) >= 5000:
            self.flush()
        return first

    def flush(self) -> None:
        if self._pending:
            self.db.executemany("INSERT INTO units VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", self._pending)
            self._pending.clear()

    def get_many(self, ids) -> dict[int, Unit]:
        """Units by id (missing ids are left out)."""
        ids = list(ids)
        out: dict[int, Unit] = {}
        for k in range(0, len(ids), 500):
            chunk = ids[k:k + 500]
            q = (f"SELECT u.id, u.thread, u.post, u.lang, u.unit, u.quoted, u.offset, u.end, {self._TEXT}, u.at "
                 f"{self._FROM} WHERE u.id IN ({','.join('?' * len(chunk))})")
            for row in self.db.execute(q, chunk):
                out[row[0]] = Unit(row[1], row[2], row[3], row[4], bool(row[5]), row[6], row[7], row[8], row[9])
        return out

    def iter_lang(self, lang: str) -> Iterator[tuple[int, str, str]]:
        """``(id, kind tag, text)`` of every unit of a language, in id order."""
        for uid, unit, quoted, text in self.db.execute(
                f"SELECT u.id, u.unit, u.quoted, {self._TEXT} {self._FROM} WHERE u.lang = ? ORDER BY u.id", (lang,)):
            yield uid, kind_of(unit, bool(quoted)), text

    def texts(self) -> Iterator[tuple[int, str, str]]:
        """``(id, lang, text)`` of every unit, in id order."""
        yield from self.db.execute(f"SELECT u.id, u.lang, {self._TEXT} {self._FROM} ORDER BY u.id")

    def langs(self) -> list[str]:
        """The languages that have units."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT lang FROM units ORDER BY lang")]

    def close(self) -> None:
        self.flush()
        self.db.commit()
        self.db.close()

    def __enter__(self) -> "UnitTable":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@functools.lru_cache(maxsize=None)
def kind_of(unit: str, quoted: bool) -> str:
    """The tag a backend files a unit under, within its language's index: ``post``, ``passage``,
    ``quotedpost`` or ``quotedpassage`` (one word, which every analyzer keeps one token)."""
    return f"quoted{unit}" if quoted else unit
