"""The byte stream of a run, checked before any of it reaches the XML parser (SPEC §4).

Bytes are read in chunks and checked as strict UTF-8 (a bad byte is reported with its byte
position), a ``<!DOCTYPE``/``<!ENTITY``/``<!ELEMENT``/``<!ATTLIST`` or a reference to an entity
other than the five XML ones is refused in the chunk that holds it (so no external entity is
fetched and none is expanded), and a file over ``max_bytes`` is refused. A fault is a
:class:`StreamFault`: the parser records it as a problem and stops.
"""
from __future__ import annotations

import codecs
import re
from typing import IO, Iterator

from bolt.formats.submission.rules import (BAD_ENCODING_DECLARATION, DOCTYPE_REFUSED, EMPTY_FILE, ENTITY_REFUSED,
                                   INVALID_UTF8, NOT_WELL_FORMED, TOO_LARGE)

CHUNK_BYTES = 1 << 20

_DECL = re.compile(rb"<\?xml[^>]{0,400}?\?>")
_DECL_ENC = re.compile(rb"""encoding\s*=\s*["']([^"']*)["']""")
_REFUSED = re.compile(rb"<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)")
_ENTITY_REF = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)([A-Za-z_:][-\w.:]{0,60});")


class StreamFault(Exception):
    """A fault of the byte stream that stops reading: its rule, line (or None) and message."""

    def __init__(self, rule: str, line: int | None, message: str) -> None:
        super().__init__(message)
        self.rule, self.line, self.message = rule, line, message


def checked_chunks(fh: IO[bytes], max_bytes: int | None = None) -> Iterator[bytes]:
    """Yield chunks of checked bytes: UTF-8, no DOCTYPE/ENTITY, within ``max_bytes``; else :class:`StreamFault`."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    total = 0      # bytes read before this chunk
    lines = 1      # line number at the start of this chunk
    tail = b""     # the end of the previous chunk, to find markers across the boundary
    content = False
    while True:
        chunk = fh.read(CHUNK_BYTES)
        final = not chunk
        if max_bytes is not None and total + len(chunk) > max_bytes:
            raise StreamFault(TOO_LARGE, None, f"the file is over {max_bytes} bytes; split the run "
                              "or raise the limit")
        pending_bytes = decoder.getstate()[0]
        pending = len(pending_bytes)
        try:
            decoder.decode(chunk, final=final)
        except UnicodeDecodeError as exc:
            pos = total - pending + exc.start  # 0-based byte position in the file
            # pending bytes hold no newline (they are the start of one multi-byte character)
            line = lines + chunk[: max(0, exc.start - pending)].count(b"\n")
            bad = (pending_bytes + chunk)[exc.start:exc.start + 4]
            raise StreamFault(INVALID_UTF8, line, f"invalid UTF-8 at byte {pos} (bytes {bad.hex(' ')}); "
                              "save the file as UTF-8 (not Latin-1, Windows-1252 or UTF-16)")
        if final:
            break
        window = tail + chunk
        m = _REFUSED.search(window)
        if m:
            line = lines - tail.count(b"\n") + window[: m.start()].count(b"\n")
            what = m.group(1).decode()
            raise StreamFault(DOCTYPE_REFUSED, line, f"<!{what}> declarations are refused (no DTDs, no "
                              "entities: a run is plain XML); delete the declaration and replace entity "
                              "references by the characters themselves")
        m = _ENTITY_REF.search(window, max(0, len(tail) - 64))
        if m:
            line = lines - tail.count(b"\n") + window[: m.start()].count(b"\n")
            name = m.group(1).decode("utf-8", "replace")
            raise StreamFault(ENTITY_REFUSED, line, f"entity &{name}; is not defined (a run has no DTD): only "
                              "&amp; &lt; &gt; &quot; &apos; and numeric references such as &#233; are "
                              "allowed; write the character itself")
        if not content and chunk.strip(b" \t\r\n\xef\xbb\xbf"):
            content = True
        total += len(chunk)
        lines += chunk.count(b"\n")
        tail = window[-64:]
        yield chunk
    if not content:
        raise StreamFault(EMPTY_FILE, None, "the file is empty; write <results run=\"ID\"> with one "
                          "<result number=\"TOPIC\"> per topic")


def wrapped_chunks(fh: IO[bytes], wrapper: str, max_bytes: int | None = None) -> Iterator[bytes]:
    """The checked bytes with a synthetic root element ``wrapper`` after any BOM and XML declaration,
    inserted without a newline so line numbers stay the user's."""
    chunks = checked_chunks(fh, max_bytes)
    first = b""
    for chunk in chunks:
        first += chunk
        if len(first) >= 512:
            break
    head = b""
    body = first
    if body.startswith(b"\xef\xbb\xbf"):
        head, body = body[:3], body[3:]
    if body.startswith(b"<?xml"):
        m = _DECL.match(body)
        if m is None:
            raise StreamFault(NOT_WELL_FORMED, 1, "the XML declaration is not closed with '?>'; write "
                              '<?xml version="1.0" encoding="UTF-8"?>')
        enc = _DECL_ENC.search(m.group(0))
        if enc and enc.group(1).decode("ascii", "replace").lower().replace("_", "-") not in ("utf-8", "utf8"):
            raise StreamFault(BAD_ENCODING_DECLARATION, 1,
                              f"the declaration says encoding=\"{enc.group(1).decode('ascii', 'replace')}\"; "
                              "runs are UTF-8: save the file as UTF-8 and declare encoding=\"UTF-8\"")
        head, body = head + m.group(0), body[m.end():]
    yield head + f"<{wrapper}>".encode() + body
    yield from chunks
    yield f"</{wrapper}>".encode()
