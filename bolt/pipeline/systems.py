"""The three systems: ``main`` (the baseline to beat), and the references ``lead`` and ``bm25-sentences``.

``main``: translate the query (lexicons) -> per-language BM25 retrieval of passages -> candidate
posts -> own-text sentences with raw offsets -> score (concept BM25 + embedding cosine +
retrieval prior) -> cluster near-duplicates (one bullet per cluster, citing every post in it) ->
keep clusters scoring >= ``rel_threshold`` x best and >= ``abs_floor`` (at most ``max_bullets``).

``lead``: the first sentence of each of the top ``lead_posts`` posts. ``bm25-sentences``: the top
``max_bullets`` sentences by Okapi BM25, no de-duplication (beyond dropping a repeat of the
exact same text, which the submission format refuses). Both use the same retrieval as ``main``.
"""
from __future__ import annotations

import math
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

from bolt.pipeline.candidates import CandidatePost, Sentence, candidate_posts, post_sentences
from bolt.pipeline.config import SystemConfig
from bolt.pipeline.redundancy import cluster
from bolt.pipeline.scoring import bm25_scores, concept_scores, coverage_scores, matched_concepts
from bolt.pipeline.text import word_count
from bolt.pipeline.anchors import feedback_anchors, sentence_anchors
from bolt.pipeline.scoring import expressible
from bolt.pipeline.translate import QueryPlan, plan_query, with_feedback

