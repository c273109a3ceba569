"""Read LDC discussion-forum XML into ``Thread`` records with exact raw code-point offsets.

Input: ``.xml`` files holding one ``<doc>`` (after an XML declaration) or many concatenated
``<doc>`` elements with no root; the same gzip-compressed (``.xml.gz``); ``.zip`` archives of
those; folders searched recursively. Files are read as bytes in chunks, decoded as strict UTF-8
with no newline translation, and cut into threads as they stream, so memory is bounded by the
largest thread (plus one chunk), not by the collection.

Each thread is checked for well-formedness by libxml2 (lxml: no DTD loading, no entity resolution,
no network), which is fast; when it rejects a thread, a pure-Python scanner (one compiled regular
expression over markup and a tag stack) re-reads it to name the problem, line and fix. Only the
five XML named entities and numeric character references exist; any other ``&name;`` is an error.
``<!DOCTYPE`` and ``<!ENTITY`` are refused, so no DTD, external entity or entity expansion is
ever processed. Offsets are never computed from parser-decoded text: posts and their text pieces
are located in the raw text itself.

Speed (``scripts/bench.py reader``): one ``re.split`` at post tags, made while the thread's text
is still in the CPU cache, gives every post's span and, for the usual plain layout, its id,
author and date (``_cut_posts``, ``_fast_posts``); when the layout is plain (``_plain_layout``)
libxml2 only checks well-formedness and builds no tree. Unusual threads take the general path
(libxml2's tree, posts found by the careful scanner on first use), with identical results.
Pieces are found on first use of ``Post.pieces`` (``post_pieces``).
"""
from __future__ import annotations

import os
import re
import threading
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, NamedTuple, Union

from lxml import etree

from indexing.encoding import BAD_BYTE, LENIENT_HINT, STRICT, bad_byte, check_policy, repair
from indexing.errors import CorpusError, ToolkitError
from indexing.lang import UNKNOWN, lang_of
from indexing.markup import (_ATTR, _DOC_ID, _DTD, _REF, _cut_posts, _fast_posts, _ref_char, scan_posts)
from indexing.markup import Piece, Post, find_posts, post_pieces  # noqa: F401  (importable from the reader, as before)
from indexing.records import Thread

PathLike = Union[str, os.PathLike]
CHUNK = 1 << 20  # bytes read at a time
THREAD_SUFFIXES = (".xml", ".xml.gz", ".zip")

_DOC_OPEN = re.compile(r"<doc[\s>/]")
_DOC_CLOSE = "</doc>"
_POST_ID = re.compile(r"""<post\b[^>]*?\bid\s*=\s*["']([^"']*)["']""")
_GAP_OK = re.compile(r"(?:\s+|<!--.*?-->|<\?xml[^>]*\?>|\ufeff)*", re.S)
# a thread whose posts ``find_posts`` can find: <post> children only, none nested (a nested <doc>
# cannot reach here: the splitter cuts at the first </doc>, which leaves the outer one unclosed)
_STRUCTURE_OK = etree.XPath("count(post) > 0 and count(post) = count(//post)")
_HEADLINE = etree.XPath("string(headline)")
# the text before the first post of a plainly laid out thread (see ``_plain_layout``), and after the last
_HEAD_OK = re.compile(r"""<doc((?:\s+[^\s=<>/"']+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*>[^<]*"""
                      r"""(?:<headline\s*>([^<]*)</headline\s*>[^<]*)?""")
_TAIL_OK = re.compile(r"[^<]*</doc>[ \t\r\n]*")


class Repair(NamedTuple):
    """A thread read leniently: ``bytes`` bytes that were not UTF-8 each became one character."""

    file: str
    line: int
    thread: str | None
    bytes: int

    def message(self, policy: str) -> str:
        return (f"{self.file}:{self.line}: thread {self.thread}: {self.bytes} byte{'s' * (self.bytes != 1)} "
                f"not UTF-8, read as {policy} (one character each)")


class Duplicate(NamedTuple):
    """A thread whose id and contents repeat an earlier one; only the first copy is read."""

    thread: str
    file: str
    line: int
    first_file: str
    first_line: int

    def message(self) -> str:
        return (f"{self.file}:{self.line}: thread {self.thread}: identical copy of the thread at "
                f"{self.first_file}:{self.first_line}; read once")


