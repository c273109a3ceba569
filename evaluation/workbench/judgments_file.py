"""A judging session's judgments file: read back when the session starts, rewritten whole on each change.

The file is rewritten atomically before a request returns, so a crash or a closed tab loses at
most the request in flight; lines of unchanged bullets are serialised once and kept. Lines that
are not about the session's pool are kept as they are; lines about a run whose bullet at that
position now says something else move to ``OUT.stale.jsonl``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from bolt.formats.submission import Run
from bolt.formats.topics import Topic
from evaluation.judgments import META_KEY, JudgedSource, Judgment, dumps_judgment, read_judgments
from evaluation.judgments.reuse import (FACETS_BY_KEY, JUDGED_BY_KEY, TEXT_KEY, bullet_key, judged_by, struck_extra,
                                        struck_words, support_fields)
from evaluation.workbench.decision import Decision
from evaluation.workbench.pool import PoolItem
from indexing.atomic import atomic_open, atomic_write_text

Line = tuple[tuple[str, str, int], str]  # (topic, run, bullet), the serialised judgment


class JudgmentsFile:
    """One person's judgments file; ``items`` and ``topics`` are the session's own (kept current by it)."""

    def __init__(self, out: Path, assessor: str, items: dict[str, PoolItem], topics: dict[str, Topic]) -> None:
        self.out = out
        self.assessor = assessor
        self.items = items
        self.topics = topics
        self.kept: list[Judgment] = []  # lines of the file that are not about this pool
        self.saves = 0
        self.stale = 0  # lines moved aside because their run now has another bullet there
        self.stale_path = out.with_name(out.stem + ".stale.jsonl")
        self._lines: dict[str, list[Line]] = {}  # serialised judgments per item
        self._kept_lines: list[Line] | None = None

    def resume(self, runs: list[Run], by_key: dict[Any, PoolItem], adopt: Callable[[PoolItem, Judgment], None]) -> None:
        """Read back an earlier session's judgments (same --out): nothing a person did is lost.

        A decision is found again by its bullet text (``adopt`` takes it), wherever the runs now put
        that bullet. A line about a run of this session whose bullet at that position now says
        something else is stale (the run was made again): it moves to ``OUT.stale.jsonl``, never left
        to score another text. Lines about other runs or topics are kept as they are.
        """
        if not self.out.exists():
            return
        now = {(r.run_id, res.topic_id, b.position): b.text for r in runs for res in r for b in res.bullets}
        run_ids = {r.run_id for r in runs}
        stale: list[Judgment] = []
        for j in read_judgments(self.out):
            text = j.extra.get(TEXT_KEY)
            item = None
            if isinstance(text, str) and not j.assessor.startswith("auto:"):
                item = by_key.get(bullet_key(j.topic_id, text))
            if item is not None:
                adopt(item, j)
                if any(o.run == j.run for o in item.occurrences):
                    continue  # written again from the decision, at the bullet's position in the run now
            current = now.get((j.run, j.topic_id, j.bullet))
            if isinstance(text, str) and j.run in run_ids and (
                    current is None or bullet_key(j.topic_id, current) != bullet_key(j.topic_id, text)):
                stale.append(j)
            else:
                self.kept.append(j)
        if stale:
            self.stale = len(stale)
            old = self.stale_path.read_text(encoding="utf-8") if self.stale_path.exists() else ""
            atomic_write_text(self.stale_path, old + "".join(dumps_judgment(j) + "\n" for j in stale))

    def changed(self, item_id: str | None = None) -> None:
        """Forget the serialised lines of one item (None: of every item, e.g. when facet order changes)."""
        if item_id is None:
            self._lines.clear()
        else:
            self._lines.pop(item_id, None)

    def judgments(self, decisions: dict[str, Decision]) -> list[Judgment]:
        """Every decided bullet as one judgment per (topic, run, bullet), plus the kept lines."""
        out = [j for item_id, d in decisions.items() for j in self.item_judgments(item_id, d)]
        written = {j.key for j in out}
        out += [j for j in self.kept if j.key not in written]
        out.sort(key=lambda j: (j.topic_id, j.run, j.bullet))
        return out

    def item_judgments(self, item_id: str, d: Decision) -> list[Judgment]:
        """One judgment per run position that gave this pooled bullet."""
        item = self.items[item_id]
        topic = self.topics[item.topic]
        order = {f.id: i for i, f in enumerate(topic.facets)}
        facets = tuple(sorted(d.facets, key=lambda f: order.get(f, len(order))))
        words, responsive = struck_words(item.text, d.struck)
        extra: dict[str, Any] = {**struck_extra(item.text, d.struck), JUDGED_BY_KEY: judged_by(d.labels()),
                                 "complete": d.confirmed}
        if d.facets_by != "human":
            extra[FACETS_BY_KEY] = d.facets_by
        if d.reused_from is not None:
            extra["reused_from"] = d.reused_from
        ids = {(s.thread, o): s for s in item.sources for o in s.offsets}
        out = []
        for occ in item.occurrences:
            sources = []
            for thread, offset in occ.sources:
                s = ids[(thread, offset)]
                decided = s.id in d.supports
                by = d.supports_by.get(s.id, "human")
                supports, grade = support_fields(d.supports.get(s.id, False))
                sources.append(JudgedSource(thread, offset, s.post_id, supports, None,
                                            ({} if by == "human" else {JUDGED_BY_KEY: by}) | grade if decided
                                            else {"decided": False}))
            out.append(Judgment(item.topic, occ.run, occ.position, self.assessor, facets, words,
                                responsive, tuple(sources), dict(extra)))
        return out

    def save(self, header: dict[str, Any], decisions: dict[str, Decision]) -> None:
        """Rewrite the file atomically; lines of unchanged bullets are serialised once."""
        lines: list[Line] = []
        for item_id, d in decisions.items():
            cached = self._lines.get(item_id)
            if cached is None:
                cached = self._lines[item_id] = [(j.key, dumps_judgment(j)) for j in self.item_judgments(item_id, d)]
            lines.extend(cached)
        if self._kept_lines is None:
            self._kept_lines = [(j.key, dumps_judgment(j)) for j in self.kept]
        written = {k for k, _ in lines}
        lines.extend(x for x in self._kept_lines if x[0] not in written)
        lines.sort(key=lambda x: x[0])
        with atomic_open(self.out) as fh:  # the layout of evaluation.judgments.write_judgments
            fh.write(json.dumps({META_KEY: header}, ensure_ascii=False, sort_keys=True) + "\n")
            fh.writelines(line + "\n" for _, line in lines)
        self.saves += 1
