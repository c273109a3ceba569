"""One person's judging session: the pool, their decisions, and the files that hold them.

Every decision is applied under one lock and the whole judgments file is rewritten atomically
before the request returns, so two tabs writing at once lose nothing and double nothing (each
request is an operation, "tick facet 2", not a copy of the tab's stale state), and a crash or a
closed tab loses at most the request in flight. Starting again with the same ``--out`` reads the
file back and resumes. Lines of that file that are not about this pool are kept as they are.

Facets a person adds go to an updated topics file beside the judgments (SPEC §3), never into them.
"""
from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from bolt import __version__
from bolt.formats.submission import Run
from bolt.formats.topics import Facet, Nugget, Topic, add_facets, find_nugget_offsets, nugget_resolves, read_topics
from evaluation.judgments import META_KEY, JudgedSource, Judgment, dumps_judgment, read_header, read_judgments
from evaluation.metrics.facts import unit_key
from evaluation.workbench.pool import PoolItem, build_pool
from evaluation.workbench.posts import post_view
from evaluation.judgments.reuse import (FACETS_BY_KEY, JUDGED_BY_KEY, STRUCK_KEY, TEXT_KEY, ReuseIndex, bullet_key,
                                        judged_by, merge_spans, struck_extra, struck_spans, struck_words,
                                        support_fields, support_verdict)
from indexing.atomic import atomic_open, atomic_write_text
from indexing.encoding import MANIFEST_KEY, STRICT
from indexing.errors import ToolkitError
from indexing.textfacts import WORDS_VERSION

IMPORTANCE = ("vital", "okay")
MAX_FACET_CHARS = 2000


class BadInput(ValueError):
    """A request the session refuses; the message says what was wrong (shown on the page)."""


@dataclass
class Decision:
    """A person's decision about one pooled bullet (its facets, struck spans, support per source).

    Each verdict says who made it (``reuse.VERDICT_BY``): ``facets_by`` for the facets, ``supports_by``
    per source. A verdict pre-set from ``--prefill`` stays the machine's until the person decides that
    verdict (or presses Done, which makes every verdict shown ``machine-confirmed``).
    """

    facets: set[str] = field(default_factory=set)
    struck: tuple[tuple[int, int], ...] = ()
    supports: dict[str, bool | str] = field(default_factory=dict)  # PooledSource.id -> True, False, "partial"
    confirmed: bool = False
    reused_from: str | None = None  # "FILE:LINE" while the decision is carried over unchanged
    updated: float = 0.0
    facets_by: str = "human"
    supports_by: dict[str, str] = field(default_factory=dict)  # PooledSource.id -> who, when not "human"

    def confirm(self) -> None:
        """Done pressed: every verdict the machine pre-set is now accepted by the person."""
        self.confirmed = True
        if self.facets_by == "machine":
            self.facets_by = "machine-confirmed"
        self.supports_by = {k: "machine-confirmed" if v == "machine" else v for k, v in self.supports_by.items()}

    def labels(self) -> list[str]:
        """Who made each verdict: the facets, each decided source, the struck words (a person's)."""
        return [self.facets_by, *(self.supports_by.get(k, "human") for k in self.supports),
                *(["human"] if self.struck else [])]