class BadThreads:
    """What the reader skipped, repaired or dropped while reading: one ``CorpusError`` per thread
    (or unreadable file rest) skipped with ``skip_bad`` (``errors``), one ``Repair`` per thread read
    under a lenient ``encoding_errors`` policy (``repaired``), one ``Duplicate`` per identical
    repeated thread (``duplicates``). Pass the same object to several ``iter_threads`` calls and
    a thread repeated across them is noticed too. ``len`` and iteration are over ``errors``.
    """

    def __init__(self) -> None:
        self.errors: list[CorpusError] = []
        self.repaired: list[Repair] = []
        self.duplicates: list[Duplicate] = []
        self.policy = STRICT
        self._seen: dict[str, tuple[str, int, tuple[int, int]]] = {}  # id -> (stream, line, _sketch)
        self._files: dict[str, Path] = {}  # stream name -> the file it comes from
        self._hashes: dict[str, dict[int, int]] = {}  # stream name -> line -> full hash (read again)

    def add(self, error: CorpusError) -> None:
        self.errors.append(error)

    def __len__(self) -> int:
        return len(self.errors)

    def __iter__(self) -> Iterator[CorpusError]:
        return iter(self.errors)

    def messages(self) -> list[str]:
        """One line per skipped item, in the CLI's ``file:line: thread ...: message; hint`` form."""
        return [str(e) for e in self.errors]

    def warnings(self) -> list[str]:
        """One line per repaired thread and per identical repeat dropped (the CLI prints them)."""
        return [r.message(self.policy) for r in self.repaired] + [d.message() for d in self.duplicates]

    def counts(self) -> dict:
        """The read's faults as counts (``bolt corpus stats`` and an index manifest's ``read``)."""
        return {"encoding_errors": self.policy, "threads_repaired": len(self.repaired),
                "bad_bytes": sum(r.bytes for r in self.repaired),
                "duplicates_read_once": len(self.duplicates), "skipped": len(self.errors)}

    def admit(self, thread: Thread) -> bool:
        """True for a thread id not met before; False (noted in ``duplicates``) for an identical
        copy of an earlier thread; a ``CorpusError`` naming both places when the contents differ.
        Contents are compared from ``<doc`` on (an XML declaration before it is no content).

        Hashing every thread would cost a fifth of the reader's speed, so a thread is remembered
        by its length and the ends of its text only; a repeat that matches them is compared in
        full against the first copy, read again from its file (each such file once).
        """
        doc = _doc_part(thread.raw)
        first = self._seen.get(thread.id)
        if first is None:
            self._seen[thread.id] = (thread.path, thread.line, _sketch(doc))
            return True
        path, line, sketch = first
        if sketch == _sketch(doc) and self._full_hashes(path).get(line) == hash(doc):
            self.duplicates.append(Duplicate(thread.id, thread.path, thread.line, path, line))
            return False
        raise CorpusError(f"id repeated with different contents (first copy at {path}:{line})",
                          file=thread.path, line=thread.line, thread=thread.id,
                          hint="keep one copy, or give the two threads different ids")

    def opened(self, name: str, file: Path) -> None:
        """Note that stream ``name`` (a file, or ``archive.zip/member``) comes from ``file``."""
        self._files[name] = file

    def _full_hashes(self, name: str) -> dict[int, int]:
        """Line -> hash of the text from ``<doc`` on, of every thread of stream ``name``, read again."""
        hashes = self._hashes.get(name)
        if hashes is None:
            hashes = self._hashes[name] = {}
            file = self._files.get(name)
            for stream, opener in _open_streams(file) if file is not None else ():
                if stream == name:
                    with opener() as fh:
                        for item in split_docs(iter_chunks(fh), name, self.policy):
                            if isinstance(item, RawDoc):
                                hashes[item.line] = hash(_doc_part(item.raw))
        return hashes


def _doc_part(raw: str) -> str:
    """A thread's text from ``<doc`` on (without an XML declaration before it)."""
    return raw if raw.startswith("<doc") else raw[max(raw.find("<doc"), 0):]


def _sketch(doc: str) -> tuple[int, int]:
    """Cheap: equal texts have equal sketches (length and the hash of both ends)."""
    return len(doc), hash(doc[:200] + doc[-200:])


