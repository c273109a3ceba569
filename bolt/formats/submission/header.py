"""A run's header: the XML comments before its root that say what wrote it.

SPEC §4 allows no attribute but ``run`` and no element but the results, so the writer states the
system, its settings and its :class:`~bolt.formats.signature.Signature` in comments, which every
XML reader skips (runs written before the signature existed stay valid and readable)::

    <!-- system: main -->
    <!-- settings: main index=sample.index topics=12 model=all-MiniLM-L6-v2@cd0b9f744409 -->
    <!-- signature: system:main|settings:main|...|version:1.0.0 -->
    <results run="sample-main">

The header is read from the file's first bytes only, apart from the parser, which drops comments.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from bolt.formats.signature import Signature

HEADER_KEYS = ("system", "settings", "signature")
"""The header's comments, in the order the writer puts them."""

_HEAD_BYTES = 64 * 1024
_COMMENT = re.compile(r"<!--\s*([a-z]+):\s?(.*?)\s*-->", re.S)
_ROOT = re.compile(r"<(results|result)\b")


@dataclass(frozen=True)
class RunHeader:
    """What a run file says about what wrote it; ``None`` for what it does not say."""

    system: str | None = None
    settings: str | None = None
    signature: Signature | None = None

    def to_json(self) -> dict:
        return {"system": self.system, "settings": self.settings,
                "signature": self.signature.to_json() if self.signature else None}


def header_comments(system: str | None, settings: str | None, signature: Signature | str | None) -> list[str]:
    """The header's comment bodies, ``key: value`` (the writer escapes them for a comment)."""
    values = {"system": system, "settings": settings, "signature": str(signature) if signature else None}
    return [f"{k}: {values[k]}" for k in HEADER_KEYS if values[k]]


def read_header(path: str | os.PathLike) -> RunHeader:
    """The header of the run at ``path`` (empty when it has none or cannot be read: the parser and
    the validator report unreadable files; a signature that does not parse counts as absent)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return RunHeader()
    root = _ROOT.search(head)
    found: dict[str, str] = {}
    for m in _COMMENT.finditer(head, 0, root.start() if root else len(head)):
        if m.group(1) in HEADER_KEYS and m.group(1) not in found:
            found[m.group(1)] = m.group(2)
    signature = None
    if "signature" in found:
        try:
            signature = Signature.parse(found["signature"])
        except ValueError:
            signature = None
    return RunHeader(found.get("system"), found.get("settings"), signature)
