"""The stages every system shares, and :class:`Distiller`, which runs one system over an open index.

Shared stages: query plan (translation), per-language passage retrieval (with cross-language
feedback), thread and sentence caches, per-stage timings. One class per system uses them:
:class:`bolt.pipeline.main.MainSystem` (``main``, the baseline to beat) and the references
:class:`bolt.pipeline.reference_systems.LeadSystem` (``lead``) and
:class:`bolt.pipeline.reference_systems.Bm25SentencesSystem` (``bm25-sentences``).
"""
from __future__ import annotations

import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bolt.pipeline.candidates import CandidatePost, Sentence, candidate_posts, post_sentences
from bolt.pipeline.config import SystemConfig
from bolt.pipeline.informative import is_question
from bolt.pipeline.anchors import feedback_anchors
from bolt.pipeline.scoring import matched_concepts
from bolt.pipeline.text import length_estimate
from bolt.pipeline.translate import QueryPlan, plan_query, with_feedback

LANG_ORDER = ("eng", "arz", "cmn")
#: The system classes by name, filled in by ``bolt.pipeline.main`` and ``reference_systems`` when they are
#: imported (``bolt.pipeline`` imports both), so this module never imports them back.
SYSTEM_CLASSES: dict[str, type] = {}

STAGES = ("translate", "retrieve", "sentences", "score", "embed", "cluster", "select")


@dataclass(frozen=True, slots=True)
class DistilledBullet:
    """A bullet before it becomes a submission record: text, (thread, raw offset) citations, score."""

    text: str
    sources: tuple[tuple[str, int], ...]
    score: float
    lang: str
    gloss: str | None = None