class RawDoc(NamedTuple):
    """One ``<doc>`` cut from a file: its raw text, the source line of ``raw[0]``, and how many
    bytes that were not UTF-8 a lenient policy repaired in it."""

    raw: str
    line: int
    repaired: int = 0


# --------------------------------------------------------------------------- sources


def _is_thread_file(name: str) -> bool:
    low = name.lower()
    return low.endswith(THREAD_SUFFIXES)


def iter_source_files(paths: PathLike | Iterable[PathLike]) -> Iterator[Path]:
    """Every thread file named by ``paths`` (files as given; folders recursively, sorted)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = False
            for dirpath, dirnames, filenames in os.walk(path):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for f in sorted(filenames):
                    if _is_thread_file(f) and not f.startswith("."):
                        found = True
                        yield Path(dirpath) / f
            if not found:
                raise ToolkitError(f"no .xml, .xml.gz or .zip thread files under folder {path}",
                                   file=str(path), hint="give a folder that holds LDC thread files")
        elif path.is_file():
            yield path
        else:
            raise ToolkitError(f"no such file or folder: {path}", file=str(path),
                               hint="PATH is a .xml, .xml.gz or .zip file or a folder of them; check the path")


def _open_streams(path: Path) -> Iterator[tuple[str, Callable[[], BinaryIO]]]:
    """(display path, opener) for each thread stream in a file: itself, or each zip member.

    Zip members are named ``archive.zip/member.xml``. A generator: the archive stays open while
    its members are read.
    """
    with open(path, "rb") as fh:
        magic = fh.read(4)
    is_zip_name = path.suffix.lower() == ".zip"
    if is_zip_name and not magic.startswith(b"PK"):
        raise CorpusError("not a zip archive", file=str(path), line=1,
                          hint="re-download the archive, or rename the file if it is XML")
    if magic.startswith(b"PK\x03\x04") or is_zip_name:
        try:
            zf = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise CorpusError(f"not a readable zip archive: {exc}", file=str(path), line=1,
                              hint="re-download or re-create the archive") from exc
        with zf:
            for info in zf.infolist():
                if info.is_dir() or not _is_thread_file(info.filename):
                    continue
                yield f"{path}/{info.filename}", (lambda info=info: zf.open(info))
        return
    yield str(path), (lambda: open(path, "rb"))


def _gunzip(head: bytes, fh: BinaryIO) -> Iterator[bytes]:
    """Decompress gzip data in bounded pieces, so a truncated stream still yields all it holds
    and a highly compressed one never expands into memory at once. Multi-member files work."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    comp = head
    while True:
        if not comp:
            comp = fh.read(CHUNK)
            if not comp:
                break
        if d.eof:  # the next member of a multi-member file
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out = d.decompress(comp, CHUNK)
        if out:
            yield out
        comp = d.unused_data if d.eof else d.unconsumed_tail
    if not d.eof:
        raise EOFError("compressed file ended before the end-of-stream marker was reached")


def iter_chunks(fh: BinaryIO) -> Iterator[bytes]:
    """The bytes of a stream in chunks, gunzipped when it starts with the gzip magic number."""
    head = fh.read(CHUNK)
    if head[:2] == b"\x1f\x8b":
        yield from _gunzip(head, fh)
        return
    while head:
        yield head
        head = fh.read(CHUNK)


# --------------------------------------------------------------------------- splitting


