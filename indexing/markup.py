"""The markup of a thread's posts: the ``Post`` and ``Piece`` records and the tokenizer that finds them.

Below ``records`` (the ``Thread`` and its text maps) and the reader (files, streams, checks), so the
three import one way: ``reader -> records -> markup`` (a test checks the import graph has no cycle).
Offsets are raw code-point offsets into the thread's escaped XML (SPEC §2).
"""
from __future__ import annotations

import functools
import re
from itertools import accumulate, repeat
from typing import NamedTuple

from indexing.errors import CorpusError
from indexing.textfacts import XML_ENTITIES


class Piece(NamedTuple):
    """A run of decoded text between two tags of a post, with its raw span.

    ``text`` is the decoded text (entities resolved); ``raw[start:end]`` is its escaped form.
    ``quote_depth`` is 0 for the author's own text and n inside n nested ``<quote>`` elements;
    ``orig_author`` is the innermost quote's ``orig_author`` attribute (None when absent).
    """

    start: int
    end: int
    text: str
    quote_depth: int = 0
    orig_author: str | None = None

    @property
    def is_quote(self) -> bool:
        return self.quote_depth > 0


class Post(NamedTuple):
    """One ``<post>`` element: ``raw[start:end]`` runs from ``<post`` to the end of ``</post>``.

    ``pieces`` (the post's text runs) are tokenised from the thread's raw text on first use and
    cached, so reading a collection does not pay for text nobody looks at. ``thread_raw`` is a
    reference to ``Thread.raw`` (not a copy); it is left out of ``repr``.
    """

    id: str
    author: str | None
    datetime: str | None
    start: int
    end: int
    thread_raw: str = ""
    thread_line: int = 1  # source line of thread_raw[0]

    def __repr__(self) -> str:
        return (f"Post(id={self.id!r}, author={self.author!r}, datetime={self.datetime!r}, "
                f"start={self.start}, end={self.end}, line={self.line})")

    @property
    def line(self) -> int:
        """1-based line of ``<post`` in the source file (counted on demand, for messages)."""
        return self.thread_line + self.thread_raw.count("\n", 0, self.start)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Text runs between tags, in order, with raw spans, quote depth and quoted author."""
        return _post_pieces(self.thread_raw, self.start, self.end)

    @property
    def xml(self) -> str:
        """The raw XML of the post element."""
        return self.thread_raw[self.start:self.end]

    @property
    def own_text(self) -> str:
        """The author's own text (quotes left out); a newline stands where a quote was cut out."""
        out: list[str] = []
        cut = False
        for p in self.pieces:
            if p.is_quote:
                cut = True
                continue
            if cut and out:
                out.append("\n")
            cut = False
            out.append(p.text)
        return "".join(out)

    @property
    def quote_count(self) -> int:
        """Number of outermost ``<quote>`` elements (a run of consecutive quote pieces counts once)."""
        n, inside = 0, False
        for p in self.pieces:
            if p.is_quote and not inside:
                n += 1
            inside = p.is_quote
        return n


@functools.lru_cache(maxsize=1024)
def _post_pieces(raw: str, start: int, end: int) -> tuple[Piece, ...]:
    return post_pieces(raw, start, end)


