"""Thread-first picks for Arabic and Chinese (part of selection): one sentence from each of the
first ``xl_threads`` threads of the language that speak of the query and yield a sentence of a
post not yet cited, the one whose back-translation shares the most weight with the query and the
best English evidence.

Replies answer without repeating the query, so their concept score is low; their words, mapped
back to English, still meet the English evidence (numbers, names, key nouns). Reads the thread
store, the lexicons (back-translation) and the multilingual encoder (the order of the threads).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from bolt.pipeline.backtranslate import gloss_bag
from bolt.pipeline.candidates import CandidatePost, Sentence
from bolt.pipeline.main.priors import priors
from bolt.pipeline.main.records import SentenceScores, TopicCandidates, TopicSentences
from bolt.pipeline.main.threads import xl_thread_relevance
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.scoring import expressible
from bolt.pipeline.systems import Distiller, sentence_key
from bolt.pipeline.translate import QueryPlan


@dataclass(frozen=True)
class EnglishEvidence:
    """What a non-English sentence is matched against: the query's stems and anchors with the words
    of the ``xl_evidence`` best English sentences (``terms``, each with an idf-like ``weight``), and
    the ``strong`` ones a pick must share (a query word, an anchor, a number of two digits or more)."""

    terms: frozenset[str]
    strong: frozenset[str]
    weight: dict[str, float]


def english_evidence(d: Distiller, plan: QueryPlan, sents: list[Sentence], order: list[int]) -> EnglishEvidence:
    """The :class:`EnglishEvidence` of one topic (``order``: the sentences clustered, best first)."""
    eng = [i for i in order if sents[i].lang == "eng"]
    bags = {i: gloss_bag(sents[i].text, "eng") for i in eng}
    evidence = {c.stem for c in plan.concepts} | {a.lower() for a in plan.anchors}
    for i in eng[: d.config.xl_evidence]:
        evidence |= bags[i]
    strong = ({c.stem for c in plan.concepts} | {a.lower() for a in plan.anchors}
              | {t for t in evidence if t.isdigit() and len(t) >= 2})
    n = len(eng)
    df: dict[str, int] = {}
    for b in bags.values():
        for t in b & evidence:
            df[t] = df.get(t, 0) + 1
    weight = {t: math.log((n + 1) / (df.get(t, 0) + 0.5)) for t in evidence}
    return EnglishEvidence(frozenset(evidence), frozenset(strong), weight)


def thread_first(d: Distiller, cands: TopicCandidates, ev: TopicSentences, sc: SentenceScores, order: list[int],
                 keep: list[Cluster]) -> tuple[list[Cluster], list[Sentence], list[float]]:
    """The thread-first picks, and the sentences and scores extended by the sentences of threads read
    here (score 0: they were not scored with the rest). Threads are taken in the order of
    :func:`xl_thread_relevance` when ``xl_encoder`` is set, else by best retrieval score."""
    cfg = d.config
    sents, scores = list(ev.sents), list(sc.scores)
    if cfg.xl_threads <= 0 or not cfg.translate:
        return [], sents, scores
    posts = list(cands.posts)
    xl_rel = xl_thread_relevance(d, cands.query, posts, cands.anchored) if cfg.xl_encoder else {}
    prior = list(ev.prior)
    out: list[Cluster] = []
    with d.stage("score"):
        evidence = english_evidence(d, cands.plan, sents, order)
        cited = {(sents[c.head].thread, sents[c.head].post) for c in keep}
        texts = {sents[c.head].text for c in keep}
        for lang in d.langs:
            if lang == "eng":
                continue
            taken = 0
            for tid in ranked_threads(d, posts, lang, xl_rel):
                if taken >= cfg.xl_threads:
                    break
                if not speaks_of_query(d, cands.plan, tid, lang):
                    continue
                idx = [i for i, s in enumerate(sents) if s.thread == tid]
                th = d.thread(tid)
                if not idx and th is not None:  # a thread neither retrieved nor expanded: read it now
                    more = d.sentences([CandidatePost(tid, p.id, lang, 0.0, 0, 0.0) for p in th.posts],
                                       questions=not cfg.drop_questions)
                    idx = list(range(len(sents), len(sents) + len(more)))
                    sents.extend(more)
                    prior.extend(priors(d, more))
                    scores.extend(0.0 for _ in more)
                pick = best_pick(d, sents, scores, prior, idx, lang, evidence, cited, texts)
                if pick is None:
                    continue
                out.append(Cluster(pick, [pick]))
                texts.add(sents[pick].text)
                taken += 1
    return out, sents, scores


def ranked_threads(d: Distiller, posts: list[CandidatePost], lang: str, xl_rel: dict[str, float]) -> list[str]:
    """The candidate threads of ``lang`` in the order they are tried: by the encoder's relevance
    (``xl_rel``, when given), else the ``xl_threads`` best-retrieved."""
    best: dict[str, float] = {}
    for p in posts:
        if p.lang == lang:
            best[p.thread] = max(best.get(p.thread, 0.0), p.norm)
    if xl_rel:
        return sorted((t for t in best if t in xl_rel), key=lambda t: (-xl_rel[t], -best[t], t))
    return sorted(best, key=lambda t: (-best[t], t))[: d.config.xl_threads]


def speaks_of_query(d: Distiller, plan: QueryPlan, tid: str, lang: str) -> bool:
    """The thread speaks of the query: its sentences and headline, read directly or back-translated,
    express at least ``xl_min_concepts`` distinct query concepts (or all its language can express)."""
    th = d.thread(tid)
    said = set(gloss_bag(th.headline, lang)) if th is not None else set()
    said |= d.thread_concepts(plan, tid, lang)
    for s in d.thread_sentences(tid, lang):
        said |= gloss_bag(s.text, lang)
    need = min(d.config.xl_min_concepts, sum(1 for c in plan.concepts if expressible(c, lang)) or 1)
    return sum(1 for c in plan.concepts if c.stem in said) >= need


def best_pick(d: Distiller, sents: list[Sentence], scores: list[float], prior: list[float], idx: list[int], lang: str,
              evidence: EnglishEvidence, cited: set[tuple[str, str]], texts: set[str]) -> int | None:
    """Of the sentences ``idx`` of one thread, not yet a bullet nor of a cited post: the one whose
    back-translation shares the most evidence weight (at least ``xl_min_concepts`` terms, one of
    them strong); None when none does."""
    cands = []
    for i in idx:
        s = sents[i]
        if s.text in texts or (s.thread, s.post) in cited or prior[i] <= 0:
            continue
        shared = gloss_bag(s.text, lang) & evidence.terms
        if len(shared) < max(1, d.config.xl_min_concepts) or shared.isdisjoint(evidence.strong):
            continue
        cands.append((i, math.fsum(evidence.weight[t] for t in shared)))  # exact: the same whatever the set order
    if not cands:
        return None
    return min((-w, -scores[i], sentence_key(sents[i]), i) for i, w in cands)[-1]