def _read_error(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return f"truncated compressed data ({exc})"
    if isinstance(exc, zlib.error):
        return f"corrupt compressed data ({exc})"
    if isinstance(exc, zipfile.BadZipFile):
        return f"corrupt zip member ({exc})"
    return f"cannot read ({exc})"


def _complete_utf8(data: bytes) -> int:
    """Length of ``data`` without a UTF-8 sequence cut off at its end (kept for the next chunk)."""
    n = len(data)
    for k in range(1, min(4, n) + 1):
        b = data[n - k]
        if b & 0xC0 != 0x80:  # a lead byte or ASCII: does its sequence fit?
            need = 1 if b < 0x80 else 2 if b >> 5 == 6 else 3 if b >> 4 == 14 else 4 if b >> 3 == 30 else 1
            return n - k if need > k else n
    return n


def _next_doc_open(buf: str, start: int, end: int):
    """The next ``<doc`` start tag in ``buf[start:end]`` (a match object), or None."""
    i = buf.find("<doc", start, end)
    while i >= 0:
        m = _DOC_OPEN.match(buf, i)
        if m is not None:
            return m
        i = buf.find("<doc", i + 4, end)
    return None


def _repaired_doc(raw: str, line: int, policy: str) -> RawDoc:
    text, n = repair(raw, policy)
    return RawDoc(text, line, n)


def split_docs(chunks: Iterable[bytes], path: str, encoding_errors: str = STRICT) -> Iterator[RawDoc | CorpusError]:
    """Cut a byte stream into raw ``<doc>`` texts, streaming; problems are yielded, not raised.

    Bytes that are not UTF-8 make a thread an error under ``encoding_errors="strict"``, naming the
    byte, its offset in the file, the post and the lenient policies; under ``"replace"`` or
    ``"cp1252"`` each such byte becomes one character (``indexing.encoding``).

    A yielded ``CorpusError`` describes text that could not be cut into a thread (an unclosed
    ``<doc>``, text outside any ``<doc>``, invalid UTF-8, a truncated stream); the splitter then
    resumes at the next ``<doc`` when there is one, so one bad thread never costs the others.
    """
    stream = _DocStream(chunks, path)
    first = True
    while True:
        stream.compact()
        m = stream.next_doc_open()
        gap_end = m.start() if m else len(stream.buf)
        bad_gap = stream.gap_error(gap_end)
        if bad_gap is not None:
            yield bad_gap
        if stream.read_failed is not None:
            yield stream.err(f"{_read_error(stream.read_failed)}; the rest of the file is lost", gap_end,
                             "re-download or re-compress the file")
            return
        if m is None:
            return
        pos = stream.pos
        head = pos + (stream.buf[pos:pos + 1] == "\ufeff")
        raw_start = pos if (first and stream.buf.startswith("<?xml", head)) else m.start()
        first = False
        stream.advance(raw_start)
        id_m = _DOC_ID.match(stream.buf, m.start())
        tid = id_m.group(1) if id_m else None
        end = stream.find_close(m)
        if end < 0:
            # (an unclosed <doc> followed by another thread is caught when the two fail to parse)
            ms = _next_doc_open(stream.buf, m.end(), len(stream.buf))
            if stream.read_failed is not None and ms is None:
                yield stream.err(f"{_read_error(stream.read_failed)} inside this thread; the rest of the file "
                                 "is lost", len(stream.buf), "re-download or re-compress the file", tid)
                return
            yield stream.err("<doc> is never closed" + (" before the next <doc>" if ms is not None else
                                                         " (end of file)"), m.start(), "add the missing </doc>", tid)
            stream.advance(ms.start() if ms is not None else len(stream.buf))
            continue
        end += len(_DOC_CLOSE)
        yield stream.doc(end, tid, encoding_errors)
        stream.advance(end)


class _DocStream:
    """A byte stream decoded into a text buffer, refilled chunk by chunk, and where the splitter stands
    in it: ``buf[pos]`` is the first unconsumed character, on line ``line``, ``buf[0]`` at byte ``byte``."""

    def __init__(self, chunks: Iterable[bytes], path: str) -> None:
        self.it = iter(chunks)
        self.path = path
        self.pending = b""    # an incomplete UTF-8 sequence at the end of the last chunk
        self.dirty = False    # True once some bytes were not UTF-8 (then docs are checked one by one)
        self.buf = ""
        self.pos = 0          # first unconsumed character of buf
        self.line = 1         # line of buf[pos]
        self.byte = 0         # byte offset of buf[0] in the decompressed stream
        self.eof = False
        self.read_failed: BaseException | None = None

    def _decode(self, data: bytes) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.dirty = True
            return data.decode("utf-8", "surrogateescape")

    def more(self) -> bool:
        """Append the next chunk to the buffer; False at the end of the stream (or when reading failed)."""
        if self.eof:
            return False
        try:
            chunk = next(self.it, b"")
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
            self.read_failed = exc
            chunk = b""
        if not chunk:
            self.eof = True
            if self.pending:
                self.buf += self._decode(self.pending)
                self.pending = b""
            return False
        data = self.pending + chunk if self.pending else chunk
        cut = _complete_utf8(data)
        self.pending = data[cut:]
        self.buf += self._decode(data[:cut])
        return True

    def advance(self, to: int) -> None:
        self.line += self.buf.count("\n", self.pos, to)
        self.pos = to

    def compact(self) -> None:
        """Drop what was consumed (indices stay valid inside one iteration of the splitter)."""
        if self.pos >= CHUNK:
            self.byte += len(self.buf[:self.pos].encode("utf-8", "surrogateescape"))
            self.buf = self.buf[self.pos:]
            self.pos = 0

    def err(self, message: str, at: int, hint: str, thread: str | None = None) -> CorpusError:
        return CorpusError(message, file=self.path, line=self.line + self.buf.count("\n", self.pos, at), hint=hint,
                           thread=thread)

    def next_doc_open(self):
        """The next ``<doc`` start tag from ``pos``, refilling the buffer until one is seen or the stream ends."""
        m = _next_doc_open(self.buf, self.pos, len(self.buf))
        while m is None and self.more():
            m = _next_doc_open(self.buf, self.pos, len(self.buf))
        return m

    def gap_error(self, gap_end: int) -> CorpusError | None:
        """What stands between ``pos`` and the next ``<doc`` when it is not the allowed prolog or space."""
        gap = _GAP_OK.match(self.buf, self.pos, gap_end)
        if gap is not None and gap.end() == gap_end:
            return None
        bad_at = gap.end() if gap else self.pos
        is_dtd = _DTD.match(self.buf, bad_at)
        return self.err("DOCTYPE/ENTITY declarations are refused" if is_dtd else
                        f"text outside any <doc> element: {self.buf[bad_at:bad_at + 30]!r}", bad_at,
                        "remove it; a thread file holds <doc> elements only")

    def find_close(self, m) -> int:
        """Where the ``</doc>`` of the ``<doc`` matched by ``m`` starts, refilling the buffer; -1 when the
        stream ends first."""
        search_from = m.end()
        while True:
            end = self.buf.find(_DOC_CLOSE, search_from)
            if end >= 0:
                return end
            search_from = max(m.end(), len(self.buf) - len(_DOC_CLOSE))
            if not self.more():
                return -1

    def doc(self, end: int, tid: str | None, encoding_errors: str) -> RawDoc | CorpusError:
        """``buf[pos:end]`` as a thread's raw text: repaired under a lenient policy, an error naming the
        first byte that is not UTF-8 under ``strict``."""
        buf, pos = self.buf, self.pos
        bad = BAD_BYTE.search(buf, pos, end) if self.dirty else None
        if bad is None:
            return RawDoc(buf[pos:end], self.line)
        if encoding_errors != STRICT:
            return _repaired_doc(buf[pos:end], self.line, encoding_errors)
        at_byte = self.byte + len(buf[:bad.start()].encode("utf-8", "surrogateescape"))
        posts = _POST_ID.findall(buf, pos, bad.start())
        where = f"in post {posts[-1]}" if posts else "before the first post"
        return self.err(f"invalid UTF-8 byte 0x{bad_byte(bad.group()):02X} at byte {at_byte} of the file ({where})",
                        bad.start(), LENIENT_HINT, tid)


# --------------------------------------------------------------------------- parsing


def _scan(raw: str, path: str, line: int, lang: str | None) -> Thread:
    """The careful pure-Python path (``indexing.markup.scan_posts``), as a ``Thread``."""
    tid, headline, posts = scan_posts(raw, path, line)
    return Thread(tid, lang_of(tid, lang) or UNKNOWN, headline, path, raw, posts, line)


def parse_thread_text(raw: str, *, path: str, line: int = 1, lang: str | None = None) -> Thread:
    """Parse the raw text of one thread (from ``<doc`` or from the XML declaration) into a ``Thread``.

    ``line`` is the source line of ``raw[0]`` (for messages). ``lang`` overrides the language read
    from the id; when neither names one, the thread's language is ``"und"``. Raises ``CorpusError``
    naming the file, line and thread for any well-formedness problem or a thread without posts.

    libxml2 (lxml, with DTDs, network and entity resolution off) checks well-formedness at C
    speed; post offsets come from the raw text itself, never from the parser. When libxml2
    rejects a thread, the pure-Python scanner re-reads it to give a precise message and hint.
    """
    def fail(message: str, at: int, hint: str) -> CorpusError:
        return CorpusError(message, file=path, line=line + raw.count("\n", 0, at), hint=hint, thread=_id_of(raw))

    prolog = raw.find("<doc")
    parts = _cut_posts(raw, prolog)  # now, while raw is fresh in the CPU cache (used once raw is checked)
    try:
        data = raw.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = BAD_BYTE.search(raw)
        at = bad.start() if bad else exc.start
        raise fail(f"invalid UTF-8 byte 0x{bad_byte(raw[at]):02X}" if bad else "invalid character", at,
                   LENIENT_HINT) from None
    if prolog > 0 and "<!" in raw[:prolog] and _DTD.search(raw, 0, prolog):  # only a prolog can hold a DTD
        raise fail("DOCTYPE/ENTITY declarations are refused (no DTDs, no entity expansion)",
                   _DTD.search(raw, 0, prolog).start(), "remove the declaration; thread files need none")
    layout = _plain_layout(raw, prolog, parts)
    try:
        root = etree.fromstring(data, _parser() if layout is None else _checker())
    except etree.XMLSyntaxError as exc:
        d = _DTD.search(raw)
        if d:
            raise fail("DOCTYPE/ENTITY declarations are refused (no DTDs, no entity expansion)", d.start(),
                       "remove the declaration; thread files need none") from None
        _scan(raw, path, line, lang)  # raises a precise CorpusError when it finds the problem
        where = line + (exc.lineno or 1) - 1
        raise CorpusError(f"not well-formed XML: {exc.msg}", file=path, line=where, thread=_id_of(raw),
                          hint="fix the markup at that line") from None
    if layout is not None:  # checked by libxml2 without a tree; the layout gives the rest
        posts = _fast_posts(raw, line, parts)
        if posts is not None:
            tid, headline = layout
            if "&" in headline:
                headline = _REF.sub(_ref_char, headline)
            return Thread(tid, lang_of(tid, lang) or UNKNOWN, " ".join(headline.split()), path, raw, posts, line)
        root = etree.fromstring(data, _parser())
    if root.getroottree().docinfo.doctype:  # never used: libxml2 was told to load and resolve nothing
        d = _DTD.search(raw)
        raise fail("DOCTYPE/ENTITY declarations are refused (no DTDs, no entity expansion)", d.start() if d else 0,
                   "remove the declaration; thread files need none")
    tid = root.get("id")
    if root.tag != "doc" or not tid or not _STRUCTURE_OK(root):
        return _scan(raw, path, line, lang)  # structure problems: the scanner names them
    headline = " ".join(_HEADLINE(root).split())
    posts = _fast_posts(raw, line, parts)  # None: found by the careful scanner on first use
    return Thread(tid, lang_of(tid, lang) or UNKNOWN, headline, path, raw, posts, line)












def _id_of(raw: str) -> str | None:
    """The id attribute of the thread's ``<doc>`` start tag (for messages), or None."""
    m = _DOC_ID.search(raw)
    return m.group(1) if m else None


def _plain_layout(raw: str, head: int, parts: list[str] | None) -> tuple[str, str] | None:
    """(id, raw headline text) when the thread, cut at post tags (``_cut_posts``), is laid out
    plainly: ``<doc id="...">``, at most a text-only ``<headline>``, then posts with only text
    between them, then ``</doc>``; else None.

    For such a thread libxml2 need only check well-formedness (no tree is built, which is more
    than twice as fast): every ``<post>`` is then a child of ``<doc>``, none nests, and the id
    and headline are read from the raw text.
    """
    if parts is None or len(parts) < 5 or len(parts) & 3 != 1 or "<" in "".join(parts[4:-1:4]) \
            or _TAIL_OK.fullmatch(parts[-1]) is None:
        return None
    m = _HEAD_OK.fullmatch(parts[0], max(head, 0))
    if m is None:
        return None
    tid = None
    for k, v1, v2 in _ATTR.findall(m.group(1)):
        if k == "id":
            tid = v1 or v2
    if not tid or "&" in tid or "\t" in tid or "\n" in tid or "\r" in tid:  # libxml2 would normalise it
        return None
    return tid, m.group(2) or ""


_tls = threading.local()


def _checker() -> "etree.XMLParser":
    """Like ``_parser`` but builds no tree: a well-formedness check only."""
    p = getattr(_tls, "checker", None)
    if p is None:
        p = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, dtd_validation=False,
                            huge_tree=False, collect_ids=False, target=_NoTree())
        _tls.checker = p
    return p