# Markup inside a thread. Anything that starts with "<" and matches no other branch is "bad".
_MARKUP = re.compile(
    r"""<(?:(/)?([A-Za-z_][\w.:-]*)([^<>"']*(?:(?:"[^"<]*"|'[^'<]*')[^<>"']*)*)>"""
    r"""|(!--.*?-->|\?.*?\?>|!\[CDATA\[.*?\]\]>)|)""",
    re.S,
)
# what may stand between a tag's name and its ">": name="value" pairs, then an optional "/"
_ATTRS_OK = re.compile(r"""(?:\s+[^\s=<>/"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*/?""")
_ATTR = re.compile(r"""([^\s=<>/"']+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')""")
_REF = re.compile(r"&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));")
_NAMED = XML_ENTITIES
_AMP_ANY = re.compile(r"&([^;\s<&]{0,32});?")
_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST)", re.IGNORECASE)
_ATTR_QUOTE_AUTHOR = re.compile(r"""\sorig_author\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DOC_ID = re.compile(r"""<doc\b[^>]*?\bid\s*=\s*["']([^"']*)["']""")


# a post start tag (cut at its first ">", which may lie inside a value: see ``find_posts``), a plain
# post end tag, or "<!"/"<?" (which send the thread to the careful scanner); the group keeps them
_POST_SPLIT = re.compile(r"""(<post(?=[\s/>])[^>]*>|</post>|<[!?])""")
_POST_TAG_OK = re.compile(r"""<post(?:\s+[^\s=<>/"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*>""")
# what stands before the first, a further and after the last value of a plain post start tag
_FIRST_SEP = re.compile(r"""<post\s+([^\s=<>/"']+)\s*=\s*""")
_NEXT_SEP = re.compile(r"""\s+([^\s=<>/"']+)\s*=\s*""")
_LAST_SEP = re.compile(r"\s*>")


def _decode_text(seg: str, raw: str, at: int, path: str, line: int, tid: str | None) -> str:
    """Resolve the XML entities of an escaped text run; any other ``&`` is an error."""
    if "&" not in seg:
        return seg
    n_refs = 0

    def repl(m: re.Match) -> str:
        nonlocal n_refs
        n_refs += 1
        if m.group(3):
            return _NAMED[m.group(3)]
        cp = int(m.group(1)) if m.group(1) else int(m.group(2), 16)
        if cp == 0 or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF or cp in (0xFFFE, 0xFFFF) \
                or (cp < 0x20 and cp not in (0x9, 0xA, 0xD)):
            raise _bad_entity(m.group(0), seg, raw, at, path, line, tid, m.start(), "not a valid XML character")
        return chr(cp)

    out = _REF.sub(repl, seg)
    if n_refs != seg.count("&"):
        for m in _AMP_ANY.finditer(seg):
            if not _REF.match(seg, m.start()):
                raise _bad_entity(m.group(0), seg, raw, at, path, line, tid, m.start(),
                                  "only &amp; &lt; &gt; &quot; &apos; and &#N; exist in XML")
    return out


def _bad_entity(ent: str, seg: str, raw: str, at: int, path: str, line: int, tid: str | None,
                i: int, why: str) -> CorpusError:
    where = line + raw.count("\n", 0, at + i)
    return CorpusError(f"unknown entity {ent} at line {where} (raw offset {at + i})", file=path, line=where,
                       thread=tid, hint=f"{why}; escape a literal ampersand as &amp;")


def _attrs(s: str, raw: str, at: int, path: str, line: int, tid: str | None) -> dict[str, str]:
    """Attributes of a start tag (first of duplicates wins), values entity-decoded."""
    out: dict[str, str] = {}
    for k, v1, v2 in _ATTR.findall(s):
        v = v1 or v2
        if "&" in v:
            v = _decode_text(v, raw, at, path, line, tid)
        out.setdefault(k, v)
    return out


def find_posts(raw: str, line: int = 1) -> tuple[Post, ...]:
    """The ``<post>`` elements of a thread's raw text that the reader has already checked.

    The fast cut (``_cut_posts``) when it fits, else the careful scanner.
    """
    posts = _fast_posts(raw, line, _cut_posts(raw, raw.find("<doc")))
    return scan_posts(raw, "", line)[2] if posts is None else posts


def _cut_posts(raw: str, head: int) -> list[str] | None:
    """``raw`` after its prolog (``head`` is the offset of ``<doc``) cut at post tags, or None.

    Outside comments, CDATA sections and processing instructions ``<`` cannot occur in text or
    attribute values, so one ``re.split`` over post start tags, plain post end tags and
    ``<!``/``<?`` cuts the thread into text, start tag, content, end tag, text, ...; the first
    part is extended back over the prolog, so running sums of the parts' lengths are offsets in
    ``raw``. None when a comment in the prolog could hide markup.
    """
    if head > 0:
        if raw.find("<!", 0, head) >= 0:
            return None
        parts = _POST_SPLIT.split(raw[head:])
        parts[0] = raw[:head + len(parts[0])]
        return parts
    return _POST_SPLIT.split(raw)


def _fast_posts(raw: str, line: int, parts: list[str] | None) -> tuple[Post, ...] | None:
    """The posts of a checked thread from its cut (``_cut_posts``), or None when the cut does not fit.

    The reader has checked that every <post> is a child of <doc> and that none nests, so the
    tags alternate start, end, start, end ... exactly when there is no ``<!``/``<?`` (comment,
    CDATA, processing instruction), no ``<post/>`` and no ``</post >``; then the k-th start and
    end tags delimit the k-th post. A start tag is cut at its first ``>``, which may lie inside a
    value: ``_plain_post_attrs`` cannot be fooled by that and ``_general_post_attrs`` refuses it.
    """
    if parts is None:
        return None
    n = len(parts) >> 2
    opens = parts[1::4]
    if (len(parts) & 3 != 1 or not n or parts[3::4].count("</post>") != n or "</post>" in opens
            or "<!" in opens or "<?" in opens):
        return None
    joined = "".join(opens)
    if "/>" in joined:
        return None
    columns = _plain_post_attrs(opens, joined) or _general_post_attrs(opens)
    if columns is None:
        return None
    ids, authors, datetimes = columns
    if "" in ids or None in ids:  # a missing or empty id: the post's position names it
        ids = [v or f"p{k}" for k, v in enumerate(ids, 1)]
    acc = list(accumulate(map(len, parts)))
    return tuple(map(tuple.__new__, repeat(Post, n),
                     zip(ids, authors, datetimes, acc[0:4 * n:4], acc[3::4], repeat(raw, n), repeat(line, n))))


def _plain_post_attrs(opens: list[str], joined: str) -> tuple[list, list, list] | None:
    """(ids, authors, datetimes) of start tags that all read ``<post a="…" b="…" …>``: the same
    names in the same order with the same spacing, double quotes, no ``&``; else None.

    A double-quoted value holds no ``"``, so splitting the joined tags at ``"`` gives, in turn,
    the text before a value (``<post a=``, `` b=``, …, then ``><post a=`` for the next tag and
    ``>`` at the end) and the value. When every tag's in-between texts equal the first tag's and
    those have the strict ``name=`` form, the tags are exactly that and the values line up.
    """
    if "&" in joined:  # ``joined`` is "".join(opens)
        return None
    bits = joined.split('"')
    seps = bits[0::2]
    n = len(opens)
    m, rem = divmod(len(seps) - 1, n)
    first = _FIRST_SEP.fullmatch(seps[0])
    last = seps[-1]
    if rem or not m or first is None or _LAST_SEP.fullmatch(last) is None:
        return None
    names = [first.group(1)]
    for i in range(1, m):
        sep = _NEXT_SEP.fullmatch(seps[i])
        if sep is None or seps[i::m].count(seps[i]) != n:
            return None
        names.append(sep.group(1))
    if seps[m::m].count(last + seps[0]) != n - 1 or len(set(names)) != m:
        return None
    values = bits[1::2]
    none = [None] * n
    return tuple(values[names.index(a)::m] if a in names else none  # type: ignore[return-value]
                 for a in ("id", "author", "datetime"))


def _general_post_attrs(opens: list[str]) -> tuple[list, list, list] | None:
    """(ids, authors, datetimes) of any start tags (values entity-decoded, first of a name wins),
    or None when a tag was cut at a ``>`` inside a value."""
    if not all(map(_POST_TAG_OK.fullmatch, opens)):
        return None
    dicts = [{k: _REF.sub(_ref_char, v1 or v2) if "&" in (v1 or v2) else (v1 or v2)
              for k, v1, v2 in reversed(_ATTR.findall(t[5:]))} for t in opens]
    return ([d.get("id") for d in dicts], [d.get("author") for d in dicts], [d.get("datetime") for d in dicts])


def scan_posts(raw: str, path: str, line: int) -> tuple[str, str, tuple[Post, ...]]:
    """The careful pure-Python path: tokenise every tag with a stack; precise errors with hints.

    Returns the thread id, its headline and its posts (the reader makes the ``Thread``).
    """
    scan = _PostScanner(raw, path, line)
    d = _DTD.search(raw)
    if d:
        raise scan.fail("DOCTYPE/ENTITY declarations are refused (no DTDs, no entity expansion)", d.start(),
                        "remove the declaration; thread files need none")
    pos = 0
    for m in _MARKUP.finditer(raw):
        close, name, attrs, special = m.groups()
        s, e = m.span()
        if s > pos:
            scan.text(raw[pos:s], pos)
        pos = e
        if name is None:
            if special is None:
                raise scan.fail(f"malformed markup {raw[s:s + 20]!r}", s,
                                "escape a literal '<' as &lt; and close every tag with '>'")
            continue  # comments, processing instructions, CDATA: no structure
        if attrs and not _ATTRS_OK.fullmatch(attrs):
            raise scan.fail(f"malformed tag {raw[s:min(e, s + 40)]!r}", s,
                            'write attributes as name="value" and close the tag with > or />')
        if close:
            scan.end_tag(name, attrs, s, e)
        else:
            scan.start_tag(name, attrs, s, e)
    return scan.finish(pos)


class _PostScanner:
    """The careful tokenizer's state over one thread: the open elements (a stack), whether the
    ``<doc>``, a ``<post>`` or the ``<headline>`` is open, and the posts found so far."""

    def __init__(self, raw: str, path: str, line: int) -> None:
        self.raw, self.path, self.line = raw, path, line
        m0 = _DOC_ID.search(raw)
        self.tid: str | None = m0.group(1) if m0 else None
        self.stack: list[str] = []      # names of open elements
        self.opened: list[int] = []     # raw offset of each open element's start tag
        self.doc_seen = False
        self.in_doc = False
        self.in_post = False
        self.headline_parts: list[str] | None = None
        self.headline = ""
        self.posts: list[Post] = []
        self.post_attrs: dict[str, str] = {}
        self.post_start = 0

    def fail(self, message: str, at: int, hint: str) -> CorpusError:
        return CorpusError(message, file=self.path, line=self.line + self.raw.count("\n", 0, at), hint=hint,
                           thread=self.tid)

    def _attrs(self, attrs: str, at: int) -> dict[str, str]:
        return _attrs(attrs, self.raw, at, self.path, self.line, self.tid)

    def _add_post(self, end: int) -> None:
        a = self.post_attrs
        self.posts.append(Post(a.get("id") or f"p{len(self.posts) + 1}", a.get("author"), a.get("datetime"),
                               self.post_start, end, self.raw, self.line))

    def text(self, seg: str, at: int) -> None:
        """Text between two tags: its entities checked inside the thread (kept for the headline)."""
        if self.in_post or self.in_doc:
            if "&" in seg:
                _decode_text(seg, self.raw, at, self.path, self.line, self.tid)
            if self.headline_parts is not None:
                self.headline_parts.append(_decode_text(seg, self.raw, at, self.path, self.line, self.tid))
        elif seg.strip("\ufeff \t\r\n"):
            raise self.fail(f"text outside <doc>: {seg.strip()[:30]!r}", at, "a thread is one <doc> element")

    def end_tag(self, name: str, attrs: str, s: int, e: int) -> None:
        """``</name>``: it closes the innermost open element, and may end a post, the headline or the doc."""
        stack = self.stack
        if attrs and not attrs.isspace():
            raise self.fail(f"malformed end tag {self.raw[s:e][:30]!r}", s, "an end tag is </name>")
        if not stack or stack[-1] != name:
            if stack:
                raise self.fail(f"mismatched </{name}>: <{stack[-1]}> opened at line "
                                f"{self.line + self.raw.count(chr(10), 0, self.opened[-1])} is still open", s,
                                f"close <{stack[-1]}> before </{name}>")
            raise self.fail(f"</{name}> without a start tag", s, "remove it or add the start tag")
        stack.pop()
        self.opened.pop()
        if name == "post" and self.in_post and len(stack) == 1:
            self._add_post(e)
            self.in_post = False
        elif name == "headline" and self.headline_parts is not None and len(stack) == 1:
            self.headline = " ".join("".join(self.headline_parts).split())
            self.headline_parts = None
        elif name == "doc" and not stack:
            self.in_doc = False

    def start_tag(self, name: str, attrs: str, s: int, e: int) -> None:
        """``<name ...>`` or ``<name/>``: where it may stand, and what it opens (the doc, a post, the headline)."""
        stack = self.stack
        empty = attrs.endswith("/")
        if self.in_post:
            if name == "quote" and attrs:
                self._attrs(attrs, s)
            elif name == "post" or name == "doc":
                raise self.fail(f"<{name}> inside <post>", s, "close the previous <post> with </post> first")
        elif name == "post":
            if len(stack) != 1:
                raise self.fail("<post> outside <doc>" if not stack else f"<post> inside <{stack[-1]}>", s,
                                "a <post> belongs directly inside <doc>")
            self.post_attrs = self._attrs(attrs, s) if attrs else {}
            self.post_start = s
            if empty:
                self._add_post(e)
            else:
                self.in_post = True
        elif not stack:
            if name != "doc" or self.doc_seen:
                raise self.fail(f"<{name}> outside <doc>" if name != "doc" else "a second <doc> in one thread", s,
                                "a thread is one <doc> element; check for a missing </doc>")
            self.doc_seen = True
            self.in_doc = not empty
            self.tid = self._attrs(attrs, s).get("id") or None
            if not self.tid:
                raise self.fail("<doc> has no id attribute", s, 'add id="..." to the <doc> start tag')
        elif name == "doc":
            raise self.fail("<doc> inside <doc>", s, "close the previous thread with </doc>")
        elif name == "headline" and len(stack) == 1 and not empty:
            self.headline_parts = []
        if not empty:
            stack.append(name)
            self.opened.append(s)

    def finish(self, pos: int) -> tuple[str, str, tuple[Post, ...]]:
        """After the last tag: nothing but space after ``</doc>``, nothing left open, a doc with posts."""
        raw, stack = self.raw, self.stack
        if pos < len(raw) and not stack:
            seg = raw[pos:]
            if seg.strip("\ufeff \t\r\n"):
                raise self.fail(f"text after </doc>: {seg.strip()[:30]!r}", pos, "a thread is one <doc> element")
        if stack:
            raise self.fail(f"<{stack[-1]}> is never closed", self.opened[-1], f"add </{stack[-1]}>")
        if not self.doc_seen:
            raise self.fail("no <doc> element", 0, "a thread is one <doc id=...> element")
        if not self.posts:
            raise self.fail("thread has no <post>", 0, "a thread needs at least one <post> element")
        return self.tid, self.headline, tuple(self.posts)  # type: ignore[return-value]


def post_pieces(raw: str, start: int, end: int) -> tuple[Piece, ...]:
    """The text runs of the (well-formed) post element ``raw[start:end]``, in order.

    Each run is a maximal stretch of text between two tags: its raw span, decoded text, the
    number of ``<quote>`` elements around it and the innermost one's ``orig_author``. Text in
    CDATA sections counts (verbatim); comments and processing instructions carry none.
    """
    pieces: list[Piece] = []
    authors: list[str | None] = []
    depth = 0
    author: str | None = None
    pos = -1
    new_piece = tuple.__new__
    for m in _MARKUP.finditer(raw, start, end):
        close, name, attrs, special = m.groups()
        s, e = m.span()
        if pos >= 0 and s > pos:
            seg = raw[pos:s]
            pieces.append(new_piece(Piece, (pos, s, _REF.sub(_ref_char, seg) if "&" in seg else seg,
                                            depth, author)))
        pos = e
        if name == "quote":
            if close:
                authors.pop()
                depth -= 1
                author = authors[-1] if authors else None
            elif not attrs.endswith("/"):
                a = _ATTR_QUOTE_AUTHOR.search(attrs) if attrs else None
                author = None
                if a:
                    author = a.group(1) if a.group(1) is not None else a.group(2)
                    if "&" in author:
                        author = _REF.sub(_ref_char, author)
                authors.append(author)
                depth += 1
        elif special is not None and special.startswith("![CDATA[") and s + 9 < e - 3:
            pieces.append(Piece(s + 9, e - 3, raw[s + 9:e - 3], depth, author))
    return tuple(pieces)


def _ref_char(m: re.Match) -> str:
    if m.group(3):
        return _NAMED[m.group(3)]
    return chr(int(m.group(1)) if m.group(1) else int(m.group(2), 16))
