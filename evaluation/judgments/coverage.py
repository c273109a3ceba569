"""What a set of judgments covers: unfinished judgments, facet ids the topics lack, judged topics.

A person's judgments can be unfinished (``"complete": false``: ``bolt judge`` writes every click at
once, Done or not) and can name facets added in the workbench, which live in an updated topics
file (the judgments' header names it). Scoring such a file against the original topics silently
drops those facets, and scoring a campaign halfway through mixes judged and unjudged topics; these
checks let ``bolt score`` and ``--reuse`` say so, and ``bolt score --judged-only`` keep only the
topics judged in full.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from evaluation.judgments.records import Judgment

COMPLETE_KEY = "complete"  # false while the person has not pressed Done on the bullet (bolt judge)


def is_unfinished(extra: Mapping[str, Any]) -> bool:
    """True for a judgment (its extra keys, or a whole JSON line) the assessor has not finished."""
    return extra.get(COMPLETE_KEY, True) is False


def unknown_facets(topics: Iterable[Any], judged: Iterable[tuple[str, Iterable[str]]]) -> dict[str, list[str]]:
    """Per topic number, the facet ids that ``judged`` (topic, facet ids) names and ``topics`` lack.

    Topics not in ``topics`` are left out (the scorer ignores their judgments anyway).
    """
    known = {t.topic_id: {f.id for f in t.facets} for t in topics}
    out: dict[str, set[str]] = {}
    for topic, facets in judged:
        have = known.get(topic)
        if have is None:
            continue
        missing = [f for f in facets if f not in have]
        if missing:
            out.setdefault(topic, set()).update(missing)
    return {t: sorted(ids, key=lambda f: (len(f), f)) for t, ids in sorted(out.items())}


def unknown_facets_warning(unknown: Mapping[str, list[str]], topics_path: object,
                           header_topics: Iterable[object] = ()) -> str:
    """One line saying which facet ids ``topics_path`` lacks, and which topics file holds them."""
    ids = "; ".join(f"{t}: {', '.join(fs)}" for t, fs in unknown.items())
    n = sum(map(len, unknown.values()))
    others = sorted({str(h) for h in header_topics if h and str(h) != str(topics_path)})
    where = (f"; the judgments were made with {' and '.join(others)}: give that as --topics" if others
             else "; give the topics file the judgments were made with (bolt judge writes OUT.topics.xml)")
    return f"{n} facet id(s) in the judgments are not in {topics_path} ({ids}) and are ignored{where}"


def fully_judged_topics(topics: Iterable[str], runs: Iterable[Any], judged: Mapping[tuple[str, str, int], Judgment]
                        ) -> list[str]:
    """The topics whose every bullet, in every run, has a finished judgment (and there is one bullet).

    ``runs`` are ``bolt.formats.submission.Run`` records; ``judged`` maps (topic, run, bullet) to judgments.
    """
    runs = list(runs)
    out = []
    for number in topics:
        keys = [(number, r.run_id, b.position) for r in runs
                for b in (r.results[number].bullets if number in r.results else ())]
        if keys and all(k in judged and not is_unfinished(judged[k].extra) for k in keys):
            out.append(number)
    return out
