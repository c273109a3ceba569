"""What the judging page shows: per topic the bullets still to judge, their cited posts, and progress.

Post texts do not change during a session, so each topic's static part (bullets with their
cited posts, blind to runs) is built once; a bullet's decision is added at each request.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evaluation.judgments.reuse import struck_words
from evaluation.workbench.decision import BadInput
from evaluation.workbench.pool import PoolItem
from evaluation.workbench.posts import post_view

if TYPE_CHECKING:  # pragma: no cover
    from bolt.formats.topics import Topic
    from evaluation.workbench.session import JudgingSession


class PageViews:
    """The page's data, read from a session's state (the session holds its lock while these run)."""

    def __init__(self, session: "JudgingSession") -> None:
        self.session = session
        self._views: dict[str, list[dict]] = {}
        self._post_views: dict[str, list[dict]] = {}

    def visible(self, item: PoolItem) -> bool:
        """Shown on the page unless an earlier session's decision covers it completely (or, when
        adjudicating, unless the two assessors agree on it or neither judged it)."""
        s = self.session
        if s.disputed is not None and item.id not in s.disputed:
            return False
        d = s.decisions.get(item.id)
        return not (d is not None and d.reused_from is not None and d.confirmed)

    def shown(self, number: str) -> list[PoolItem]:
        return [it for it in self.session.pool.get(number, []) if self.visible(it)]

    def done(self, item: PoolItem) -> bool:
        d = self.session.decisions.get(item.id)
        return d is not None and d.confirmed

    def progress(self, number: str) -> dict[str, int]:
        shown = self.shown(number)
        return {"total": len(shown), "done": sum(1 for it in shown if self.done(it))}

    def topic(self, number: str) -> "Topic":
        topic = self.session.by_number.get(number)
        if topic is None:
            raise BadInput(f"no topic {number!r} in this session")
        return topic

    def state(self, item: PoolItem) -> dict[str, Any]:
        """A bullet's decision as the page shows it, with its word counts."""
        d = self.session.decisions.get(item.id)
        words, responsive = struck_words(item.text, d.struck if d is not None else ())
        if d is None:
            return {"decision": None, "words": words, "responsive_words": responsive}
        return {"decision": {"facets": sorted(d.facets), "struck": [list(s) for s in d.struck],
                             "supports": d.supports, "confirmed": d.confirmed,
                             "carried": d.reused_from is not None},
                "words": words, "responsive_words": responsive}

    def overview(self) -> dict[str, Any]:
        s = self.session
        topics = []
        for t in s.topics:
            items = s.pool.get(t.topic_id, [])
            shown = [it for it in items if self.visible(it)]
            topics.append({"number": t.topic_id, "query": t.query, "total": len(shown),
                           "done": sum(1 for it in shown if self.done(it)),
                           "carried": len(items) - len(shown)})
        return {"assessor": s.assessor, "topics": topics, "out": s.out.name,
                "updated_topics": s.updated_topics.name, "prefill": bool(s.prefill),
                "adjudicating": [a.name for a in s.adjudicating]}

    def topic_view(self, number: str) -> dict[str, Any]:
        s = self.session
        topic = self.topic(number)
        items = self.shown(number)
        if number not in self._views:  # post texts do not change: build them once per topic
            self._views[number] = [self._static_item(it) for it in s.pool.get(number, [])]
        static = {v["id"]: v for v in self._views[number]}
        original = {f.id for t in s.original_topics if t.topic_id == number for f in t.facets}
        return {"number": topic.topic_id, "query": topic.query, "description": topic.description,
                "facets": [{"id": f.id, "importance": f.importance, "desc": f.desc,
                            "nuggets": [n.text for n in f.nuggets], "added": f.id not in original}
                           for f in topic.facets],
                "items": [{**static[it.id], **self.state(it)} for it in items],
                "carried": len(s.pool.get(number, [])) - len(items)}

    def _static_item(self, item: PoolItem) -> dict[str, Any]:
        s = self.session
        sources = []
        for src in item.sources:
            thread = s.corpus.get(src.thread)
            view = post_view(thread, src.offsets, item.text) if thread is not None else {
                "thread": src.thread, "post": None, "segments": [], "dir": "auto", "lang": "",
                "missing": "this thread is not in the collection given to bolt judge"}
            sources.append({"id": src.id, **view})  # blind: neither run names nor how many runs gave it
        view = {"id": item.id, "text": item.text, "sources": sources, "prefill": s.prefill.get(item.id)}
        if s.adjudicating:
            from evaluation.workbench.adjudicate import opinion

            view["opinions"] = [opinion(item, a) for a in s.adjudicating]
        return view

    def posts_view(self, number: str) -> dict[str, Any]:
        """The topic's cited posts, one at a time, each with every shown bullet citing it (in pool order).

        The same post recurs across bullets; judging its support for all of them at once reads it
        once (the RAGTIME annotation tool's way). Decisions are the same ``support`` operations.
        """
        self.topic(number)
        items = self.shown(number)
        key = f"{number}\x00" + ",".join(it.id for it in items)
        if key not in self._post_views:
            by_post: dict[str, list[tuple[PoolItem, Any]]] = {}
            for it in items:
                for src in it.sources:
                    by_post.setdefault(src.id, []).append((it, src))
            posts = []
            for sid, cited in by_post.items():
                s0 = cited[0][1]
                thread = self.session.corpus.get(s0.thread)
                pairs = [(o, it.text) for it, src in cited for o in src.offsets]
                view = post_view(thread, tuple(o for o, _ in pairs), tuple(t for _, t in pairs)) \
                    if thread is not None else {"thread": s0.thread, "post": None, "segments": [],
                                                "missing": "this thread is not in the collection"}
                view.pop("before", None)
                posts.append({"id": sid, **view, "items": [it.id for it, _ in cited]})
            self._post_views[key] = posts
        return {"number": number, "posts": self._post_views[key]}
