"""``main``: the baseline to beat. Stages (docs/system.md says why each one is there):

1. *translate* the query (lexicons) and *retrieve* passages per language, English first; its best
   passages' shared numbers and names join the Arabic and Chinese queries (feedback).
2. *thread relevance*: what a thread is about is its headline and opening post; each candidate
   thread gets the cosine of that text to the query (English, with the embedding model) blended
   with the query coverage of everything the thread says (any language).
3. *expand* the ``expand_threads`` most relevant threads per language: every post is a candidate,
   since replies answer without repeating the query's words.
4. *sentences* of the candidates' own text (never quotes), questions dropped; signatures (a
   sentence an author repeats across posts) dropped.
5. *score*: relevance (query concepts, embedding cosine, thread relevance, retrieval) times an
   *informativeness* prior (:mod:`bolt.pipeline.informative`: chatter, thanks, personal history
   and rants score low) times a *role* weight (:mod:`bolt.pipeline.forum`: the opening question
   and the asker's follow-ups rarely answer) times an *answer-position* weight (replies answer
   first: the more specific statements precede a sentence in its post, the lower).
6. *cluster* near-duplicates (one bullet per cluster, citing every post in it) and *select*:
   clusters scoring >= ``rel_threshold`` x best and >= ``abs_floor``, at most ``max_per_post``
   from one post, at most ``max_bullets``; when even the best evidence is weak (best score below
   ``weak_score``) at most ``weak_bullets``. Arabic and Chinese keep their own quota and a
   thread-first pick (cross-language reach).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from bolt.pipeline.anchors import sentence_anchors
from bolt.pipeline.candidates import CandidatePost, Sentence, clause_window
from bolt.pipeline.forum import (content_positions, normalised, other_members, position_weight, role_weight, signatures,
                                 thread_roles)
from bolt.pipeline.informative import SPECIFIC, informativeness, subject_words
from bolt.pipeline.literal_focus import anchored_language, literal_tokens
from bolt.pipeline.redundancy import Cluster, cluster
from bolt.pipeline.scoring import bm25_scores, concept_scores, coverage_scores, expressible, matched_concepts
from bolt.pipeline.systems import SYSTEM_CLASSES, DistilledBullet, Distiller, plan_without, sentence_key
from bolt.pipeline.text import length_estimate
from bolt.pipeline.translate import QueryPlan


@dataclass
class TopicEvidence:
    """One topic's candidate sentences and what ``main`` knows of each, filled in stage by stage
    (lists aligned with ``sents``; ``semantic`` and ``vectors`` by sentence index, only for the
    sentences embedded)."""

    subject: frozenset[str]  # the query's subject words, read by the prior
    sents: list[Sentence]
    prior: list[float]
    parts: list[tuple[float, float, float] | None]
    matched: list[frozenset[str]]
    lexical: list[float]
    coverage: list[float]
    semantic: dict[int, float] = field(default_factory=dict)
    vectors: dict[int, object] = field(default_factory=dict)
    focus: dict[str, float] = field(default_factory=dict)  # thread -> relevance / its language's best
    scores: list[float] = field(default_factory=list)
    stop: float | None = None  # the learned ranker's English cut, when it runs


def relative_cut(ratio: float, best: float, floor: float) -> float | None:
    """The selection's relative cut: ``ratio`` x the best score, at least ``floor``; None when the
    ratio is 0 or less (that cut is off). One definition for the select stage and the reordering
    that must admit exactly what it admits."""
    return max(floor, ratio * best) if ratio > 0 else None


class MainSystem:
    """``main`` over the shared stages of a :class:`Distiller`."""

    def __init__(self, stages: Distiller) -> None:
        self.d = stages
        #: when a list, each topic's English candidates and their ranker features are appended to it
        #: (``scripts/train_ranker.py`` collects training data this way); None: nothing is kept
        self.collect: list | None = None
        #: per topic (set by ``_candidates``): the ``lang_anchor`` threads, the ``xl_dense`` threads
        #: (thread -> cosine / its language's best), the ``xl_sweep`` scores of every thread of its
        #: languages and the swept threads that joined the candidates
        self._anchored: set[str] = set()
        self._dense: dict[str, float] = {}
        self._sweep: dict[str, float] = {}
        self._swept: set[str] = set()
        self._swept_lang: str | None = None

    def learned_scores(self, plan: QueryPlan, sents: list[Sentence], scores: list[float], lexical: list[float],
                       semantic: dict[int, float], coverage: list[float], focus: dict[str, float],
                       parts: list) -> float | None:
        """With ``ranker``: replace the English sentences' scores (in place) by the learned ranker's
        probability that the sentence states a facet, and return the English cut of its stopping
        rule (at most the best probability, so at least one English bullet). Without: None (the
        features are only collected)."""
        from bolt.pipeline.ranker import SentenceEvidence, blend, feature_rows, load_model, reorder

        d, cfg = self.d, self.d.config
        eng = [i for i, s in enumerate(sents) if s.lang == "eng"]
        if not eng:
            return None
        bm = bm25_scores(plan, [sents[i] for i in eng])
        top_bm = max(bm) or 1.0
        members: dict[tuple[str, str], frozenset[str]] = {}
        evidence, texts, mem = [], [], []
        for k, i in enumerate(eng):
            s = sents[i]
            th = d.thread(s.thread)
            key = (s.thread, s.post)
            if key not in members:
                members[key] = other_members(th, s.post)
            info, pos, role = parts[i]
            evidence.append(SentenceEvidence(
                lexical[i], semantic.get(i, coverage[i]), i in semantic, bm[k] / top_bm, focus.get(s.thread, 0.0),
                s.retrieval, info, pos, role, scores[i], length_estimate(s.text, s.lang), s.position,
                th is not None and bool(th.posts) and th.posts[0].id == s.post))
            texts.append(s.text)
            mem.append(members[key])
        rows = feature_rows(evidence, texts, mem)
        if self.collect is not None:
            self.collect.append({"sentences": [sents[i] for i in eng], "rows": rows})
        if not cfg.ranker:
            return None
        model = load_model(cfg.ranker)
        probs = model.probabilities(rows)
        cut = model.cut(probs)
        if cfg.ranker_reorder:  # main picks which sentences pass its cuts, the ranker their order (round 14)
            top = max(scores[i] for i in eng)
            low = max(cfg.abs_floor, cfg.rel_threshold * top)  # the select stage's English cut (never off)
            focus_low = relative_cut(cfg.focus_rel_threshold, top, cfg.abs_floor)
            passes = [k for k, i in enumerate(eng) if scores[i] >= low or (
                focus_low is not None and focus.get(sents[i].thread, 0.0) >= 1.0 and scores[i] >= focus_low)]
            for k, s in zip(passes, reorder(top, low, [probs[k] for k in passes])):
                scores[eng[k]] = s
            return None
        alpha = model.alpha
        if alpha is not None:  # a reranker: main's score reweighed, main's own cuts (round 14)
            for i, s in zip(eng, blend([scores[i] for i in eng], probs, alpha, cut)):
                scores[i] = s
            return None
        for i, p in zip(eng, probs):
            scores[i] = p
        return cut

    # -- thread-level evidence ---------------------------------------------------------------
    def thread_text(self, thread_id: str, lang: str) -> str:
        """Headline plus the opening post's first sentences: what the thread is about."""
        th = self.d.thread(thread_id)
        if th is None:
            return ""
        first = th.posts[0].id if th.posts else None
        opening = [s.text for s in self.d.thread_sentences(thread_id, lang) if s.post == first][:3]
        return " ".join([th.headline, *opening])[:400]

    def thread_relevance(self, query: str, plan: QueryPlan, posts: list[CandidatePost]) -> dict[str, float]:
        """Per candidate thread, in [0, 1]: how much the thread as a whole is about the query.

        With an embedding for the thread's language: ``w_thread_semantic`` x the cosine of the
        query to the thread's headline and opening post (what the thread is about) + the rest x
        the thread's best retrieval score (whether some post of it matches the query's words).
        Otherwise the query coverage of everything the thread says (headline and every sentence),
        the only evidence there is across languages.
        """
        cfg = self.d.config
        langs, best = best_per_thread(posts)
        # the ``thread_top`` best-retrieved threads of an embedded language are embedded (the cost
        # of this stage); the others keep the retrieval part only
        semantic: list[str] = []
        if cfg.w_thread_semantic > 0:
            embedded = sorted({lg for lg in langs.values() if self._embedded(lg)})
            semantic = sorted(top_threads(langs, best, embedded, cfg.thread_top))
        rel: dict[str, float] = {}
        with self.d.stage("score"):
            lexical = [t for t in sorted(langs) if not self._embedded(langs[t]) or cfg.w_thread_semantic <= 0]
            if lexical:
                rel.update(self.thread_coverage(plan, {t: langs[t] for t in lexical}))
            w = cfg.w_thread_semantic
            for t in langs:
                if t not in rel:
                    rel[t] = (1 - w) * best[t]
            texts = [self.thread_text(t, langs[t]) for t in semantic]
        if semantic:
            with self.d.stage("embed"):
                emb = self._embedder()
                vecs = emb.encode(texts)
                q = emb.encode([query])[0]
            for t, v in zip(semantic, vecs):
                rel[t] = w * max(0.0, float(v @ q)) + (1 - w) * best[t]
        return self.dense_relevance(rel, langs)

    def xl_blend(self, cosine: float, best: float, thread: str) -> float:
        """A non-English thread's encoder relevance: ``w_thread_semantic`` x ``cosine`` + the rest x its
        best retrieval score, + 1 for a ``lang_anchor`` thread (the threads that state the query's
        literal token come first)."""
        w = self.d.config.w_thread_semantic
        lift = 1.0 if self.d.config.lang_anchor and thread in self._anchored else 0.0
        return w * cosine + (1 - w) * best + lift

    def dense_relevance(self, rel: dict[str, float], langs: dict[str, str]) -> dict[str, float]:
        """``xl_dense``: a dense thread's relevance is at least its language's best candidate
        relevance times its relative cosine (the nearest thread ranks with the most relevant one):
        lexical coverage misses the names the lexicons lack, which is why the thread was missed."""
        dense = self._dense
        if not dense:
            return rel
        top: dict[str, float] = {}
        for t, lg in langs.items():
            top[lg] = max(top.get(lg, 0.0), rel.get(t, 0.0))
        out = dict(rel)
        for t, c in dense.items():
            if t in langs:
                out[t] = max(out.get(t, 0.0), top[langs[t]] * c)
        return out

    def thread_coverage(self, plan: QueryPlan, langs: dict[str, str]) -> dict[str, float]:
        """Per thread (id -> language): the query coverage of everything it says (headline and every
        sentence), the lexical thread relevance, and the evidence of the cross-language gate."""
        pseudo = [Sentence(t, "", lg, 0, 0, "", 0, 0.0, 0) for t, lg in sorted(langs.items())]
        cov = coverage_scores(plan, pseudo, [self.d.thread_concepts(plan, s.thread, s.lang) for s in pseudo])
        return {s.thread: c for s, c in zip(pseudo, cov)}

    def _embedded(self, lang: str) -> bool:
        """Whether sentences and threads of ``lang`` are scored with the embedding model."""
        return lang == "eng"

    def _embedder(self):
        from indexing.models.embedding import get_embedder

        return get_embedder(self.d.config.model)

    def expand(self, posts: list[CandidatePost], relevance: dict[str, float]) -> list[CandidatePost]:
        """Add every post of the ``expand_threads`` most relevant threads per language.

        Forum threads stay on one subject, and later replies carry the facts without repeating
        the query's words (nor its names, in another script); their prior is the thread's best
        post score, halved.
        """
        d, n = self.d, self.d.config.expand_threads
        if n <= 0:
            return posts
        with d.stage("retrieve"):
            have = {(p.thread, p.post) for p in posts}
            best: dict[tuple[str, str], float] = {}
            for p in posts:
                key = (p.lang, p.thread)
                best[key] = max(best.get(key, 0.0), p.norm)
            out = list(posts)
            for lang in d.langs:
                threads = sorted(((-relevance.get(t, 0.0), -v, t) for (lg, t), v in best.items() if lg == lang))[:n]
                for _, negv, tid in threads:
                    th = d.thread(tid)
                    if th is None:
                        continue
                    for post in th.posts:
                        if (tid, post.id) not in have:
                            have.add((tid, post.id))
                            out.append(CandidatePost(tid, post.id, lang, 0.0, len(out), -negv * 0.5))
            return out

    # -- the system ----------------------------------------------------------------------------
    def distill(self, query: str) -> list[DistilledBullet]:
        """One topic through the stages of the module docstring, one method each."""
        d, cfg = self.d, self.d.config
        plan, posts, answer = self._candidates(query)
        trel = self.thread_relevance(query, plan, posts)  # times itself: "score" and "embed"
        gate = self._gate(plan, posts, trel, answer)
        trel = self.sweep_relevance(posts, trel)  # ``xl_sweep``: after the gate, which keeps its evidence
        sents = d.sentences(self.expand(posts, trel), questions=not cfg.drop_questions)
        if not sents:
            return []
        ev = self._evidence(query, plan, sents)
        if ev is None:
            return []
        self._embed(query, ev, trel, answer)
        self._score(plan, ev, trel)
        order, best, lang_best, cut, clusters = self._cluster(ev)
        return self._select(query, plan, posts, ev, gate, order, best, lang_best, cut, clusters)

    def _candidates(self, query: str) -> tuple[QueryPlan, list[CandidatePost], str | None]:
        """The query plan and the candidate posts without the languages whose threads are about
        something else (``lang_floor``, ``xl_focus``: :meth:`unfocused_languages`), and the language
        of the answer (whose best thread the multilingual encoder puts nearest the query; None when
        that is not measured)."""
        d, cfg = self.d, self.d.config
        first = d.plan(query)
        plan, posts = d.retrieve_with_feedback(first)
        top = self.language_cosines(query, posts) if cfg.lang_floor > 0 else {}
        off = self.unfocused_languages(query, posts, top)
        self._anchored = set()
        if cfg.lang_anchor:
            lang, self._anchored = self.literal_anchor(query, posts)
            if lang is not None:
                off = {p.lang for p in posts} - {lang}
                top = {lang: 1.0}
        if "eng" in off and plan.anchors != first.anchors:
            # the English threads are about something else: their numbers and names are no
            # feedback, so the other languages are searched again with the query's own words
            plan = first
            posts = [p for p in posts if p.lang == "eng"] + d.retrieve(plan_without(first, "eng"))
        if off:
            posts = [p for p in posts if p.lang not in off]
        if cfg.lang_anchor >= 2 and self._anchored:
            # the threads that state the query's identifier are what the query names: the rest go
            posts = [p for p in posts if p.thread in self._anchored]
        self._dense, self._sweep, self._swept, self._swept_lang = {}, {}, set(), None
        if cfg.dense_langs() and not (cfg.lang_anchor >= 2 and self._anchored):
            posts = self.join_dense(query, posts, off)
        answer = max(top, key=lambda lg: (top[lg], lg)) if top else None
        present = {p.lang for p in posts}
        swept = answer if answer is not None or len(present) != 1 else next(iter(present))
        if swept in cfg.sweep_langs():  # with ``lang_anchor`` >= 2 threads, it orders them and adds none
            posts = self.join_sweep(query, posts, swept, join=not (cfg.lang_anchor >= 2 and self._anchored))
        return plan, posts, answer

    def join_dense(self, query: str, posts: list[CandidatePost], off: set[str]) -> list[CandidatePost]:
        """``xl_dense``: the ``xl_dense`` threads of each non-English language (not left out by the
        language focus) nearest the query by the multilingual encoder over every thread of that
        language (:func:`bolt.pipeline.dense.nearest_threads`, headline + opening post), kept in
        ``self._dense`` (thread -> cosine / its language's best cosine); every post of one that
        retrieval missed joins the candidates with that relative cosine as its retrieval score
        (dense retrieval as a second retriever, merged on one 0..1 scale)."""
        from bolt.pipeline.dense import nearest_threads

        d, cfg = self.d, self.d.config
        have = {p.thread for p in posts}
        out = list(posts)
        searched = set(cfg.dense_langs())
        for lang in d.langs:
            if lang not in searched or lang in off:
                continue
            with d.stage("embed"):  # none when the language has too many threads (``xl_dense_max_threads``)
                near = nearest_threads(query, lang, cfg.xl_dense, d.corpus, lambda t: self.thread_text(t, lang),
                                       self._xl_encoder(), repr(cfg.clause_limits()), cfg.xl_dense_max_threads)
            if not near or near[0][1] <= 0:
                continue
            rank = sum(1 for p in posts if p.lang == lang)
            for tid, c in near:
                self._dense[tid] = max(0.0, c) / near[0][1]
                if tid not in have:
                    joined = self.thread_candidates(tid, lang, rank, self._dense[tid])
                    out += joined
                    rank += len(joined)
        return out

    def thread_candidates(self, thread_id: str, lang: str, rank: int, score: float) -> list[CandidatePost]:
        """Every post of a thread a second retriever found (``xl_dense``, ``xl_sweep``) as candidates:
        ranks from ``rank`` on, ``score`` (0..1, relative to that retriever's best) as retrieval score."""
        th = self.d.thread(thread_id)
        return [CandidatePost(thread_id, post.id, lang, 0.0, rank + i, score)
                for i, post in enumerate(th.posts if th is not None else ())]

    def _sentence_cache_key(self, encoder: str | None = None) -> tuple:
        """What per-process sentence vectors are kept by (store file, encoder: ``xl_encoder`` unless
        named, clause settings); () for threads held in memory."""
        from bolt.pipeline.dense import store_path

        cfg = self.d.config
        store = store_path(self.d.corpus)
        return (store, encoder or cfg.xl_encoder, repr(cfg.clause_limits())) if store is not None else ()

    def join_sweep(self, query: str, posts: list[CandidatePost], lang: str, join: bool = True) -> list[CandidatePost]:
        """``xl_sweep``, in the language of the answer (``lang``, one of ``xl_sweep_langs``: the language
        whose best thread the encoder puts nearest the query, or the only language of the candidates;
        the encoder is trusted to rank threads there only, as for sentences): every thread of it
        (at most ``xl_dense_max_threads``) scored by :func:`bolt.pipeline.dense.sweep_scores`, kept in
        ``self._sweep``; every post of the ``xl_sweep`` best that retrieval missed joins the
        candidates with its score relative to the best as retrieval score (``self._swept``); with
        ``join`` False none joins (the candidates are the ``lang_anchor`` threads: the sweep only
        orders them)."""
        from bolt.pipeline.dense import language_threads, sweep_scores, sweep_weights_for

        d, cfg = self.d, self.d.config
        ids = language_threads(d.corpus, lang)
        if not ids or len(ids) > cfg.xl_dense_max_threads:
            return posts
        _, best = best_per_thread(posts)
        encoder = cfg.sweep_encoder()
        with d.stage("embed"):
            scores = sweep_scores(query, ids, lambda t: getattr(d.thread(t), "headline", "") or "",
                                  lambda t: [s.text for s in d.thread_sentences(t, lang)], best,
                                  self._xl_encoder(encoder), self._sentence_cache_key(encoder),
                                  sweep_weights_for(encoder))
        self._sweep, self._swept_lang = scores, lang
        if not join:
            return posts
        have = {p.thread for p in posts}
        out = list(posts)
        ranked = sorted(scores, key=lambda t: (-scores[t], t))[: cfg.xl_sweep]
        top = scores[ranked[0]]
        rank = sum(1 for p in posts if p.lang == lang)
        for tid in ranked:
            self._swept.add(tid)
            if tid not in have:
                joined = self.thread_candidates(tid, lang, rank, max(0.0, scores[tid]) / top if top > 0 else 0.0)
                out += joined
                rank += len(joined)
        return out

    def sweep_relevance(self, posts: list[CandidatePost], rel: dict[str, float]) -> dict[str, float]:
        """``xl_sweep``: a candidate thread of a swept language has its sweep score as relevance (at
        least 0; a ``lang_anchor`` thread keeps its lift of 1). ``rel`` unchanged when off."""
        if not self._sweep:
            return rel
        out = dict(rel)
        lift = self.d.config.lang_anchor > 0
        for t in {p.thread for p in posts if p.thread in self._sweep}:
            out[t] = max(0.0, self._sweep[t]) + (1.0 if lift and t in self._anchored else 0.0)
        return out

    def _gate(self, plan: QueryPlan, posts: list[CandidatePost], trel: dict[str, float],
              answer: str | None) -> dict[str, float]:
        """Per thread, what the cross-language gate (:meth:`cross_language_evidence`) reads: the
        thread's relevance, except in an ``xl_focus`` language that is not the language of the
        answer, where it reads the thread's lexical coverage (the encoder's relevance is trusted
        there only for the answering language, whose best thread is the nearest)."""
        with self.d.stage("score"):
            gate = dict(trel)
            # ``xl_dense``: a dense thread is the context that makes one shared concept evidence
            for t in [*self._dense, *self._swept]:
                gate[t] = max(gate.get(t, 0.0), self.d.config.xl_thread_coverage)
        return gate

    def _evidence(self, query: str, plan: QueryPlan, sents: list[Sentence]) -> TopicEvidence | None:
        """The sentences worth scoring and their query evidence (concepts matched, lexical score,
        coverage): a signature (prior 0) is dropped before anything is computed for it. None when no
        sentence is left."""
        cfg = self.d.config
        with self.d.stage("score"):
            subject = subject_words(query)
            parts = self.prior_parts(sents, subject)
            prior = prior_products(parts)
            keep = [i for i, p in enumerate(prior) if p > 0]
            sents, prior, parts = [sents[i] for i in keep], [prior[i] for i in keep], [parts[i] for i in keep]
            if not sents:
                return None
            matched = matched_concepts(plan, sents)
            lexical = concept_scores(plan, matched)
            coverage = coverage_scores(plan, sents, matched)
        return TopicEvidence(subject, sents, prior, parts, matched, lexical, coverage)

    def _embed(self, query: str, ev: TopicEvidence, trel: dict[str, float], answer: str | None) -> None:
        """``ev.semantic``: the embedding cosine to the query of the ``embed_top`` most promising
        embedded sentences (lexical + thread relevance + retrieval, times the prior; encoding is the
        costly step and a sentence far down that order is not kept anyway), and with ``xl_semantic``
        the multilingual encoder's cosines in the language of the answer. ``ev.vectors`` keeps the
        embeddings for clustering."""
        d, cfg = self.d, self.d.config
        sents, lexical, prior = ev.sents, ev.lexical, ev.prior
        with d.stage("embed"):
            eligible = [i for i, s in enumerate(sents) if self._embedded(s.lang)]
            eligible.sort(key=lambda i: (-(lexical[i] + trel.get(sents[i].thread, 0.0) + sents[i].retrieval)
                                         * prior[i], sentence_key(sents[i])))
            eligible = eligible[: cfg.embed_top]
            if eligible:
                emb = self._embedder()
                mat = emb.encode([sents[i].text for i in eligible])
                q = emb.encode([query])[0]
                for row, i in enumerate(eligible):
                    ev.vectors[i] = mat[row]
                    ev.semantic[i] = max(0.0, float(mat[row] @ q))
            if cfg.xl_sweep_read and self._sweep:
                ev.semantic.update(self.xl_sentence_similarity(query, sents, lexical, trel, prior, self._swept_lang,
                                                               (self._swept_lang,), cfg.sweep_encoder()))

    def _score(self, plan: QueryPlan, ev: TopicEvidence, trel: dict[str, float]) -> None:
        """``ev.scores``: relevance (lexical and semantic evidence, the thread's relevance relative to
        the best thread of its language, retrieval) times the prior, sharpened by that relative thread
        relevance; with ``ranker`` the English scores become the learned ranker's probabilities and
        ``ev.stop`` its stopping cut."""
        d, cfg = self.d, self.d.config
        sents = ev.sents
        with d.stage("score"):
            # the thread's relevance relative to the best thread of its language: one scale per language
            top: dict[str, float] = {}
            for s in sents:
                top[s.lang] = max(top.get(s.lang, 0.0), trel.get(s.thread, 0.0))
            focus = {s.thread: (trel.get(s.thread, 0.0) / top[s.lang] if top[s.lang] > 0 else 0.0) for s in sents}
            scores = []
            for i, s in enumerate(sents):
                # Without an embedding (Arabic/Chinese and an English-only model), the coverage of
                # the concepts the language can express stands in for the semantic half.
                sem = ev.semantic[i] if i in ev.semantic else ev.coverage[i]
                base = cfg.w_lexical * ev.lexical[i] + (1 - cfg.w_lexical) * sem
                rel = ((1 - cfg.w_retrieval - cfg.w_thread) * base + cfg.w_thread * focus[s.thread]
                       + cfg.w_retrieval * s.retrieval)
                # the sharp focus needs the semantic thread relevance; lexical coverage is too coarse
                sharp = (cfg.thread_focus if self._embedded(s.lang) or s.thread in self._sweep
                         else 0.0)
                scores.append(rel * ev.prior[i] * focus[s.thread] ** sharp)
            ev.focus, ev.scores = focus, scores
            if cfg.ranker or self.collect is not None:
                ev.stop = self.learned_scores(plan, sents, scores, ev.lexical, ev.semantic, ev.coverage, focus,
                                              ev.parts)

    def _cluster(self, ev: TopicEvidence) -> tuple[list[int], float, dict[str, float], dict[str, float],
                                                   list[Cluster]]:
        """Near-duplicates grouped (one bullet per cluster) and the cuts :meth:`_select` applies.

        Returns the sentences clustered (best first), the best score, each language's best, the cut
        per language (``rel_threshold``, ``xl_rel_threshold`` without an embedding, x the language's
        best, at least ``abs_floor``; for English the ranker's stopping cut when it runs) and the
        clusters, best first. Only sentences that could head or join a kept cluster are clustered.
        """
        d, cfg = self.d, self.d.config
        sents, scores, stop = ev.sents, ev.scores, ev.stop
        with d.stage("cluster"):
            order = sorted(range(len(sents)), key=lambda i: (-scores[i], sentence_key(sents[i])))
            best = scores[order[0]]
            # relative to the best sentence of the same language: sentences with and without an
            # embedding are not quite on one scale
            lang_best: dict[str, float] = {}
            for i in order:
                lang_best.setdefault(sents[i].lang, scores[i])
            cut = {lg: max(cfg.abs_floor, (cfg.rel_threshold if self._embedded(lg) else cfg.xl_rel_threshold) * b)
                   for lg, b in lang_best.items()}
            if stop is not None and "eng" in lang_best:  # the learned ranker's stopping rule, at least one
                cut["eng"] = stop
            floor = {lg: (cut[lg] if lg == "eng" and stop is not None else cfg.abs_floor) for lg in lang_best}
            order = [i for i in order if scores[i] >= floor[sents[i].lang] * 0.5]
            # no path of ``select`` keeps a cluster whose head scores below its floor (``abs_floor``);
            # with the ranker's floor for English the heads are no longer a prefix of ``order``
            clusters = cluster(order, sents, ev.vectors, ev.matched, cfg.dup_cosine, cfg.dup_jaccard,
                               cfg.dup_concepts,
                               heads=None if stop is not None else sum(1 for i in order if scores[i] >= cfg.abs_floor))
        return order, best, lang_best, cut, clusters

    def _select(self, query: str, plan: QueryPlan, posts: list[CandidatePost], ev: TopicEvidence,
                gate: dict[str, float], order: list[int], best: float, lang_best: dict[str, float],
                cut: dict[str, float], clusters: list[Cluster]) -> list[DistilledBullet]:
        """The bullets, best first: the clusters :meth:`_admit` lets in, at most ``max_bullets``
        (``weak_bullets`` when even the best score is below ``weak_score``), the non-English ones at
        most half of them, with Arabic and Chinese thread-first picks in that half."""
        d, cfg = self.d, self.d.config
        with d.stage("select"):
            cap = cfg.max_bullets
            above, extra = self._admit(plan, ev, gate, lang_best, cut, clusters)
            extra = extra[: cfg.max_bullets // 2]
            keep = above[: max(0, cap - len(extra))] + extra
            # thread-first picks share the non-English half of the budget with ``extra`` and take
            # the place of the lowest English bullets when the list is full
            first, sents, scores = self._thread_first(query, plan, posts, ev.sents, ev.scores, ev.prior, order, keep)
            first = first[: max(0, cfg.max_bullets // 2 - len(extra))]
            if first:
                above = above[: max(0, cap - len(extra) - len(first))]
                keep = above + extra + first
            keep.sort(key=lambda c: (-scores[c.head], sentence_key(sents[c.head])))
            heads: dict[tuple[str, str], frozenset[int]] = {}
            for c in keep:
                h = sents[c.head]
                heads[(h.thread, h.post)] = heads.get((h.thread, h.post), frozenset()) | {h.position}
            return [self._bullet(c, sents, scores, heads) for c in keep]

    def _admit(self, plan: QueryPlan, ev: TopicEvidence, gate: dict[str, float], lang_best: dict[str, float],
               cut: dict[str, float], clusters: list[Cluster]) -> tuple[list[Cluster], list[Cluster]]:
        """Which clusters may become bullets, best first: ``above`` passes its language's cut, or the
        answering thread's lower cut, or is one of the ``answer_bullets`` replies' statements let in
        below it; ``extra`` is a non-English cluster within its ``lang_quota`` that covers the query
        (``min_coverage``). A non-English head needs cross-language evidence; at most
        ``max_per_post`` come from one post."""
        cfg = self.d.config
        sents, scores, focus, stop = ev.sents, ev.scores, ev.focus, ev.stop

        def lower_cut(ratio: float) -> dict[str, float]:
            """Per embedded language, ``ratio`` x its best score (at least ``abs_floor``); {} when off.
            English has none with the learned ranker (its stopping rule is the cut)."""
            return ({lg: relative_cut(ratio, b, cfg.abs_floor) for lg, b in lang_best.items()
                     if self._embedded(lg) and not (stop is not None and lg == "eng")}
                    if ratio > 0 else {})

        # the answering thread (the best of its language) keeps sentences down to a lower cut:
        # its replies answer without repeating the query's words; other threads must score
        # within ``rel_threshold`` of the best
        focus_cut = lower_cut(cfg.focus_rel_threshold)
        above, extra = [], []
        per_lang: dict[str, int] = {}
        per_post: dict[tuple[str, str], int] = {}
        for c in clusters:  # best first
            head = sents[c.head]
            # ``xl_sweep_read``: the swept thread that answers is the context, as an anchored thread is
            swept_focus = cfg.xl_sweep_read and head.thread in self._sweep and focus.get(head.thread, 0.0) >= 1.0
            if head.lang != "eng" and not (cfg.lang_anchor >= 3 and head.thread in self._anchored) and not swept_focus \
                    and not self.cross_language_evidence(plan, head, ev.matched[c.head],
                                                                        gate.get(head.thread, 0.0)):
                continue
            if cfg.max_per_post and per_post.get((head.thread, head.post), 0) >= cfg.max_per_post:
                continue
            if scores[c.head] >= cut[head.lang] or (
                    head.lang in focus_cut and focus.get(head.thread, 0.0) >= 1.0
                    and scores[c.head] >= focus_cut[head.lang]):
                above.append(c)
            elif (head.lang != "eng" and per_lang.get(head.lang, 0) < cfg.lang_quota
                  and ev.coverage[c.head] >= cfg.min_coverage and scores[c.head] >= cfg.abs_floor):
                extra.append(c)
            else:
                continue
            per_lang[head.lang] = per_lang.get(head.lang, 0) + 1
            per_post[(head.thread, head.post)] = per_post.get((head.thread, head.post), 0) + 1
        return above, extra

    def priors(self, sents: list[Sentence], subject: frozenset[str] = frozenset()) -> list[float]:
        """Per sentence: informativeness x role weight x answer-position weight; 0 for a signature (dropped)."""
        return prior_products(self.prior_parts(sents, subject))

    def prior_parts(self, sents: list[Sentence],
                    subject: frozenset[str] = frozenset()) -> list[tuple[float, float, float] | None]:
        """Per sentence: (informativeness, answer-position weight, role weight), None for a signature."""
        d, cfg = self.d, self.d.config
        threads = {s.thread: s.lang for s in sents}
        sigs = signatures((d.thread(t) for t in sorted(threads)),
                          lambda th: d.thread_sentences(th.id, threads[th.id])) if cfg.drop_signatures else ()
        roles = {t: thread_roles(d.thread(t), d.thread_sentences(t, lg), cfg.strict_questions) for t, lg in threads.items()}
        known: dict[tuple[str, str], float] = {}

        def info_of(s: Sentence) -> float:
            """informativeness, once per distinct (text, language): the answer position reads every
            sentence of the candidate threads, the loop below the candidates among them again."""
            k = (s.text, s.lang)
            if k not in known:
                known[k] = informativeness(s.text, s.lang, subject)
            return known[k]

        where: dict[str, dict[tuple[str, int], int]] = {}
        if cfg.position_decay > 0:
            where = {t: content_positions(d.thread_sentences(t, lg),
                                          lambda s: length_estimate(s.text, s.lang) >= cfg.min_words
                                          and info_of(s) >= SPECIFIC)
                     for t, lg in threads.items()}
        out: list[tuple[float, float, float] | None] = []
        for s in sents:
            th = d.thread(s.thread)
            post = th.post(s.post) if th is not None else None
            if sigs and post is not None and (post.author, normalised(s.text)) in sigs:
                out.append(None)
                continue
            info = info_of(s) if cfg.informative else 1.0
            pos = position_weight(where[s.thread].get((s.post, s.position), 0), cfg.position_decay) if where else 1.0
            out.append((info, pos, role_weight(th, s.post, roles[s.thread], cfg.opening_weight, cfg.asker_weight)))
        return out

    def _bullet(self, c: Cluster, sents: list[Sentence], scores: list[float],
                heads: dict[tuple[str, str], frozenset[int]] | None = None) -> DistilledBullet:
        """One bullet per cluster: the head's text (an Arabic head joined with the clauses after it,
        ``arz_window``, never into another bullet's clause: ``heads`` per post), citing the head
        first, then one sentence of every other post in the cluster."""
        head = sents[c.head]
        cfg = self.d.config
        text = head.text
        if head.lang == "arz" and cfg.arz_window > 0:
            text = clause_window(self.d.thread(head.thread), head, cfg.arz_window, cfg.max_words,
                                 cfg.clause_limits(), (heads or {}).get((head.thread, head.post), frozenset()))
        sources = [(head.thread, head.offset)]
        seen_posts = {(head.thread, head.post)}
        for m in sorted(c.members[1:], key=lambda i: sentence_key(sents[i])):
            s = sents[m]
            if (s.thread, s.post) in seen_posts or len(sources) >= self.d.config.max_sources:
                continue
            seen_posts.add((s.thread, s.post))
            sources.append((s.thread, s.offset))
        gloss = self.d.gloss(head if text == head.text else replace(head, text=text))  # the bullet's own words
        return DistilledBullet(text, tuple(sources), round(scores[c.head], 6), head.lang, gloss)

    # -- Arabic and Chinese ------------------------------------------------------------------
    def _thread_first(self, query: str, plan: QueryPlan, posts: list[CandidatePost], sents: list[Sentence],
                      scores: list[float], prior: list[float], order: list[int],
                      keep: list) -> tuple[list[Cluster], list[Sentence], list[float]]:
        """Thread-first selection for Arabic and Chinese: one sentence from each of the first
        ``xl_threads`` threads of the language that cover the query (``xl_min_concepts``) and yield
        a sentence of a post not yet cited, the one whose back-translation shares the most weight
        with the query and the best English evidence (at least ``xl_min_concepts`` distinct terms).

        Replies answer without repeating the query, so their concept score is low; their words,
        mapped back to English, still meet the English evidence (numbers, names, key nouns).
        Threads are taken in the order of :meth:`xl_thread_relevance` (the multilingual encoder's
        reading of what each thread is about) when ``xl_encoder`` is set, else by best retrieval
        score. Returns the picks, and ``sents`` and ``scores`` extended by the sentences of threads
        read here (score 0: they were not scored with the rest).
        """
        from bolt.pipeline.backtranslate import gloss_bag

        d, cfg = self.d, self.d.config
        if cfg.xl_threads <= 0 or not cfg.translate:
            return [], sents, scores
        xl_rel = self.xl_thread_relevance(query, posts) if cfg.xl_encoder else {}
        sents, scores, prior = list(sents), list(scores), list(prior)
        with d.stage("score"):
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
            for lang in d.langs:
                if lang == "eng":
                    continue
                best: dict[str, float] = {}
                for p in posts:
                    if p.lang == lang:
                        best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
                if xl_rel:
                    ranked = sorted((t for t in best if t in xl_rel), key=lambda t: (-xl_rel[t], -best[t], t))
                else:
                    ranked = sorted(best, key=lambda t: (-best[t], t))[: cfg.xl_threads]
                taken = 0
                for tid in ranked:
                    if taken >= cfg.xl_threads:
                        break
                    # the thread must speak of the query: its sentences and headline, read directly
                    # or back-translated, express at least ``xl_min_concepts`` distinct query concepts
                    th = d.thread(tid)
                    said = set(gloss_bag(th.headline, lang)) if th is not None else set()
                    said |= d.thread_concepts(plan, tid, lang)
                    for s in d.thread_sentences(tid, lang):
                        said |= gloss_bag(s.text, lang)
                    need = min(cfg.xl_min_concepts, sum(1 for c in plan.concepts if expressible(c, lang)) or 1)
                    if sum(1 for c in plan.concepts if c.stem in said) < need:
                        continue
                    idx = [i for i, s in enumerate(sents) if s.thread == tid]
                    if not idx and th is not None:  # a thread neither retrieved nor expanded: read it now
                        more = d.sentences([CandidatePost(tid, p.id, lang, 0.0, 0, 0.0) for p in th.posts],
                                           questions=not cfg.drop_questions)
                        idx = list(range(len(sents), len(sents) + len(more)))
                        sents.extend(more)
                        prior.extend(self.priors(more))
                        scores.extend(0.0 for _ in more)
                    cands = []
                    for i in idx:
                        s = sents[i]
                        if s.text in texts or (s.thread, s.post) in cited or prior[i] <= 0:
                            continue
                        shared = gloss_bag(s.text, lang) & evidence
                        if len(shared) < max(1, cfg.xl_min_concepts) or shared.isdisjoint(strong):
                            continue
                        cands.append((i, sum(weight[t] for t in shared)))
                    if not cands:
                        continue
                    keyed = [(-w, -scores[i], sentence_key(sents[i]), i) for i, w in cands]
                    pick = min(keyed)[-1]
                    out.append(Cluster(pick, [pick]))
                    texts.add(sents[pick].text)
                    taken += 1
        return out, sents, scores

    def xl_sentence_similarity(self, query: str, sents: list[Sentence], lexical: list[float],
                               trel: dict[str, float], prior: list[float], answer: str | None,
                               langs: tuple[str, ...] | None = None, encoder: str | None = None) -> dict[int, float]:
        """Per candidate sentence of an ``xl_focus`` language (or of ``langs``) that is the language of
        the ``answer`` (the ``embed_top`` most promising, ordered as English ones are): the
        multilingual encoder's cosine to the English query, the semantic half of its score in place of
        lexical coverage. Only there: the encoder's cosine of a short reply is noisy, and in a
        language that does not hold the answer it lets replies about something else outrank the
        answer's language. ``encoder``: the encoder's name (``xl_encoder`` when None; the sweep's
        reading passes ``xl_sweep_encoder``)."""
        cfg = self.d.config
        out: dict[int, float] = {}
        for lang in (lg for lg in (langs or ()) if lg == answer):
            mine = [i for i, s in enumerate(sents) if s.lang == lang]
            mine.sort(key=lambda i: (-(lexical[i] + trel.get(sents[i].thread, 0.0) + sents[i].retrieval) * prior[i],
                                     sentence_key(sents[i])))
            mine = mine[: cfg.embed_top]
            if not mine:
                continue
            enc = self._xl_encoder(encoder)
            sims = enc.encode([sents[i].text for i in mine]) @ enc.encode_query(query)
            out.update((i, max(0.0, float(c))) for i, c in zip(mine, sims))
        return out

    def xl_thread_relevance(self, query: str, posts: list[CandidatePost]) -> dict[str, float]:
        """Per non-English candidate thread (the ``thread_top`` best-retrieved of each language): how
        much it is about the query by the multilingual encoder, ``w_thread_semantic`` x cosine(query,
        headline + opening post) + the rest x its best retrieval score (as English thread relevance).

        Cross-language retrieval ranks threads by translated words, which miss names and
        paraphrases and tie easily; the encoder reads the thread's own text in its own language.
        """
        d, cfg = self.d, self.d.config
        langs, best = best_per_thread([p for p in posts if p.lang != "eng"])
        chosen = top_threads(langs, best, sorted(set(langs.values())), cfg.thread_top)
        if not chosen:
            return {}
        texts = [self.thread_text(t, langs[t]) for t in chosen]
        with d.stage("embed"):
            enc = self._xl_encoder()
            sims = enc.encode(texts) @ enc.encode_query(query)
        return {t: self.xl_blend(max(0.0, float(c)), best[t], t) for t, c in zip(chosen, sims)}

    def unfocused_languages(self, query: str, posts: list[CandidatePost],
                            top: dict[str, float] | None = None) -> set[str]:
        """Languages that give no candidates (``lang_floor``; empty when off): those whose best
        thread's multilingual-encoder cosine to the query (headline + opening post, of the
        ``thread_top`` best-retrieved threads) is below ``lang_floor`` and below ``lang_ratio`` x the
        best language's. One encoder reads every language, so the cosines are on one scale; when a
        topic's answer lives in one language's threads, the others' best threads are about
        something else, and their bullets are noise. The best language is always kept. ``top``: the
        cosines of :meth:`language_cosines` when already computed."""
        cfg = self.d.config
        if cfg.lang_floor <= 0 or not cfg.xl_encoder:
            return set()
        if top is None:
            top = self.language_cosines(query, posts)
        return language_focus(top, cfg.lang_floor, cfg.lang_ratio)

    def literal_anchor(self, query: str, posts: list[CandidatePost]) -> tuple[str | None, set[str]]:
        """``lang_anchor``: the language whose retrieved threads (headline and every post) hold a
        literal query token (a non-year number, a capitalised acronym) that no retrieved English
        thread holds, and those threads (:func:`anchored_language`)."""
        tokens = literal_tokens(query)
        if not tokens:
            return None, set()
        langs, _ = best_per_thread(posts)
        texts: dict[str, tuple[str, str]] = {}
        for tid, lang in langs.items():
            th = self.d.thread(tid)
            if th is not None:
                texts[tid] = (lang, "\n".join([th.headline or "", *(p.own_text for p in th.posts)]))
        return anchored_language(tokens, texts)

    def language_cosines(self, query: str, posts: list[CandidatePost]) -> dict[str, float]:
        """Per language: the best multilingual-encoder cosine of the query to the headline and opening
        post of its ``thread_top`` best-retrieved threads; {} without ``xl_encoder`` or when fewer
        than two languages have candidates (nothing to compare)."""
        cfg = self.d.config
        if not cfg.xl_encoder:
            return {}
        langs, best = best_per_thread(posts)
        present = sorted(set(langs.values()))
        if len(present) < 2:
            return {}
        chosen = top_threads(langs, best, present, cfg.thread_top)
        with self.d.stage("embed"):
            enc = self._xl_encoder()
            sims = enc.encode([self.thread_text(t, langs[t]) for t in chosen]) @ enc.encode_query(query)
        top: dict[str, float] = {}
        for t, c in zip(chosen, sims):
            top[langs[t]] = max(top.get(langs[t], -1.0), float(c))
        return top

    def _xl_encoder(self, name: str | None = None):
        """The multilingual encoder ``name`` (default ``xl_encoder``), loaded once per process."""
        from indexing.models.multilingual import get_encoder

        return get_encoder(name or self.d.config.xl_encoder)

    def cross_language_evidence(self, plan: QueryPlan, s: Sentence, matched: frozenset[str],
                                 thread_relevance: float = 0.0) -> bool:
        """A non-English sentence speaks of the query: enough distinct concepts, a shared anchor, or
        one concept in a thread that covers the query well (see ``SystemConfig``)."""
        cfg = self.d.config
        if not plan.concepts:
            return True
        need = min(cfg.xl_min_concepts, sum(1 for c in plan.concepts if expressible(c, s.lang)) or 1)
        if len(matched) >= need or (matched and thread_relevance >= cfg.xl_thread_coverage):
            return True
        return bool(plan.anchors) and not sentence_anchors(s.text).isdisjoint(plan.anchors)


def prior_products(parts: list[tuple[float, float, float] | None]) -> list[float]:
    """Each sentence's prior from ``prior_parts``: informativeness x position x role; 0 for a signature."""
    return [0.0 if p is None else p[0] * p[1] * p[2] for p in parts]


def language_focus(top: dict[str, float], floor: float, ratio: float) -> set[str]:
    """The languages to leave out, given each language's best thread cosine ``top``: below
    ``floor`` and below ``ratio`` x the best cosine (so never the best language)."""
    if not top:
        return set()
    m = max(top.values())
    return {lg for lg, c in top.items() if c < floor and c < ratio * m}


def best_per_thread(posts: list[CandidatePost]) -> tuple[dict[str, str], dict[str, float]]:
    """Per candidate thread: its language (of its first post) and its best retrieval score; what
    both thread relevances (English and cross-language) start from."""
    langs: dict[str, str] = {}
    best: dict[str, float] = {}
    for p in posts:
        langs.setdefault(p.thread, p.lang)
        best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
    return langs, best


def top_threads(langs: dict[str, str], best: dict[str, float], languages: list[str], n: int) -> list[str]:
    """The ``n`` best-retrieved threads of each of ``languages`` (in that order; ties by thread id):
    the threads worth the cost of an embedding."""
    out: list[str] = []
    for lang in languages:
        mine = sorted((t for t, lg in langs.items() if lg == lang), key=lambda t: (-best[t], t))
        out.extend(mine[:n])
    return out


SYSTEM_CLASSES["main"] = MainSystem