class _NoTree:
    """A parser target with no event methods, so libxml2 reports no events and lxml builds nothing."""

    def close(self) -> None:
        return None



def _parser() -> "etree.XMLParser":
    """A per-thread libxml2 parser that never loads a DTD, resolves an entity or uses the network."""
    p = getattr(_tls, "parser", None)
    if p is None:
        p = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, dtd_validation=False,
                            huge_tree=False, remove_blank_text=False, collect_ids=False)
        _tls.parser = p
    return p








# --------------------------------------------------------------------------- the reader


def iter_threads(paths: PathLike | Iterable[PathLike], *, lang: str | None = None, skip_bad: bool = False,
                 bad: BadThreads | None = None, encoding_errors: str = STRICT) -> Iterator[Thread]:
    """Stream the threads of files, zip archives and folders, in order.

    By default the first bad thread raises ``CorpusError`` (file, line, thread, hint). With
    ``skip_bad=True`` a bad thread is skipped and recorded in ``bad`` (pass a ``BadThreads`` to
    see them), and reading goes on with the next thread; a truncated compressed stream loses
    only what follows the break. ``lang`` overrides the language of every thread.

    ``encoding_errors`` (``indexing.encoding``): ``"strict"`` makes bytes that are not UTF-8 an
    error; ``"replace"`` and ``"cp1252"`` read each as one character (noted in ``bad.repaired``).
    A thread whose id was met before is read once when its contents are the same (noted in
    ``bad.duplicates``) and is an error naming both places when they differ.
    """
    check_policy(encoding_errors)
    if bad is None:
        bad = BadThreads()
    bad.policy = encoding_errors
    for file in iter_source_files(paths):
        try:
            for name, opener in _open_streams(file):
                bad.opened(name, file)
                yield from _iter_stream(name, opener, lang, skip_bad, bad, encoding_errors)
        except CorpusError as exc:
            if not skip_bad:
                raise
            bad.add(exc)
        except OSError as exc:
            err = CorpusError(f"cannot read: {exc}", file=str(file), hint="check the file's permissions")
            if not skip_bad:
                raise err from exc
            bad.add(err)


