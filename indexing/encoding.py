"""What the reader does with bytes that are not UTF-8: the ``--encoding-errors`` policy.

LDC-derived forum files often hold stray Windows-1252 bytes (0x92 for a right quote) among UTF-8
text. ``strict`` (the default) refuses such a thread and names the byte; the two lenient policies
repair it. THE OFFSET RULE: in a lenient read every byte that is not part of a valid UTF-8
sequence becomes exactly one character, byte by byte (a truncated multi-byte sequence of n bytes
gives n characters, not one as Python's ``'replace'`` would), so a raw offset (a code point into
the repaired thread text) is the same under ``replace`` and ``cp1252``:

- ``cp1252``: the Windows-1252 character of the byte; the five bytes Windows-1252 leaves
  undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become U+FFFD;
- ``replace``: U+FFFD.

The reader decodes with ``surrogateescape`` (which maps each undecodable byte to one lone
surrogate U+DC80..U+DCFF, and never lets a real surrogate through, since UTF-8 forbids encoded
surrogates); ``repair`` then turns each of those into the policy's character.
"""
from __future__ import annotations

import re
from typing import Sequence

from indexing.errors import ToolkitError

STRICT, REPLACE, CP1252 = "strict", "replace", "cp1252"
POLICIES = (STRICT, REPLACE, CP1252)
DEFAULT = STRICT
OPTION = "--encoding-errors"  # the one command-line spelling, named in messages
MANIFEST_KEY = "encoding_errors"  # the key in an index manifest's settings and a judgments header
BAD_BYTE = re.compile("[\udc80-\udcff]")  # a byte that was not UTF-8, as surrogateescape keeps it
UNDEFINED_CP1252 = (0x81, 0x8D, 0x8F, 0x90, 0x9D)


def _cp1252_char(byte: int) -> str:
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:  # one of the five undefined bytes
        return "\ufffd"


# str.translate tables: the escaped byte 0xNN (U+DCNN) -> its character under each policy
_TABLES: dict[str, dict[int, str]] = {
    CP1252: {0xDC00 + b: _cp1252_char(b) for b in range(0x80, 0x100)},
    REPLACE: {0xDC00 + b: "\ufffd" for b in range(0x80, 0x100)},
}

LENIENT_HINT = (f"re-encode the file as UTF-8 (iconv -f WINDOWS-1252 -t UTF-8 when all of it is Windows-1252), or read it "
                f"leniently with "
                f"{OPTION} cp1252 (each bad byte as its Windows-1252 character) or {OPTION} replace (as U+FFFD); "
                "see docs/corpus.md")


def check_policy(policy: str) -> str:
    """``policy`` when it is one of ``POLICIES``, else a ``ToolkitError`` naming them."""
    if policy not in POLICIES:
        raise ToolkitError(f"unknown encoding-errors policy {policy!r}", hint=f"choose one of {', '.join(POLICIES)}")
    return policy


def bad_byte(ch: str) -> int:
    """The byte value an escaped character (U+DC80..U+DCFF) stands for."""
    return ord(ch) - 0xDC00


def repair(text: str, policy: str) -> tuple[str, int]:
    """(``text`` with every escaped bad byte replaced by the policy's one character, bytes replaced).

    Length is unchanged, so every offset stays where it was.
    """
    n = len(BAD_BYTE.findall(text))
    if not n:
        return text, 0
    return text.translate(_TABLES[policy]), n


def resolve_policy(given: str | None, records: Sequence[tuple[str | None, str]]) -> tuple[str, str | None]:
    """The policy a command reads with, and a note to show (or None).

    ``given`` is what the command was told (None: the option was left out); ``records`` are
    ``(policy, where)`` pairs for what earlier files record (an index folder's manifest, a
    judgments file's header; policy None: that file records none and constrains nothing). Files
    that record different policies are an error. Left out: the recorded policy is used (a note
    says so when it is not strict), else strict. Given and equal: used. Given and different: an
    error with the fix, since offsets made from text read one way are only checked rightly
    against text read the same way.
    """
    known = [(p, w) for p, w in records if p is not None]
    for p, w in known[1:]:
        if p != known[0][0]:
            raise ToolkitError(f"{known[0][1]} was made with {OPTION} {known[0][0]} but {w} with {p}", file=w,
                               hint="use files made under one policy (make one of them again)")
    if not known:
        return check_policy(given) if given is not None else DEFAULT, None
    rec, where = known[0]
    if given is None:
        note = None if rec == STRICT else f"reading with {OPTION} {rec}, as recorded in {where}"
        return rec, note
    check_policy(given)
    if given != rec:
        raise ToolkitError(f"{OPTION} {given} differs from the policy {where} was made with ({rec})",
                           file=where, hint=f"pass {OPTION} {rec} (or leave the option out), or make {where} "
                                            f"again with {OPTION} {given}")
    return given, None
