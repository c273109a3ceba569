"""The submission records (SPEC §4): a run of results of bullets with their citations.

Also the bullet-text rule every reader and writer follows (:func:`collapse`) and the characters
XML 1.0 forbids (``BAD_XML_CHARS``), so the parser and the writer agree on what a bullet's text is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from bolt.formats.submission.header import RunHeader


@dataclass(frozen=True, slots=True)
class Source:
    """A citation: a thread id and a raw code-point offset into that thread's XML (SPEC §2).

    The file's key is ``<source post=...>`` (SPEC), but it holds a **thread** id, so the attribute
    is ``thread``.
    """

    thread: str
    offset: int
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Bullet:
    """One bullet: its 1-based position in the response, collapsed text, and its citations."""

    position: int
    text: str
    sources: tuple[Source, ...]
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Result:
    """A system's response to one topic: the bullets in submission order. ``topic_id`` is the file's
    ``<result number=...>`` (SPEC)."""

    topic_id: str
    bullets: tuple[Bullet, ...]
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Run:
    """A whole submission; ``results`` keeps the file's order (first occurrence of each topic);
    ``header`` says what wrote it (not compared: the same results are the same run)."""

    run_id: str
    path: str
    results: dict[str, Result]
    header: RunHeader = field(default=RunHeader(), compare=False)

    def __iter__(self) -> Iterator[Result]:
        return iter(self.results.values())


# Characters XML 1.0 forbids (and lone surrogates): never written, never accepted in ids.
BAD_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def collapse(text: str) -> str:
    """Collapse runs of white space to one space and strip the ends (the bullet text rule)."""
    return " ".join(text.split())
