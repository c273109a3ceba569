"""The judgment records (SPEC §5): one judged bullet, its judged sources, and a file as read."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


META_KEY = "_meta"
#: What a person decides, so every line must say it (SPEC §5 as hand-written files use it).
REQUIRED_KEYS = ("topic", "run", "bullet", "facets", "sources")
#: What the toolkit can work out when a line leaves it out: ``assessor`` (``"human"``), ``words`` (counted
#: from the run's bullet text by the one word rule, ``indexing.textfacts``), ``responsive_words``
#: (every word: nothing struck).
OPTIONAL_KEYS = ("assessor", "words", "responsive_words")
KNOWN_KEYS = ("topic", "run", "bullet", "assessor", "facets", "words", "responsive_words", "sources")
DEFAULT_ASSESSOR = "human"
SOURCE_REQUIRED_KEYS = ("post", "offset", "supports")
SOURCE_KNOWN_KEYS = ("post", "offset", "unit", "supports", "facets")


@dataclass(frozen=True, slots=True)
class JudgedSource:
    """One citation of a bullet and whether the cited post supports the bullet.

    The fields carry the SPEC §5 JSON keys' names: ``post`` is the cited **thread** id (as in
    ``<source post=...>``) and ``unit`` the id of the post element holding ``offset`` (``"p4"``),
    None when unknown; ``facets`` narrows which of the bullet's facets this source supports (None:
    all of them). :func:`evaluation.metrics.facts.unit_key` makes the source unit of the two.
    """

    post: str
    offset: int
    unit: str | None
    supports: bool
    facets: tuple[str, ...] | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"post": self.post, "offset": self.offset, "unit": self.unit,
                             "supports": self.supports}
        if self.facets is not None:
            d["facets"] = list(self.facets)
        d.update(self.extra)
        return d


@dataclass(frozen=True, slots=True)
class Judgment:
    """The assessment of one bullet: facets it addresses (``M_k``), its words, struck words, sources.

    ``topic_id`` is the JSON key ``topic`` (SPEC §5).

    ``bullet`` is the 1-based position in submission order. ``words`` and ``responsive_words`` are
    None when the line leaves them out: the scorer counts ``W_k`` itself from the run's bullet text
    (a count given here is only checked against it) and reads a missing ``responsive_words`` as
    nothing struck. ``extra`` keeps every other key
    (``chars``, ``responsive_chars``, ``evidence``, ``notes``, ...) verbatim; metrics ignore it.
    """

    topic_id: str
    run: str
    bullet: int
    assessor: str
    facets: tuple[str, ...]
    words: int | None
    responsive_words: int | None
    sources: tuple[JudgedSource, ...]
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    line: int = field(default=0, compare=False)

    @property
    def key(self) -> tuple[str, str, int]:
        """(topic, run, bullet): at most one judgment per key in a judgment set."""
        return (self.topic_id, self.run, self.bullet)

    def to_json(self) -> dict:
        d: dict[str, Any] = {
            "topic": self.topic_id, "run": self.run, "bullet": self.bullet, "assessor": self.assessor,
            "facets": list(self.facets), "words": self.words, "responsive_words": self.responsive_words,
            "sources": [s.to_json() for s in self.sources],
        }
        if self.words is None:  # left out as written (the scorer counts them)
            del d["words"]
        if self.responsive_words is None:
            del d["responsive_words"]
        d.update(self.extra)
        return d


@dataclass(frozen=True, slots=True)
class JudgmentSet:
    """A judgments file as read: its header (or None), its judgments, and its SHA-256 for signatures."""

    path: str
    header: dict | None
    judgments: tuple[Judgment, ...]
    sha256: str

    @property
    def assessors(self) -> tuple[str, ...]:
        """Distinct assessor names in file order."""
        return tuple(dict.fromkeys(j.assessor for j in self.judgments))