LANG_ORDER = ("eng", "arz", "cmn")
QUESTION_MARKS = ("?", "؟", "？")
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
        langs = tuple(getattr(searcher, "langs", None) or LANG_ORDER)
        self.langs = tuple(lg for lg in LANG_ORDER if lg in langs) + tuple(sorted(set(langs) - set(LANG_ORDER)))

    @contextmanager
    def _stage(self, name: str):
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
                out.extend(post_sentences(th, CandidatePost(thread_id, post.id, lang, 0.0, rank, 0.0)))
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
        with self._stage("translate"):
            return plan_query(query, self.langs, translate=self.config.translate)

    def retrieve(self, plan: QueryPlan, units: str = "passage") -> list[CandidatePost]:
        with self._stage("retrieve"):
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
        with self._stage("retrieve"):
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

    def expand(self, posts: list[CandidatePost]) -> list[CandidatePost]:
        """Add every post of the ``expand_threads`` best threads per language.

        Forum threads stay on one subject, and later replies carry the facts without repeating
        the query's words (nor its names, in another script); their prior is the thread's best
        post score, halved.
        """
        n = self.config.expand_threads
        if n <= 0:
            return posts
        with self._stage("retrieve"):
            have = {(p.thread, p.post) for p in posts}
            best: dict[tuple[str, str], float] = {}
            for p in posts:
                key = (p.lang, p.thread)
                best[key] = max(best.get(key, 0.0), p.norm)
            out = list(posts)
            for lang in self.langs:
                threads = sorted(((-v, t) for (lg, t), v in best.items() if lg == lang))[:n]
                for negv, tid in threads:
                    th = self.thread(tid)
                    if th is None:
                        continue
                    for post in th.posts:
                        if (tid, post.id) not in have:
                            have.add((tid, post.id))
                            out.append(CandidatePost(tid, post.id, lang, 0.0, len(out), -negv * 0.5))
            return out

    def sentences(self, posts: list[CandidatePost], filtered: bool = True,
                  questions: bool = True) -> list[Sentence]:
        cfg = self.config
        with self._stage("sentences"):
            out = []
            for cand in posts:
                th = self.thread(cand.thread)
                if th is None:
                    continue
                for s in post_sentences(th, cand):
                    n = word_count(s.text, s.lang)
                    if filtered and not (cfg.min_words <= n <= cfg.max_words):
                        continue
                    if not questions and s.text.rstrip(" \"'”»)").endswith(QUESTION_MARKS):
                        continue
                    out.append(s)
            return out

    def _gloss(self, s: Sentence) -> str | None:
        if self.translator is None or s.lang == "eng":
            return None
        return self.translator(s.text, s.lang)

    # -- systems -------------------------------------------------------------------------------
    def distill(self, query: str) -> list[DistilledBullet]:
        name = self.config.name
        if name == "lead":
            return self.lead(query)
        if name == "bm25-sentences":
            return self.bm25_sentences(query)
        return self.main(query)

    def main(self, query: str) -> list[DistilledBullet]:
        cfg = self.config
        plan, posts = self.retrieve_with_feedback(self.plan(query))
        sents = self.sentences(self.expand(posts), questions=not cfg.drop_questions)
        if not sents:
            return []
        with self._stage("score"):
            matched = matched_concepts(plan, sents)
            lexical = concept_scores(plan, matched)
            coverage = coverage_scores(plan, sents, matched)
            thread_cov = self._thread_coverage(plan, sents)
        with self._stage("embed"):
            eligible = [i for i, s in enumerate(sents) if cfg.multilingual or s.lang == "eng"]
            eligible.sort(key=lambda i: (-(lexical[i] + sents[i].retrieval), _key(sents[i])))
            eligible = eligible[: cfg.embed_top]
            vectors: dict[int, object] = {}
            semantic: dict[int, float] = {}
            if eligible:
                from bolt.embedding import get_embedder

                emb = get_embedder(cfg.model)
                mat = emb.encode([sents[i].text for i in eligible])
                q = emb.encode([query])[0]
                for row, i in enumerate(eligible):
                    vectors[i] = mat[row]
                    semantic[i] = max(0.0, float(mat[row] @ q))
        with self._stage("score"):
            scores = []
            for i, s in enumerate(sents):
                # Without an embedding (Arabic/Chinese and an English-only model), the coverage of
                # the concepts the language can express stands in for the semantic half.
                base = cfg.w_lexical * lexical[i] + (1 - cfg.w_lexical) * coverage[i]
                if i in semantic:
                    base = cfg.w_lexical * lexical[i] + (1 - cfg.w_lexical) * semantic[i]
                scores.append((1 - cfg.w_retrieval - cfg.w_thread) * base + cfg.w_thread * thread_cov[s.thread]
                              + cfg.w_retrieval * s.retrieval)
        with self._stage("cluster"):
            order = sorted(range(len(sents)), key=lambda i: (-scores[i], _key(sents[i])))
            best = scores[order[0]]
            cut = max(cfg.abs_floor, cfg.rel_threshold * best)
            # Only sentences that could head or join a kept cluster are clustered.
            order = [i for i in order if scores[i] >= cfg.abs_floor * 0.5]
            clusters = cluster(order, sents, vectors, matched, cfg.dup_cosine, cfg.dup_jaccard,
                               cfg.dup_concepts)
        with self._stage("select"):
            above, extra = [], []
            per_lang: dict[str, int] = {}
            for c in clusters:  # best first
                head = sents[c.head]
                if head.lang != "eng" and not self._cross_language_evidence(plan, head, matched[c.head],
                                                                            thread_cov[head.thread]):
                    continue
                if scores[c.head] >= cut:
                    above.append(c)
                elif (head.lang != "eng" and per_lang.get(head.lang, 0) < cfg.lang_quota
                      and coverage[c.head] >= cfg.min_coverage and scores[c.head] >= cfg.abs_floor):
                    extra.append(c)
                else:
                    continue
                per_lang[head.lang] = per_lang.get(head.lang, 0) + 1
            extra = extra[: cfg.max_bullets // 2]
            keep = above[: max(0, cfg.max_bullets - len(extra))] + extra
            # thread-first picks share the non-English half of the budget with ``extra`` and take
            # the place of the lowest English bullets when the list is full
            first = self._thread_first(plan, posts, sents, scores, order, keep, matched)
            first = first[: max(0, cfg.max_bullets // 2 - len(extra))]
            if first:
                above = above[: max(0, cfg.max_bullets - len(extra) - len(first))]
                keep = above + extra + first
            keep.sort(key=lambda c: (-scores[c.head], _key(sents[c.head])))
            bullets = []
            for c in keep:
                head = sents[c.head]
                sources = [(head.thread, head.offset)]
                seen_posts = {(head.thread, head.post)}
                for m in sorted(c.members[1:], key=lambda i: _key(sents[i])):
                    s = sents[m]
                    if (s.thread, s.post) in seen_posts or len(sources) >= cfg.max_sources:
                        continue
                    seen_posts.add((s.thread, s.post))
                    sources.append((s.thread, s.offset))
                bullets.append(DistilledBullet(head.text, tuple(sources), round(scores[c.head], 6),
                                               head.lang, self._gloss(head)))
            return bullets

    def _thread_first(self, plan: QueryPlan, posts: list[CandidatePost], sents: list[Sentence],
                      scores: list[float], order: list[int], keep: list, matched: list) -> list:
        """Thread-first selection for Arabic and Chinese: one sentence from each of the ``xl_threads``
        best-retrieved threads of the language that cover the query (``xl_thread_coverage``) and
        have no bullet yet, the one whose back-translation shares the most weight with the query and
        the best English evidence (at least ``xl_min_concepts`` distinct terms).

        Replies answer without repeating the query, so their concept score is low; their words,
        mapped back to English, still meet the English evidence (numbers, names, key nouns).
        """
        from bolt.pipeline.backtranslate import gloss_bag
        from bolt.pipeline.redundancy import Cluster

        cfg = self.config
        if cfg.xl_threads <= 0 or not cfg.translate:
            return []
        with self._stage("score"):
            eng = [i for i in order if sents[i].lang == "eng"]
            bags = {i: gloss_bag(sents[i].text, "eng") for i in eng}
            evidence = {c.stem for c in plan.concepts} | {a.lower() for a in plan.anchors}
            for i in eng[: cfg.xl_evidence]:
                evidence |= bags[i]
            # a query word, an anchor, or a number of two or more digits that the English evidence states
            strong = ({c.stem for c in plan.concepts} | {a.lower() for a in plan.anchors}
                      | {t for t in evidence if t.isdigit() and len(t) >= 2})
            n = len(eng)
            df: dict[str, int] = {}
            for b in bags.values():
                for t in b & evidence:
                    df[t] = df.get(t, 0) + 1
            weight = {t: math.log((n + 1) / (df.get(t, 0) + 0.5)) for t in evidence}
            cited = {(sents[c.head].thread, sents[c.head].post) for c in keep}
            texts = {sents[c.head].text for c in keep}
            out = []
            for lang in self.langs:
                if lang == "eng":
                    continue
                best: dict[str, float] = {}
                for p in posts:
                    if p.lang == lang:
                        best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
                ranked = sorted(best, key=lambda t: (-best[t], t))[: cfg.xl_threads]
                for tid in ranked:
                    # the thread must speak of the query: its sentences and headline, read directly
                    # or back-translated, express at least ``xl_min_concepts`` distinct query concepts
                    idx = [i for i, s in enumerate(sents) if s.thread == tid]
                    th = self.thread(tid)
                    said = set(gloss_bag(th.headline, lang)) if th is not None else set()
                    said |= self.thread_concepts(plan, tid, lang)
                    for s in self.thread_sentences(tid, lang):
                        said |= gloss_bag(s.text, lang)
                    need = min(cfg.xl_min_concepts, sum(1 for c in plan.concepts if expressible(c, lang)) or 1)
                    if sum(1 for c in plan.concepts if c.stem in said) < need:
                        continue
                    pick, pick_key = None, None
                    for i in idx:
                        s = sents[i]
                        if s.text in texts or (s.thread, s.post) in cited:
                            continue
                        shared = gloss_bag(s.text, lang) & evidence
                        if len(shared) < max(1, cfg.xl_min_concepts) or shared.isdisjoint(strong):
                            continue
                        k = (-sum(weight[t] for t in shared), -scores[i], _key(s))
                        if pick_key is None or k < pick_key:
                            pick, pick_key = i, k
                    if pick is not None:
                        out.append(Cluster(pick, [pick]))
                        texts.add(sents[pick].text)
            return out

    def _cross_language_evidence(self, plan: QueryPlan, s: Sentence, matched: frozenset[str],
                                 thread_coverage: float = 0.0) -> bool:
        """A non-English sentence speaks of the query: enough distinct concepts, a shared anchor, or
        one concept in a thread that covers the query well (see ``SystemConfig``)."""
        if not plan.concepts:
            return True
        need = min(self.config.xl_min_concepts,
                   sum(1 for c in plan.concepts if expressible(c, s.lang)) or 1)
        if len(matched) >= need or (matched and thread_coverage >= self.config.xl_thread_coverage):
            return True
        return bool(plan.anchors) and not sentence_anchors(s.text).isdisjoint(plan.anchors)

    def _thread_coverage(self, plan: QueryPlan, sents: list[Sentence]) -> dict[str, float]:
        """Per thread: the coverage score of everything the thread says (:meth:`thread_concepts`)."""
        lang = {s.thread: s.lang for s in sents}
        pseudo = [Sentence(tid, "", lang[tid], 0, 0, "", 0, 0.0, 0) for tid in sorted(lang)]
        cov = coverage_scores(plan, pseudo, [self.thread_concepts(plan, p.thread, p.lang) for p in pseudo])
        return {p.thread: c for p, c in zip(pseudo, cov)}

    def lead(self, query: str) -> list[DistilledBullet]:
        cfg = self.config
        plan = self.plan(query)
        posts = self.retrieve(plan)
        posts.sort(key=lambda p: (-p.norm, p.rank, LANG_ORDER.index(p.lang) if p.lang in LANG_ORDER else 9,
                                  p.thread, p.post))
        bullets = []
        with self._stage("select"):
            for p in posts:
                if len(bullets) >= cfg.lead_posts:
                    break
                sents = self.sentences([p], filtered=False)
                if sents and sents[0].text not in {b.text for b in bullets}:
                    s = sents[0]
                    bullets.append(DistilledBullet(s.text, ((s.thread, s.offset),), round(p.norm, 6),
                                                   s.lang, self._gloss(s)))
        return bullets

    def bm25_sentences(self, query: str) -> list[DistilledBullet]:
        cfg = self.config
        plan = self.plan(query)
        sents = self.sentences(self.retrieve(plan))
        with self._stage("score"):
            scores = bm25_scores(plan, sents)
        with self._stage("select"):
            order = sorted((i for i in range(len(sents)) if scores[i] > 0),
                           key=lambda i: (-scores[i], _key(sents[i])))
            out: list[DistilledBullet] = []
            seen: set[str] = set()
            for i in order:
                if len(out) >= cfg.max_bullets:
                    break
                if sents[i].text in seen:  # the format forbids two bullets with one text
                    continue
                seen.add(sents[i].text)
                out.append(DistilledBullet(sents[i].text, ((sents[i].thread, sents[i].offset),),
                                           round(scores[i], 6), sents[i].lang, self._gloss(sents[i])))
            return out


def plan_without(plan: QueryPlan, lang: str) -> QueryPlan:
    """The plan with an empty query for ``lang`` (that language is not searched again)."""
    from dataclasses import replace

    return replace(plan, queries=tuple((lg, "" if lg == lang else q) for lg, q in plan.queries))


def _key(s: Sentence) -> tuple:
    return (s.thread, s.offset)
