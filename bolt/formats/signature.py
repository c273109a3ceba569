"""What wrote a run, as one line a person can read and a program can parse back.

Modelled on sacrebleu's signature: ``key:value`` fields joined by ``|``, in a fixed order, the
toolkit version last, e.g. ``system:main|settings:main|embed:all-MiniLM-L6-v2@cd0b9f744409#1f0c…|…|
version:1.0.0``. A model's or a data file's value is ``ID#HASH``: its id and the short sha256 of
its bytes, so two runs that name the same model but read other weights have other signatures.

The record lives with the file formats (not with the code that computes it, ``bolt.provenance``)
because readers of a run, the evaluator among them, must parse it without importing the system.
A value is written percent-escaped where it would otherwise break the line or the XML comment
that holds it (``%``, ``|``, ``--``, line breaks), so :meth:`Signature.parse` gives back exactly
what was written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import unquote

_KEY = re.compile(r"[a-z][a-z0-9.-]*\Z")
_UNSAFE = re.compile(r"[%|\s]|-(?=-)")


def _escape(value: str) -> str:
    """``value`` with ``%``, ``|``, white space other than a lone space, and the first ``-`` of
    ``--`` percent-escaped (a comment may not hold ``--``; the writer collapses white space)."""
    def esc(m: re.Match) -> str:
        ch = m.group(0)
        return ch if ch == " " else "".join(f"%{b:02X}" for b in ch.encode("utf-8"))

    out = _UNSAFE.sub(esc, value)
    out = out.replace("  ", " %20").replace("  ", " %20")
    if out.startswith(" "):
        out = "%20" + out[1:]
    if out.endswith(" "):
        out = out[:-1] + "%20"
    return out


@dataclass(frozen=True)
class Signature:
    """The ordered ``(key, value)`` fields of a run's signature; ``version`` comes last.

    ``str(sig)`` is the one-line form, :meth:`parse` reads it back, :meth:`to_json` splits each
    ``ID#HASH`` value into ``{"id": ..., "sha256": ...}`` for programs.
    """

    fields: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        for key, value in self.fields:
            if not _KEY.match(key):
                raise ValueError(f"signature key {key!r}: use lowercase letters, digits, '.' and '-'")
            if not isinstance(value, str):
                raise TypeError(f"signature field {key!r}: the value must be a string, got {value!r}")

    def __str__(self) -> str:
        return "|".join(f"{k}:{_escape(v)}" for k, v in self.fields)

    def __repr__(self) -> str:
        return f"Signature.parse({str(self)!r})"

    def __getitem__(self, key: str) -> str:
        for k, v in self.fields:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: str | None = None) -> str | None:
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self.fields)

    def __contains__(self, key: object) -> bool:
        return any(k == key for k, _ in self.fields)

    @classmethod
    def parse(cls, text: str) -> "Signature":
        """The signature a ``str(Signature)`` wrote; ValueError naming the bad field otherwise."""
        fields = []
        for part in text.strip().split("|"):
            key, sep, value = part.partition(":")
            if not sep:
                raise ValueError(f"signature field {part!r} has no ':' (expected key:value|key:value...)")
            fields.append((key, unquote(value)))
        return cls(tuple(fields))

    def to_json(self) -> dict:
        """``{"signature": text, key: value or {"id", "sha256"}}`` in field order."""
        out: dict = {"signature": str(self)}
        for k, v in self.fields:
            ident, sep, digest = v.rpartition("#")
            out[k] = {"id": ident, "sha256": digest} if sep and re.fullmatch(r"[0-9a-f]{12,64}|unknown", digest) else v
        return out
