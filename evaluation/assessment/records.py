"""The records the assessor's passes hand on: per topic, per citation, per distinct bullet."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from evaluation.matching import anchoring, lexical

if TYPE_CHECKING:  # pragma: no cover
    from bolt.formats.topics import Topic


class Ref(NamedTuple):
    """A facet text the bullet is compared with: its description or one of its nuggets (1-based)."""

    facet: str
    nugget: int | str  # 1-based nugget index within the facet, or "desc"
    text: str
    terms: frozenset[str]


@dataclass
class AssessStats:
    """What an assessment did, for summaries and benchmarks."""

    bullets: int = 0
    texts_embedded: int = 0
    embed_seconds: float = 0.0
    prepare_seconds: float = 0.0
    decide_seconds: float = 0.0
    crosslingual_seconds: float = 0.0


@dataclass
class TopicPrep:
    """One topic's facet texts and nugget spans, and the matches of every bullet unit judged with it."""

    topic: "Topic"
    refs: list[Ref]
    spans: list[anchoring.NuggetSpan]
    order: dict[str, int]
    units: dict[str, None] = field(default_factory=dict)
    matches: dict[str, list[dict]] = field(default_factory=dict)
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)  # unit -> facet -> best p
    xunits: dict[str, set[str]] = field(default_factory=dict)  # non-English bullets -> the threads they cite
    xmatches: dict[str, list[dict]] = field(default_factory=dict)
    native: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # lang -> facet -> its nuggets in lang

    def facet_key(self, facet: str) -> tuple[int, str]:
        """Facets sort in the topic's order; a facet the topic does not list comes last."""
        return (self.order.get(facet, 1 << 30), facet)


@dataclass
class SourceCheck:
    """What one citation shows: where it lands, the nugget spans it anchors to, the text it points at."""

    post: str
    offset: int
    unit: str | None
    anchors: list[anchoring.Anchor]
    textual: bool
    window: str | None
    lexical: lexical.Overlap | None
    note: str | None
    lang: str | None = None  # the cited thread's language (from the corpus, else from its id)
    verbatim: bool = False  # the cited text holds the bullet word for word (any language)


@dataclass
class Pending:
    """A distinct (topic, bullet text, citations): repeated bullets are decided once."""

    topic: str
    text: str
    lang: str
    textual: bool
    units: tuple[str, ...]  # sentences, then the whole bullet when it has several
    n_sentences: int
    sources: list[SourceCheck]
