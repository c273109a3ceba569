"""The facts scoring hands to metrics: per-bullet facts, one response, one topic's context.

``evaluation.scoring`` turns judgments into these records and nothing more; each metric family
reduces them itself (a :data:`Reducer`), so a new metric needs a new module, never a new field here
or a change to the scorer. A reducer is a plain function ``(response, topic) -> family statistics``
(a NamedTuple of the family's own), run once per response for every family asked for.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, NamedTuple, Sequence

UnitKey = tuple[str, str]  # (thread id, post id) or (thread id, "@offset") when the post is unknown


def unit_key(thread: str, post_id: str | None, offset: int) -> UnitKey:
    """The source unit a citation counts as: its thread and the post element holding the offset.

    Two offsets into one post are one unit (the post supports the bullet or not); when the post is
    unknown the offset stands in for it (``"@120"``), so only an exact citation then matches.
    """
    return (thread, post_id if post_id else f"@{offset}")


def post_id_at(corpus: Any, thread_id: str, offset: int) -> str | None:
    """The id of the post element holding ``offset`` in a thread of ``corpus`` (anything with
    ``get(thread_id)`` giving a reader thread); None when the thread or the post is unknown."""
    thread = corpus.get(thread_id) if corpus is not None else None
    if thread is None:
        return None
    post = thread.post_at(offset)
    return post.id if post is not None else None


class BulletFacts(NamedTuple):
    """What one bullet of a response contributes (SPEC §6), the facts every metric family reduces.

    ``facets`` are the effective facets ``M_k`` (judged, known to the topics, supported by a
    supporting source); ``newly_covered`` is ``N_k``; ``wasted_words`` the words counted as
    redundant or irrelevant; ``sources`` how many sources the bullet cites; ``supporting`` the
    (unit, facets it supports) of each supporting source; ``responsive_fraction`` is ``w_k / W_k``;
    ``length`` its non-white-space characters.
    """

    position: int
    judged: bool
    facets: tuple[str, ...]
    newly_covered: tuple[str, ...]
    wasted_words: float
    sources: int
    supporting: tuple[tuple[UnitKey, tuple[str, ...]], ...]
    responsive_fraction: float
    length: int


class Response(NamedTuple):
    """One run's response to one topic: its bullets' facts in submission order.

    ``responded`` is False when the run gave no ``<result>`` or no bullet (metrics then score their
    declared default).
    """

    topic: str
    run: str
    responded: bool
    bullets: Sequence[BulletFacts]


class TopicContext(NamedTuple):
    """What a reducer may need beyond one response: the topic's facets and what every run shares.

    ``pool_size`` is the number of relevant source units (nugget citations plus every supporting
    source of any run scored together); ``facets_of_unit`` maps a pooled unit to the facets whose
    ``C_i`` hold it and ``ci_size`` is ``|C_i|``; ``votes`` are this topic's nugget-pyramid votes
    (facet -> {"vital": n, "okay": n}; None when no votes file was given); ``holistic`` maps a run
    to its assessors' holistic scores for the topic.
    """

    topic: str
    facets: tuple[str, ...]
    vital: frozenset[str]
    avg_nugget_words: float
    pool_size: int
    facets_of_unit: Mapping[UnitKey, Sequence[str]]
    ci_size: Mapping[str, int]
    votes: Mapping[str, Mapping[str, int]] | None
    holistic: Mapping[str, Sequence[float]]


#: A metric family's reduction of one response's facts to the family's sufficient statistics;
#: None means the input the family needs was not given (no votes, no holistic judgments).
Reducer = Callable[[Response, TopicContext], Any]