def hold_out_file(out: str | os.PathLike):
    """Take the lock that keeps a second ``bolt judge`` off the same judgments file.

    Two servers rewriting one file would each drop the other's decisions, so the second one is
    refused while the first runs. The lock (``OUT.lock``, flock) goes when the process ends, even
    after a crash. Returns the open lock file, to keep for the session's lifetime.
    """
    path = Path(out).with_name(Path(out).name + ".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = open(path, "a+", encoding="utf-8")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, as before
        return fh
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.seek(0)
        owner = fh.read().strip() or "another process"
        fh.close()
        raise ToolkitError(f"another bolt judge ({owner}) is writing these judgments", file=str(out),
                           hint="use that session's page (two sessions on one file would undo each other), "
                                "or give this one another --out") from None
    fh.seek(0)
    fh.truncate()
    fh.write(f"pid {os.getpid()}\n")
    fh.flush()
    return fh


def file_assessor(out: str | os.PathLike) -> str | None:
    """The assessor named in the header of an existing judgments file (None: no file or no name).

    A file is one person's: resuming it under another name would relabel every line and reorder
    the pool (the order is per assessor), so ``bolt judge`` resumes as this name or refuses.
    """
    path = Path(out)
    if not path.exists():
        return None
    name = (read_header(path) or {}).get("assessor")
    return name if isinstance(name, str) and name else None


def updated_topics_path(out: str | os.PathLike) -> Path:
    """Where added facets go: ``JUDGMENTS.topics.xml`` beside ``JUDGMENTS.jsonl``."""
    p = Path(out)
    return p.with_name(p.stem + ".topics.xml")


class JudgingSession:
    """The state behind the page. Thread-safe: every public method takes the session lock."""

    def __init__(self, *, topics_path: str | os.PathLike, runs: list[Run], corpus, out: str | os.PathLike,
                 assessor: str, prefill: Iterable[Judgment] = (), reuse: ReuseIndex | None = None,
                 adjudicate: list | None = None) -> None:
        self.lock = threading.Lock()
        self.out = Path(out)
        self.assessor = assessor if assessor.startswith("human:") else f"human:{assessor}"
        owner = file_assessor(self.out)
        if owner is not None and owner != self.assessor:
            raise ToolkitError(f"these judgments are {owner}'s, not {self.assessor}'s", file=str(self.out),
                               hint=f"leave out --assessor (or give --assessor {owner.removeprefix('human:')}) to "
                                    "go on as its assessor, or give your own --out")
        self.topics_path = Path(topics_path)
        self.updated_topics = updated_topics_path(out)
        self.original_topics = read_topics(self.topics_path)
        self.topics = self._load_topics()
        self.by_number = {t.topic_id: t for t in self.topics}
        self.runs = runs
        self.corpus = corpus
        self.pool = build_pool(runs, corpus, [t.topic_id for t in self.topics], seed=self.assessor)
        self.items: dict[str, PoolItem] = {it.id: it for items in self.pool.values() for it in items}
        self.by_key = {it.key: it for it in self.items.values()}
        self.decisions: dict[str, Decision] = {}
        self.verdict_label = "human"  # what a verdict decided on this page is marked as (reuse.VERDICT_BY)
        self.kept: list[Judgment] = []  # lines of --out that are not about this pool
        self.prefill: dict[str, dict[str, Any]] = {}
        self.saves = 0
        self.lock_file = None  # the open OUT.lock (see hold_out_file), kept while the session lives
        self._lines: dict[str, list[tuple[tuple[str, str, int], str]]] = {}  # serialised judgments per item
        self._kept_lines: list[tuple[tuple[str, str, int], str]] | None = None
        self.stale = 0  # lines of --out moved aside because their run now has another bullet there
        self.stale_path = self.out.with_name(self.out.stem + ".stale.jsonl")
        self._views: dict[str, list[dict]] = {}
        self._post_views: dict[str, list[dict]] = {}
        self.adjudicating = list(adjudicate or [])  # adjudicate.Assessor x 2, when adjudicating
        self.disputed: set[str] | None = None  # ids of the bullets to adjudicate (None: not adjudicating)
        self._resume()
        self.carried = self._reuse(reuse) if reuse is not None else 0
        if self.adjudicating:
            self._start_adjudication()
        self._prefill(prefill)

    # ------------------------------------------------------------------------ loading

    def _load_topics(self) -> list[Topic]:
        """The topics with any facets added earlier (the updated topics file, when it exists)."""
        if not self.updated_topics.exists():
            return list(self.original_topics)
        updated = read_topics(self.updated_topics)
        have = {t.topic_id for t in updated}
        missing = [t.topic_id for t in self.original_topics if t.topic_id not in have]
        if missing:
            raise ToolkitError(f"the updated topics file lacks topic {missing[0]} of {self.topics_path}",
                               file=str(self.updated_topics),
                               hint="pass the topics file this session started from, or move the updated file away")
        return updated

    def _resume(self) -> None:
        """Read back an earlier session's judgments (same --out): nothing a person did is lost.

        A decision is found again by its bullet text, wherever the runs now put that bullet. A line
        about a run of this session whose bullet at that position now says something else is stale
        (the run was made again): it moves to ``OUT.stale.jsonl``, never left to score another text.
        Lines about other runs or topics are kept as they are.
        """
        if not self.out.exists():
            return
        now = {(r.run_id, res.topic_id, b.position): b.text for r in self.runs for res in r for b in res.bullets}
        run_ids = {r.run_id for r in self.runs}
        stale: list[Judgment] = []
        for j in read_judgments(self.out):
            text = j.extra.get(TEXT_KEY)
            item = None
            if isinstance(text, str) and not j.assessor.startswith("auto:"):
                item = self.by_key.get(bullet_key(j.topic_id, text))
            if item is not None:
                self._adopt(item, j)
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

    def _adopt(self, item: PoolItem, j: Judgment) -> None:
        d = self.decisions.get(item.id)
        if d is None:
            d = self.decisions[item.id] = Decision(
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

    def _reuse(self, index: ReuseIndex) -> int:
        """Carry earlier human decisions over; returns how many bullets need nothing more."""
        done = 0
        for item in self.items.values():
            if item.id in self.decisions:
                continue
            human = index.get(item.topic, item.text)
            if human is None:
                continue
            supports = {s.id: human.supports[s.key] for s in item.sources if s.key in human.supports}
            complete = len(supports) == len(item.sources)
            struck = human.struck if all(e <= len(item.text) for _, e in human.struck) else ()
            self.decisions[item.id] = Decision(set(human.facets), struck, supports, complete, human.origin)
            done += complete
        return done

    def _start_adjudication(self) -> None:
        """Carry over what both assessors decided alike; show only the bullets they disagree on."""
        from evaluation.workbench.adjudicate import split

        if len(self.adjudicating) != 2:
            raise ToolkitError("adjudication compares two assessors' files", hint="give --adjudicate A.jsonl B.jsonl")
        self.verdict_label = "adjudicated"
        agreed, self.disputed = split(self.items.values(), self.adjudicating)
        self.carried += self._reuse(agreed)

    def _prefill(self, judgments: Iterable[Judgment]) -> None:
        """Index the automatic assessor's judgments by pooled item (shown, never written as a person's)."""
        by_pos = {(j.topic_id, j.run, j.bullet): j for j in judgments}
        if not by_pos:
            return
        for item in self.items.values():
            for occ in item.occurrences:
                j = by_pos.get((item.topic, occ.run, occ.position))
                if j is None:
                    continue
                ids = {}
                for (post, offset), src in zip(occ.sources, j.sources):
                    for s in item.sources:
                        if s.thread == post and offset in s.offsets:
                            ids[s.id] = src.supports
                self.prefill[item.id] = {"facets": list(j.facets), "supports": ids, "words": j.words,
                                         "responsive_words": j.responsive_words, "assessor": j.assessor,
                                         "evidence": j.extra.get("evidence", []), "notes": j.extra.get("notes")}
                break

    # ------------------------------------------------------------------------ views

    def visible(self, item: PoolItem) -> bool:
        """Shown on the page unless an earlier session's decision covers it completely (or, when
        adjudicating, unless the two assessors agree on it or neither judged it)."""
        if self.disputed is not None and item.id not in self.disputed:
            return False
        d = self.decisions.get(item.id)
        return not (d is not None and d.reused_from is not None and d.confirmed)

    def overview(self) -> dict[str, Any]:
        with self.lock:
            topics = []
            for t in self.topics:
                items = self.pool.get(t.topic_id, [])
                shown = [it for it in items if self.visible(it)]
                topics.append({"number": t.topic_id, "query": t.query, "total": len(shown),
                               "done": sum(1 for it in shown if self._done(it)),
                               "carried": len(items) - len(shown)})
            return {"assessor": self.assessor, "topics": topics, "out": self.out.name,
                    "updated_topics": self.updated_topics.name, "prefill": bool(self.prefill),
                    "adjudicating": [a.name for a in self.adjudicating]}

    def topic_view(self, number: str) -> dict[str, Any]:
        with self.lock:
            topic = self._topic(number)
            items = [it for it in self.pool.get(number, []) if self.visible(it)]
            if number not in self._views:  # post texts do not change: build them once per topic
                self._views[number] = [self._static_item(it) for it in self.pool.get(number, [])]
            static = {v["id"]: v for v in self._views[number]}
            original = {f.id for t in self.original_topics if t.topic_id == number for f in t.facets}
            return {"number": topic.topic_id, "query": topic.query, "description": topic.description,
                    "facets": [{"id": f.id, "importance": f.importance, "desc": f.desc,
                                "nuggets": [n.text for n in f.nuggets], "added": f.id not in original}
                               for f in topic.facets],
                    "items": [{**static[it.id], **self._state(it)} for it in items],
                    "carried": len(self.pool.get(number, [])) - len(items)}

    def _static_item(self, item: PoolItem) -> dict[str, Any]:
        sources = []
        for s in item.sources:
            thread = self.corpus.get(s.thread)
            view = post_view(thread, s.offsets, item.text) if thread is not None else {
                "thread": s.thread, "post": None, "segments": [], "dir": "auto", "lang": "",
                "missing": "this thread is not in the collection given to bolt judge"}
            sources.append({"id": s.id, **view})  # blind: neither run names nor how many runs gave it
        view = {"id": item.id, "text": item.text, "sources": sources, "prefill": self.prefill.get(item.id)}
        if self.adjudicating:
            from evaluation.workbench.adjudicate import opinion

            view["opinions"] = [opinion(item, a) for a in self.adjudicating]
        return view

    def posts_view(self, number: str) -> dict[str, Any]:
        """The topic's cited posts, one at a time, each with every shown bullet citing it (in pool order).

        The same post recurs across bullets; judging its support for all of them at once reads it
        once (the RAGTIME annotation tool's way). Decisions are the same ``support`` operations.
        """
        with self.lock:
            self._topic(number)
            items = [it for it in self.pool.get(number, []) if self.visible(it)]
            key = f"{number}\x00" + ",".join(it.id for it in items)
            if key not in self._post_views:
                by_post: dict[str, list[tuple[PoolItem, Any]]] = {}
                for it in items:
                    for s in it.sources:
                        by_post.setdefault(s.id, []).append((it, s))
                posts = []
                for sid, cited in by_post.items():
                    s0 = cited[0][1]
                    thread = self.corpus.get(s0.thread)
                    pairs = [(o, it.text) for it, s in cited for o in s.offsets]
                    view = post_view(thread, tuple(o for o, _ in pairs), tuple(t for _, t in pairs)) \
                        if thread is not None else {"thread": s0.thread, "post": None, "segments": [],
                                                    "missing": "this thread is not in the collection"}
                    view.pop("before", None)
                    posts.append({"id": sid, **view, "items": [it.id for it, _ in cited]})
                self._post_views[key] = posts
            return {"number": number, "posts": self._post_views[key]}

    def _state(self, item: PoolItem) -> dict[str, Any]:
        d = self.decisions.get(item.id)
        words, responsive = struck_words(item.text, d.struck if d is not None else ())
        if d is None:
            return {"decision": None, "words": words, "responsive_words": responsive}
        return {"decision": {"facets": sorted(d.facets), "struck": [list(s) for s in d.struck],
                             "supports": d.supports, "confirmed": d.confirmed,
                             "carried": d.reused_from is not None},
                "words": words, "responsive_words": responsive}

    def _done(self, item: PoolItem) -> bool:
        d = self.decisions.get(item.id)
        return d is not None and d.confirmed

    def _topic(self, number: str) -> Topic:
        topic = self.by_number.get(number)
        if topic is None:
            raise BadInput(f"no topic {number!r} in this session")
        return topic

    # ------------------------------------------------------------------------ changes

    def apply(self, item_id: str, op: dict[str, Any]) -> dict[str, Any]:
        """Apply one operation to one bullet, save, and return the bullet's new state."""
        if not isinstance(item_id, str) or not isinstance(op, dict):
            raise BadInput("send {\"item\": ID, \"op\": {...}}")
        with self.lock:
            item = self.items.get(item_id)
            if item is None:
                raise BadInput(f"no bullet {item_id!r} in this session; reload the page")
            d = self.decisions.get(item.id)
            if d is None:
                pre = self.prefill.get(item.id)
                d = Decision(set(pre["facets"]), (), dict(pre["supports"]), facets_by="machine",
                             supports_by={k: "machine" for k in pre["supports"]}) if pre else \
                    Decision(facets_by=self.verdict_label)
            else:
                d = dataclasses.replace(d, facets=set(d.facets), supports=dict(d.supports),
                                        supports_by=dict(d.supports_by))
            self._change(item, d, op)
            d.reused_from = None  # a person touched it: it is theirs now
            d.updated = time.time()
            self.decisions[item.id] = d
            self._lines.pop(item.id, None)
            self._save()
            return {"id": item.id, **self._state(item), "progress": self._progress(item.topic)}

    def _change(self, item: PoolItem, d: Decision, op: dict[str, Any]) -> None:
        kind = op.get("op")
        topic = self.by_number[item.topic]
        if kind == "facet":
            fid, on = op.get("facet"), op.get("on")
            if not isinstance(fid, str) or topic.facet(fid) is None:
                raise BadInput(f"topic {item.topic} has no facet {fid!r}")
            if not isinstance(on, bool):
                raise BadInput("\"on\" must be true or false")
            (d.facets.add if on else d.facets.discard)(fid)
            d.facets_by = self.verdict_label
        elif kind == "strike":
            spans, on = struck_spans(op.get("spans"), item.text), op.get("on")
            if spans is None or not isinstance(on, bool):
                raise BadInput(f"strike needs \"spans\": [[start, end], ...] inside the bullet's "
                               f"{len(item.text)} characters and \"on\": true or false")
            if on:
                d.struck = merge_spans(d.struck + spans)
            else:
                keep = [i for s, e in d.struck for i in range(s, e) if not any(a <= i < b for a, b in spans)]
                d.struck = merge_spans((i, i + 1) for i in keep)
        elif kind == "support":
            sid, value = op.get("source"), op.get("value")
            if sid not in item.source_by_id:
                raise BadInput(f"this bullet cites no source {sid!r}")
            if value is None:
                d.supports.pop(sid, None)
            elif isinstance(value, bool) or value == "partial":
                d.supports[sid] = value
            else:
                raise BadInput("\"value\" must be true (supports), \"partial\", false (does not) or null (undecided)")
            d.supports_by.pop(sid, None)
            if value is not None and self.verdict_label != "human":
                d.supports_by[sid] = self.verdict_label
        elif kind == "take":
            self._take(item, d, op.get("from"))
        elif kind == "confirm":
            value = op.get("value", True)
            if not isinstance(value, bool):
                raise BadInput("\"value\" must be true or false")
            if value:
                d.confirm()
            else:
                d.confirmed = False
        else:
            raise BadInput(f"unknown operation {kind!r}; use facet, strike, support, take or confirm")

    def _take(self, item: PoolItem, d: Decision, which: Any) -> None:
        """Adjudication: start from one assessor's decision (every verdict then the adjudicator's)."""
        from evaluation.workbench.adjudicate import opinion

        if not self.adjudicating or which not in (0, 1):
            raise BadInput("\"take\" copies assessor 0's or 1's decision, and only when adjudicating")
        view = opinion(item, self.adjudicating[which])
        if view is None:
            raise BadInput(f"{self.adjudicating[which].name} did not finish this bullet; decide it yourself")
        topic = self.by_number[item.topic]
        d.facets = {f for f in view["facets"] if topic.facet(f) is not None}
        d.struck = tuple((s, e) for s, e in view["struck"])
        d.supports = dict(view["supports"])
        d.facets_by = self.verdict_label
        d.supports_by = {k: self.verdict_label for k in d.supports}

    def add_facet(self, number: str, desc: Any, importance: Any, nugget: Any = None) -> dict[str, Any]:
        """Add a facet to a topic and write the updated topics file; returns the new facet."""
        if not isinstance(desc, str) or not desc.strip():
            raise BadInput("a new facet needs a description")
        if len(desc) > MAX_FACET_CHARS:
            raise BadInput(f"a facet description holds at most {MAX_FACET_CHARS} characters")
        if importance not in IMPORTANCE:
            raise BadInput("importance must be \"vital\" or \"okay\"")
        if nugget is not None and not isinstance(nugget, (str, dict)):
            raise BadInput("a nugget is text, or {\"text\", \"item\", \"source\"} for text selected in a cited post")
        desc = " ".join(desc.split())
        with self.lock:
            topic = self._topic(number)
            if any(" ".join(f.desc.split()).casefold() == desc.casefold() for f in topic.facets):
                raise BadInput("this topic already has a facet with that description")
            numeric = [int(f.id) for f in topic.facets if f.id.isdigit()]
            new_id = str(max(numeric, default=0) + 1)
            while topic.facet(new_id) is not None:
                new_id = str(int(new_id) + 1)
            nuggets = (self._nugget(nugget),) if nugget else ()
            facet = Facet(new_id, importance, desc, nuggets)
            updated = dataclasses.replace(topic, facets=topic.facets + (facet,))
            self.topics = [updated if t.topic_id == number else t for t in self.topics]
            self.by_number[number] = updated
            original = {t.topic_id: {f.id for f in t.facets} for t in self.original_topics}
            add_facets(self.topics_path, {t.topic_id: [f for f in t.facets if f.id not in original.get(t.topic_id, set())]
                                          for t in self.topics
                                          if any(f.id not in original.get(t.topic_id, set()) for f in t.facets)},
                       self.updated_topics)  # the original file, comments and all, with the facets added
            self._lines.clear()  # the header and facet order may change
            self._save()  # the header names the updated topics file
            return {"id": facet.id, "importance": facet.importance, "desc": facet.desc,
                    "nuggets": [n.text for n in facet.nuggets], "added": True}

    def _nugget(self, value: str | dict) -> Nugget:
        """A nugget from plain text, or from text selected in a cited post (then with thread and offset)."""
        text = value.get("text") if isinstance(value, dict) else value
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_FACET_CHARS:
            raise BadInput(f"a nugget is text of 1 to {MAX_FACET_CHARS} characters")
        text = " ".join(text.split())
        if not isinstance(value, dict):
            return Nugget(text)
        item = self.items.get(value.get("item"))  # type: ignore[arg-type]
        source = item.source_by_id.get(value.get("source")) if item is not None else None  # type: ignore[arg-type]
        if source is None:
            raise BadInput("the nugget's text must be selected in a post cited by a bullet of this session")
        thread = self.corpus.get(source.thread)
        post = thread.post_at(source.offsets[0]) if thread is not None else None
        spans = [sp for sp in find_nugget_offsets(thread, text) if thread.post_at(sp[0]) is post] if post else []
        if not spans:
            raise BadInput("the selected text was not found in that post; select it again")
        nugget = Nugget(text, thread.id, spans[0][0])
        if not nugget_resolves(thread, nugget):
            raise BadInput("the selected text cannot be cited at an offset of that post; select it again")
        return nugget

    def _progress(self, number: str) -> dict[str, int]:
        shown = [it for it in self.pool.get(number, []) if self.visible(it)]
        return {"total": len(shown), "done": sum(1 for it in shown if self._done(it))}

    # ------------------------------------------------------------------------ writing

    def judgments(self) -> list[Judgment]:
        """Every decided bullet as one judgment per (topic, run, bullet), plus the kept lines."""
        out = [j for item_id, d in self.decisions.items() for j in self._item_judgments(item_id, d)]
        written = {j.key for j in out}
        out += [j for j in self.kept if j.key not in written]
        out.sort(key=lambda j: (j.topic_id, j.run, j.bullet))
        return out

    def _item_judgments(self, item_id: str, d: Decision) -> list[Judgment]:
        """One judgment per run position that gave this pooled bullet."""
        item = self.items[item_id]
        topic = self.by_number[item.topic]
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

    def header(self) -> dict[str, Any]:
        # the word definition its counts follow, as evaluation.judgments.write_judgments stamps it
        return {"assessor": self.assessor, "tool": "bolt judge", "version": __version__, "words": WORDS_VERSION,
                "topics": str(self.updated_topics if self.updated_topics.exists() else self.topics_path),
                "runs": {r.run_id: r.path for r in self.runs},
                MANIFEST_KEY: getattr(self.corpus, "encoding_errors", STRICT),
                **({"adjudicates": [{"assessor": a.name, "file": a.path} for a in self.adjudicating]}
                   if self.adjudicating else {})}

    def _save(self) -> None:
        """Rewrite the judgments file atomically; lines of unchanged bullets are serialised once."""
        lines: list[tuple[tuple[str, str, int], str]] = []
        for item_id, d in self.decisions.items():
            cached = self._lines.get(item_id)
            if cached is None:
                cached = self._lines[item_id] = [(j.key, dumps_judgment(j)) for j in self._item_judgments(item_id, d)]
            lines.extend(cached)
        if self._kept_lines is None:
            self._kept_lines = [(j.key, dumps_judgment(j)) for j in self.kept]
        written = {k for k, _ in lines}
        lines.extend(x for x in self._kept_lines if x[0] not in written)
        lines.sort(key=lambda x: x[0])
        with atomic_open(self.out) as fh:  # the layout of evaluation.judgments.write_judgments
            fh.write(json.dumps({META_KEY: self.header()}, ensure_ascii=False, sort_keys=True) + "\n")
            fh.writelines(line + "\n" for _, line in lines)
        self.saves += 1

    def save(self) -> None:
        """Write the judgments file now (at start, so carried-over decisions are on disk at once)."""
        with self.lock:
            self._save()