class Distiller:
    """Runs one system over queries against an open index; keeps per-stage timings in ``timings``."""

    def __init__(self, searcher, corpus, config: SystemConfig | None = None,
                 translator: Callable[[str, str], str] | None = None, thread_cache: int = 512) -> None:
        self.searcher = searcher
        self.corpus = corpus
        self.config = config or SystemConfig()
        self.translator = translator
        self.timings: dict[str, float] = {s: 0.0 for s in STAGES}
        self._threads: OrderedDict = OrderedDict()
        self._thread_sents: dict[tuple[str, str], list[Sentence]] = {}
        self._thread_cache = thread_cache
        self._system = None
        self._names: dict | None = None
        self._tables: dict | None = None
        self._stored: dict = {}
        langs = tuple(getattr(searcher, "langs", None) or LANG_ORDER)
        self.langs = tuple(lg for lg in LANG_ORDER if lg in langs) + tuple(sorted(set(langs) - set(LANG_ORDER)))

    def has_vectors(self, key: str) -> bool:
        """Whether the index holds a vector table ``key`` (an encoder's folder name)."""
        if self._tables is None:
            from indexing.vectors.table import open_tables

            store = getattr(self.corpus, "store", None)
            self._tables = open_tables(Path(store.path).parent) if hasattr(store, "raw_texts") else {}
        return key in self._tables

    def with_vectors(self, encoder, key: str):
        """``encoder`` reading the index's table ``key`` first when the index has one
        (:class:`indexing.vectors.stored.StoredEncoder`), else ``encoder`` itself (threads held in memory)."""
        if not self.has_vectors(key):
            return encoder
        table = self._tables[key]
        if key not in self._stored:
            from indexing.vectors.stored import StoredEncoder

            self._stored[key] = StoredEncoder(encoder, table)
        return self._stored[key]

    @property
    def encoded_here(self) -> int:
        """How many distinct texts the stages encoded in this process beyond the index's vectors."""
        return sum(s.encoded for s in self._stored.values())

    @contextmanager
    def stage(self, name: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0

    def thread(self, thread_id: str):
        th = self._threads.get(thread_id)
        if th is None:
            th = self.corpus.get(thread_id)
            self._threads[thread_id] = th
            if len(self._threads) > self._thread_cache:
                self._threads.popitem(last=False)
        else:
            self._threads.move_to_end(thread_id)
        return th

    def thread_sentences(self, thread_id: str, lang: str) -> list[Sentence]:
        """Every sentence of a thread's own text, questions and short lines included.

        What the thread as a whole says, for judging whether it is about the query: the opening
        post's question usually states the topic best, yet it is never a bullet, and the posts
        that answer it may not have been retrieved.
        """
        key = (thread_id, lang)
        out = self._thread_sents.get(key)
        if out is None:
            th = self.thread(thread_id)
            out = []
            for rank, post in enumerate(th.posts if th is not None else ()):
                out.extend(post_sentences(th, CandidatePost(thread_id, post.id, lang, 0.0, rank, 0.0),
                                          self.config.clause_limits()))
            self._thread_sents[key] = out
            if len(self._thread_sents) > self._thread_cache:
                self._thread_sents.pop(next(iter(self._thread_sents)))
        return out

    def thread_concepts(self, plan: QueryPlan, thread_id: str, lang: str) -> frozenset[str]:
        """The query concepts the thread expresses anywhere: headline or any sentence of any post."""
        th = self.thread(thread_id)
        texts = self.thread_sentences(thread_id, lang)
        head = Sentence(thread_id, "", lang, 0, 0, th.headline if th is not None else "", 0, 0.0, 0)
        return frozenset().union(*matched_concepts(plan, [head, *texts]))

    # -- shared stages -------------------------------------------------------------------------
    def plan(self, query: str) -> QueryPlan:
        with self.stage("translate"):
            main = self.config.name == "main"  # the references keep the lexicons' translation alone
            return plan_query(query, self.langs, translate=self.config.translate,
                              names=self.name_guessers() if main else None,
                              cmn_names=main and self.config.cmn_names)

    def name_guessers(self) -> dict:
        """With ``translit``: per language, the guesser of a collection word for an untranslated
        name (Arabic: consonant skeletons over the index's Arabic vocabulary, built once)."""
        if not (self.config.translit and self.config.translate and "arz" in self.langs):
            return {}
        if self._names is None:
            from bolt.pipeline.transliterate import ArabicNames
            from indexing.vocabulary import thread_frequencies

            self._names = {"arz": ArabicNames(thread_frequencies(self.corpus, "arz")).forms}
        return self._names

    def retrieve(self, plan: QueryPlan, units: str = "passage") -> list[CandidatePost]:
        with self.stage("retrieve"):
            posts: list[CandidatePost] = []
            for lang in self.langs:
                q = plan.query_for(lang).strip()
                k = self.config.k_for(lang)
                if not q or k == 0:
                    continue
                hits = self.searcher.search(q, k=k, lang=lang, units=units)
                posts.extend(candidate_posts(hits, lang))
            return posts

    def retrieve_with_feedback(self, plan: QueryPlan) -> tuple[QueryPlan, list[CandidatePost]]:
        """English first; its best passages' shared numbers and names then join the other languages' queries.

        Returns the plan with those feedback anchors, and the candidate posts of every language.
        """
        cfg = self.config
        if not cfg.translate or cfg.prf_passages <= 0 or "eng" not in self.langs or cfg.k_eng <= 0:
            return plan, self.retrieve(plan)
        with self.stage("retrieve"):
            hits = self.searcher.search(plan.query_for("eng"), k=cfg.k_eng, lang="eng", units="passage")
            eng = candidate_posts(hits, "eng")
            texts, seen = [], set()
            for h in hits:  # the best passage of each of the first ``prf_passages`` posts
                if getattr(h, "quoted", False) or (h.thread, h.post) in seen:
                    continue
                seen.add((h.thread, h.post))
                texts.append(h.text)
                if len(texts) >= cfg.prf_passages:
                    break
            exclude = [c.word for c in plan.concepts] + list(plan.anchors)
            plan = with_feedback(plan, feedback_anchors(texts, exclude, cfg.prf_min_df, cfg.prf_terms))
        others = self.retrieve(plan_without(plan, "eng"))
        return plan, eng + others

    def sentences(self, posts: list[CandidatePost], filtered: bool = True,
                  questions: bool = True) -> list[Sentence]:
        cfg = self.config
        pasted = cfg.pasted_quotes and cfg.name == "main"  # the references read posts as they were
        with self.stage("sentences"):
            out = []
            for cand in posts:
                th = self.thread(cand.thread)
                if th is None:
                    continue
                for s in post_sentences(th, cand, cfg.clause_limits(), pasted):
                    n = length_estimate(s.text, s.lang)
                    if filtered and not (cfg.min_words <= n <= cfg.max_words):
                        continue
                    if not questions and is_question(s.text):
                        continue
                    out.append(s)
            return out

    def gloss(self, s: Sentence) -> str | None:
        if self.translator is None or s.lang == "eng":
            return None
        return self.translator(s.text, s.lang)

    # -- systems -------------------------------------------------------------------------------
    @property
    def system(self):
        """The configured system (one class per system: :data:`SYSTEM_CLASSES`), made once."""
        if self._system is None:
            self._system = SYSTEM_CLASSES[self.config.name](self)
        return self._system

    def distill(self, query: str) -> list[DistilledBullet]:
        """Run the configured system on one query."""
        return self.system.distill(query)


def plan_without(plan: QueryPlan, lang: str) -> QueryPlan:
    """The plan with an empty query for ``lang`` (that language is not searched again)."""
    from dataclasses import replace

    return replace(plan, queries=tuple((lg, "" if lg == lang else q) for lg, q in plan.queries))


def sentence_key(s: Sentence) -> tuple:
    """Tie-break order of sentences: thread, then raw offset (deterministic output)."""
    return (s.thread, s.offset)
