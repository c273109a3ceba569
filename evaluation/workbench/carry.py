"""Decisions a session starts from: its own earlier file, other people's (``--reuse``, agreed
adjudication), and the automatic assessor's judgments shown as a starting point (``--prefill``)."""
from __future__ import annotations

from typing import Any, Iterable

from evaluation.judgments import Judgment
from evaluation.judgments.reuse import (FACETS_BY_KEY, JUDGED_BY_KEY, STRUCK_KEY, ReuseIndex, struck_spans,
                                        support_verdict)
from evaluation.metrics.facts import unit_key
from evaluation.workbench.decision import Decision
from evaluation.workbench.pool import PoolItem


def adopt(decisions: dict[str, Decision], item: PoolItem, j: Judgment) -> None:
    """Fold one line of the session's own earlier file into the item's decision (first line wins per source)."""
    d = decisions.get(item.id)
    if d is None:
        d = decisions[item.id] = Decision(
            set(j.facets), struck_spans(j.extra.get(STRUCK_KEY), item.text) or (), {},
            bool(j.extra.get("complete", True)), j.extra.get("reused_from"),
            facets_by=str(j.extra.get(FACETS_BY_KEY, "human")))
    ids = {s.key: s.id for s in item.sources}
    for src in j.sources:
        sid = ids.get(unit_key(src.post, src.unit, src.offset))
        if sid is not None and sid not in d.supports and src.extra.get("decided", True) is not False:
            d.supports[sid] = support_verdict(src.supports, src.extra)
            by = src.extra.get(JUDGED_BY_KEY)
            if isinstance(by, str) and by != "human":
                d.supports_by[sid] = by


def carry_over(items: Iterable[PoolItem], decisions: dict[str, Decision], index: ReuseIndex) -> int:
    """Carry earlier human decisions over to undecided items; returns how many bullets need nothing more."""
    done = 0
    for item in items:
        if item.id in decisions:
            continue
        human = index.get(item.topic, item.text)
        if human is None:
            continue
        supports = {s.id: human.supports[s.key] for s in item.sources if s.key in human.supports}
        complete = len(supports) == len(item.sources)
        struck = human.struck if all(e <= len(item.text) for _, e in human.struck) else ()
        decisions[item.id] = Decision(set(human.facets), struck, supports, complete, human.origin)
        done += complete
    return done


def prefill_views(items: Iterable[PoolItem], judgments: Iterable[Judgment]) -> dict[str, dict[str, Any]]:
    """The automatic assessor's judgments by pooled item (shown, never written as a person's)."""
    by_pos = {(j.topic_id, j.run, j.bullet): j for j in judgments}
    out: dict[str, dict[str, Any]] = {}
    if not by_pos:
        return out
    for item in items:
        for occ in item.occurrences:
            j = by_pos.get((item.topic, occ.run, occ.position))
            if j is None:
                continue
            ids = {}
            for (post, offset), src in zip(occ.sources, j.sources):
                for s in item.sources:
                    if s.thread == post and offset in s.offsets:
                        ids[s.id] = src.supports
            out[item.id] = {"facets": list(j.facets), "supports": ids, "words": j.words,
                            "responsive_words": j.responsive_words, "assessor": j.assessor,
                            "evidence": j.extra.get("evidence", []), "notes": j.extra.get("notes")}
            break
    return out