def _iter_stream(name: str, opener: Callable[[], BinaryIO], lang: str | None, skip_bad: bool,
                 bad: BadThreads, encoding_errors: str) -> Iterator[Thread]:
    with opener() as stream:
        for item in split_docs(iter_chunks(stream), name, encoding_errors):
            if isinstance(item, CorpusError):
                if not skip_bad:
                    raise item
                bad.add(item)
                continue
            for result in _parse_raw_doc(item, name, lang):
                if not isinstance(result, CorpusError):
                    try:
                        if not bad.admit(result):
                            continue
                    except CorpusError as exc:
                        result = exc
                if isinstance(result, CorpusError):
                    if not skip_bad:
                        raise result
                    bad.add(result)
                else:
                    if item.repaired:
                        bad.repaired.append(Repair(name, result.line, result.id, item.repaired))
                    yield result


def _parse_raw_doc(item: RawDoc, name: str, lang: str | None) -> Iterator[Thread | CorpusError]:
    """Parse one cut ``<doc>``; when it fails because an earlier ``<doc>`` never closed (so the cut
    holds two threads), report that one and parse the rest as its own thread."""
    try:
        yield parse_thread_text(item.raw, path=name, line=item.line, lang=lang)
        return
    except CorpusError as exc:
        first = _DOC_OPEN.search(item.raw)
        ms = _next_doc_open(item.raw, first.end(), len(item.raw)) if first else None
        if ms is None:
            yield exc
            return
        id_m = _DOC_ID.match(item.raw, first.start())
        yield CorpusError("<doc> is never closed before the next <doc>", file=name,
                          line=item.line + item.raw.count("\n", 0, first.start()),
                          thread=id_m.group(1) if id_m else None, hint="add the missing </doc>")
        rest = RawDoc(item.raw[ms.start():], item.line + item.raw.count("\n", 0, ms.start()))
        yield from _parse_raw_doc(rest, name, lang)


def read_threads(paths: PathLike | Iterable[PathLike], **kwargs) -> list[Thread]:
    """All threads of ``paths`` as a list (convenience for small collections and tests)."""
    return list(iter_threads(paths, **kwargs))
