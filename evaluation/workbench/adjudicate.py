"""Adjudication: two assessors judged one pool; a third person settles the bullets they disagree on.

Each assessor's file is read as earlier human decisions (:func:`~evaluation.judgments.reuse.read_reusable`:
only finished, person-made verdicts). A bullet both judged alike is carried into the adjudicated
file as it stands; a bullet they judged differently (facets, responsive words, or any cited post's
support) or that only one of them finished is shown, with both opinions, for the adjudicator to
decide. Bullets neither finished are left out. What counts as "alike" is this module's
:func:`disagree`, the one definition the page and the campaign's figures use.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable

from evaluation.judgments import read_header
from evaluation.workbench.pool import PoolItem
from evaluation.judgments.reuse import HumanDecision, ReuseIndex, read_reusable, struck_words


@dataclass
class Assessor:
    """One assessor's finished decisions and their name (from the file's header, else the file name)."""

    name: str
    path: str
    index: ReuseIndex


def read_assessors(paths: Iterable[str | os.PathLike]) -> list[Assessor]:
    """The assessors' files to adjudicate, each read as a person's finished decisions."""
    out = []
    for path in paths:
        name = (read_header(path) or {}).get("assessor") or os.path.basename(str(path))
        out.append(Assessor(str(name), str(path), read_reusable([path])))
    return out


def disagree(item: PoolItem, a: HumanDecision, b: HumanDecision) -> bool:
    """True when two finished decisions about one pooled bullet differ in any verdict that scores.

    Compared: the facets, the responsive word count (struck words), and each cited post's support
    (graded: "partial" differs from a yes or a no). A post one judged and the other did not differs.
    """
    if set(a.facets) != set(b.facets):
        return True
    if struck_words(item.text, a.struck)[1] != struck_words(item.text, b.struck)[1]:
        return True
    return any(a.supports.get(s.key) != b.supports.get(s.key) for s in item.sources)


def opinion(item: PoolItem, assessor: Assessor) -> dict[str, Any] | None:
    """One assessor's decision about a pooled bullet as the page shows it (None: not finished)."""
    d = assessor.index.get(item.topic, item.text)
    if d is None:
        return None
    struck = d.struck if all(e <= len(item.text) for _, e in d.struck) else ()
    words, responsive = struck_words(item.text, struck)
    return {"assessor": assessor.name, "facets": sorted(d.facets), "struck": [list(s) for s in struck],
            "words": words, "responsive_words": responsive,
            "supports": {s.id: d.supports[s.key] for s in item.sources if s.key in d.supports}}


def split(items: Iterable[PoolItem], assessors: list[Assessor]) -> tuple[ReuseIndex, set[str]]:
    """(the decisions both assessors share, to carry over; the ids of the bullets to adjudicate)."""
    a, b = assessors
    agreed = ReuseIndex()
    disputed: set[str] = set()
    for item in items:
        da, db = a.index.get(item.topic, item.text), b.index.get(item.topic, item.text)
        if da is None and db is None:
            continue
        if da is None or db is None or disagree(item, da, db):
            disputed.add(item.id)
        else:
            agreed.decisions[item.key] = da
    agreed.files = [a.path, b.path]
    return agreed, disputed
