"""The pool a person judges: every run's bullets for a topic, each distinct text shown once.

Bullets are grouped by :func:`~evaluation.judgments.reuse.bullet_key` (topic + normalised text), so
a sentence three systems output is judged once and the decision is written for all three. The
order is blind and random but stable (a hash of the assessor's name and the text), so a reload or
a second tab shows the same order, and no run name ever reaches the page.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Iterable

from bolt.formats.submission import Run
from evaluation.metrics.facts import post_id_at, unit_key
from evaluation.judgments.reuse import BulletKey, bullet_key


@dataclass(frozen=True, slots=True)
class Occurrence:
    """Where a pooled bullet appears: run id, 1-based position, and its citations there."""

    run: str
    position: int
    sources: tuple[tuple[str, int], ...]  # (thread id, offset) in submission order


@dataclass(frozen=True, slots=True)
class PooledSource:
    """A cited post of a pooled bullet: thread, post id and every offset cited into it."""

    key: tuple[str, str]       # unit_key(thread, post_id, offset)
    thread: str
    post_id: str | None
    offsets: tuple[int, ...]

    @property
    def unit(self) -> str | None:
        """The post id, by the judgments' name for it (``JudgedSource.unit``)."""
        return self.post_id

    @property
    def id(self) -> str:
        """The id the page uses for this source (thread + post id, never a path)."""
        return f"{self.key[0]}#{self.key[1]}"


@dataclass(slots=True)
class PoolItem:
    """One distinct bullet text of a topic, with every run position that gave it."""

    id: str
    topic: str
    text: str
    key: BulletKey
    occurrences: list[Occurrence] = field(default_factory=list)
    sources: list[PooledSource] = field(default_factory=list)

    @property
    def source_by_id(self) -> dict[str, PooledSource]:
        return {s.id: s for s in self.sources}


def item_id(key: BulletKey) -> str:
    """A short stable id for a bullet key (what the page and the API name an item by)."""
    return hashlib.sha256(f"{key[0]}\x00{key[1]}".encode("utf-8")).hexdigest()[:16]


unit_of = post_id_at  # the former name, kept importable


def build_pool(runs: Iterable[Run], corpus, topics: Iterable[str], seed: str) -> dict[str, list[PoolItem]]:
    """Per topic number, the distinct bullets of all runs in blind, stable random order."""
    wanted = list(topics)
    pool: dict[str, dict[BulletKey, PoolItem]] = {t: {} for t in wanted}
    post_ids: dict[tuple[str, int], str | None] = {}  # (thread id, offset) -> post id
    for run in runs:
        for result in run:
            items = pool.get(result.topic_id)
            if items is None:
                continue  # a topic the topics file does not have: nothing to judge it against
            for b in result.bullets:
                key = bullet_key(result.topic_id, b.text)
                item = items.get(key)
                if item is None:
                    item = items[key] = PoolItem(item_id(key), result.topic_id, b.text, key)
                item.occurrences.append(Occurrence(run.run_id, b.position,
                                                   tuple((s.thread, s.offset) for s in b.sources)))
                for s in b.sources:  # a submission source: s.thread is the file's <source post=...> (SPEC)
                    if (s.thread, s.offset) not in post_ids:
                        post_ids[(s.thread, s.offset)] = post_id_at(corpus, s.thread, s.offset)
    out: dict[str, list[PoolItem]] = {}
    for number, items in pool.items():
        for item in items.values():
            grouped: dict[tuple[str, str], list[int]] = {}
            post_id_for: dict[tuple[str, str], str | None] = {}
            for occ in item.occurrences:
                for thread, offset in occ.sources:
                    post_id = post_ids[(thread, offset)]
                    k = unit_key(thread, post_id, offset)
                    offs = grouped.setdefault(k, [])
                    post_id_for[k] = post_id
                    if offset not in offs:
                        offs.append(offset)
            item.sources = [PooledSource(k, k[0], post_id_for[k], tuple(sorted(v))) for k, v in grouped.items()]
        out[number] = sorted(items.values(),
                             key=lambda it: hashlib.sha256(f"{seed}\x00{it.id}".encode("utf-8")).hexdigest())
    return out


def sample_pool(pool: dict[str, list[PoolItem]], n: int, seed: int) -> dict[str, list[PoolItem]]:
    """A simple random sample of ``n`` distinct bullets over all topics (every bullet equally likely;
    the same ``seed`` draws the same sample, so a session resumes), each topic's kept in its order.

    People's judgments of such a sample correct the machine's scores (``bolt score --correct-with``)."""
    import random

    if n < 1:
        raise ValueError(f"a sample needs at least one bullet, not {n}")
    ids = sorted(it.id for items in pool.values() for it in items)
    keep = set(random.Random(seed).sample(ids, min(n, len(ids))))
    return {t: [it for it in items if it.id in keep] for t, items in pool.items()}
