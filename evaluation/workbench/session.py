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
import os
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any, Iterable

from bolt import __version__
from bolt.formats.submission import Run
from bolt.formats.topics import IMPORTANCES, Facet, Topic, add_facets, read_topics
from evaluation.judgments import Judgment, read_header
from evaluation.judgments.reuse import ReuseIndex
from evaluation.workbench import carry
from evaluation.workbench.decision import BadInput, Decision
from evaluation.workbench.edits import MAX_FACET_CHARS, change, selected_nugget
from evaluation.workbench.judgments_file import JudgmentsFile
from evaluation.workbench.page import PageViews
from evaluation.workbench.pool import PoolItem, build_pool, sample_pool
from indexing.encoding import MANIFEST_KEY, STRICT
from indexing.errors import ToolkitError
from indexing.textfacts import WORDS_VERSION

__all__ = ["BadInput", "Decision", "JudgingSession", "file_assessor", "hold_out_file", "updated_topics_path"]


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
    """The state behind the page. Thread-safe: every public method takes the session lock.

    Its parts: the judgments file (``judgments_file``), the decisions it starts from (``carry``),
    the operations a page sends (``edits``) and what the page shows (``page``).
    """

    def __init__(self, *, topics_path: str | os.PathLike, runs: list[Run], corpus, out: str | os.PathLike,
                 assessor: str, prefill: Iterable[Judgment] = (), reuse: ReuseIndex | None = None,
                 adjudicate: list | None = None, sample: tuple[int, int] | None = None) -> None:
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
        self.pooled = sum(len(v) for v in self.pool.values())  # distinct bullets before any sampling
        if sample is not None:  # (n, seed): judge a random sample of the distinct bullets only
            self.pool = sample_pool(self.pool, *sample)
        self.items: dict[str, PoolItem] = {it.id: it for items in self.pool.values() for it in items}
        self.by_key = {it.key: it for it in self.items.values()}
        self.decisions: dict[str, Decision] = {}
        self.verdict_label = "human"  # what a verdict decided on this page is marked as (reuse.VERDICT_BY)
        self.file = JudgmentsFile(self.out, self.assessor, self.items, self.by_number)
        self.stale_path = self.file.stale_path
        self.lock_file = None  # the open OUT.lock (see hold_out_file), kept while the session lives
        self.page = PageViews(self)
        self.adjudicating = list(adjudicate or [])  # adjudicate.Assessor x 2, when adjudicating
        self.disputed: set[str] | None = None  # ids of the bullets to adjudicate (None: not adjudicating)
        self.file.resume(self.runs, self.by_key, partial(carry.adopt, self.decisions))
        self.carried = carry.carry_over(self.items.values(), self.decisions, reuse) if reuse is not None else 0
        if self.adjudicating:
            self._start_adjudication()
        self.prefill: dict[str, dict[str, Any]] = carry.prefill_views(self.items.values(), prefill)

    @property
    def saves(self) -> int:
        """How often the judgments file was written."""
        return self.file.saves

    @property
    def stale(self) -> int:
        """Lines of --out moved aside because their run now has another bullet there."""
        return self.file.stale

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

    def _start_adjudication(self) -> None:
        """Carry over what both assessors decided alike; show only the bullets they disagree on."""
        from evaluation.workbench.adjudicate import split

        if len(self.adjudicating) != 2:
            raise ToolkitError("adjudication compares two assessors' files", hint="give --adjudicate A.jsonl B.jsonl")
        self.verdict_label = "adjudicated"
        agreed, self.disputed = split(self.items.values(), self.adjudicating)
        self.carried += carry.carry_over(self.items.values(), self.decisions, agreed)

    # ------------------------------------------------------------------------ views

    def visible(self, item: PoolItem) -> bool:
        """Shown on the page unless an earlier decision covers it completely (``page.PageViews.visible``)."""
        return self.page.visible(item)

    def overview(self) -> dict[str, Any]:
        with self.lock:
            return self.page.overview()

    def topic_view(self, number: str) -> dict[str, Any]:
        with self.lock:
            return self.page.topic_view(number)

    def posts_view(self, number: str) -> dict[str, Any]:
        """The topic's cited posts, each with every shown bullet citing it (``page.PageViews.posts_view``)."""
        with self.lock:
            return self.page.posts_view(number)

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
            change(item, d, op, self.by_number[item.topic], self.verdict_label, self.adjudicating)
            d.reused_from = None  # a person touched it: it is theirs now
            d.updated = time.time()
            self.decisions[item.id] = d
            self.file.changed(item.id)
            self._save()
            return {"id": item.id, **self.page.state(item), "progress": self.page.progress(item.topic)}

    def add_facet(self, number: str, desc: Any, importance: Any, nugget: Any = None) -> dict[str, Any]:
        """Add a facet to a topic and write the updated topics file; returns the new facet."""
        if not isinstance(desc, str) or not desc.strip():
            raise BadInput("a new facet needs a description")
        if len(desc) > MAX_FACET_CHARS:
            raise BadInput(f"a facet description holds at most {MAX_FACET_CHARS} characters")
        if importance not in IMPORTANCES:
            raise BadInput("importance must be \"vital\" or \"okay\"")
        if nugget is not None and not isinstance(nugget, (str, dict)):
            raise BadInput("a nugget is text, or {\"text\", \"item\", \"source\"} for text selected in a cited post")
        desc = " ".join(desc.split())
        with self.lock:
            topic = self.page.topic(number)
            if any(" ".join(f.desc.split()).casefold() == desc.casefold() for f in topic.facets):
                raise BadInput("this topic already has a facet with that description")
            numeric = [int(f.id) for f in topic.facets if f.id.isdigit()]
            new_id = str(max(numeric, default=0) + 1)
            while topic.facet(new_id) is not None:
                new_id = str(int(new_id) + 1)
            nuggets = (selected_nugget(nugget, self.items, self.corpus),) if nugget else ()
            facet = Facet(new_id, importance, desc, nuggets)
            updated = dataclasses.replace(topic, facets=topic.facets + (facet,))
            self.topics = [updated if t.topic_id == number else t for t in self.topics]
            self.by_number[number] = updated
            original = {t.topic_id: {f.id for f in t.facets} for t in self.original_topics}
            add_facets(self.topics_path, {t.topic_id: [f for f in t.facets if f.id not in original.get(t.topic_id, set())]
                                          for t in self.topics
                                          if any(f.id not in original.get(t.topic_id, set()) for f in t.facets)},
                       self.updated_topics)  # the original file, comments and all, with the facets added
            self.file.changed()  # the header and facet order may change
            self._save()  # the header names the updated topics file
            return {"id": facet.id, "importance": facet.importance, "desc": facet.desc,
                    "nuggets": [n.text for n in facet.nuggets], "added": True}

    # ------------------------------------------------------------------------ writing

    def judgments(self) -> list[Judgment]:
        """Every decided bullet as one judgment per (topic, run, bullet), plus the kept lines."""
        return self.file.judgments(self.decisions)

    def header(self) -> dict[str, Any]:
        # the word definition its counts follow, as evaluation.judgments.write_judgments stamps it
        return {"assessor": self.assessor, "tool": "bolt judge", "version": __version__, "words": WORDS_VERSION,
                "topics": str(self.updated_topics if self.updated_topics.exists() else self.topics_path),
                "runs": {r.run_id: r.path for r in self.runs},
                MANIFEST_KEY: getattr(self.corpus, "encoding_errors", STRICT),
                **({"adjudicates": [{"assessor": a.name, "file": a.path} for a in self.adjudicating]}
                   if self.adjudicating else {})}

    def _save(self) -> None:
        """Rewrite the judgments file atomically (``judgments_file.JudgmentsFile.save``)."""
        self.file.save(self.header(), self.decisions)

    def save(self) -> None:
        """Write the judgments file now (at start, so carried-over decisions are on disk at once)."""
        with self.lock:
            self._save()
