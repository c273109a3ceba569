"""Stage 4, sentence scores: relevance times the prior, sharpened by the thread's relative
relevance; then the learned ranker orders the English sentences that pass main's cuts.

Reads the records before it, the thread store (the ranker's forum cues) and the ranker model.
Returns :class:`SentenceScores`.
"""
from __future__ import annotations

from typing import Mapping

from bolt.pipeline.forum import other_members
from bolt.pipeline.main.reading import is_embedded
from bolt.pipeline.main.records import SentenceScores, SentenceSimilarity, TopicSentences
from bolt.pipeline.scoring import bm25_scores
from bolt.pipeline.systems import Distiller
from bolt.pipeline.text import length_estimate
from bolt.pipeline.translate import QueryPlan


def relative_cut(ratio: float, best: float, floor: float) -> float | None:
    """The selection's relative cut: ``ratio`` x the best score, at least ``floor``; None when the
    ratio is 0 or less (that cut is off). One definition for the select stage and the reordering
    that must admit exactly what it admits."""
    return max(floor, ratio * best) if ratio > 0 else None


def relative_focus(ev: TopicSentences, relevance: Mapping[str, float]) -> dict[str, float]:
    """Per thread of a candidate sentence: its relevance / the best thread's of its language (one
    scale per language)."""
    top: dict[str, float] = {}
    for s in ev.sents:
        top[s.lang] = max(top.get(s.lang, 0.0), relevance.get(s.thread, 0.0))
    return {s.thread: (relevance.get(s.thread, 0.0) / top[s.lang] if top[s.lang] > 0 else 0.0) for s in ev.sents}


def score(d: Distiller, plan: QueryPlan, ev: TopicSentences, sim: SentenceSimilarity, relevance: Mapping[str, float],
          sweep: Mapping[str, float], collect: list | None = None) -> SentenceScores:
    """Relevance (lexical and semantic evidence, the thread's relative relevance, retrieval) times
    the prior, times the relative relevance ** ``thread_focus`` where the thread relevance is
    semantic (English, swept threads: lexical coverage is too coarse for it); with ``ranker`` the
    English scores are ordered by the learned ranker (:func:`learned_scores`). ``collect``: see
    :class:`bolt.pipeline.main.MainSystem`."""
    cfg = d.config
    with d.stage("score"):
        focus = relative_focus(ev, relevance)
        scores = []
        for i, s in enumerate(ev.sents):
            # Without an embedding (Arabic/Chinese and an English-only model), the coverage of
            # the concepts the language can express stands in for the semantic half.
            sem = sim.semantic[i] if i in sim.semantic else ev.coverage[i]
            base = cfg.w_lexical * ev.lexical[i] + (1 - cfg.w_lexical) * sem
            rel = ((1 - cfg.w_retrieval - cfg.w_thread) * base + cfg.w_thread * focus[s.thread]
                   + cfg.w_retrieval * s.retrieval)
            sharp = cfg.thread_focus if is_embedded(s.lang) or s.thread in sweep else 0.0
            scores.append(rel * ev.prior[i] * focus[s.thread] ** sharp)
        stop = None
        if cfg.ranker or collect is not None:
            stop = learned_scores(d, plan, ev, sim, scores, focus, collect)
    return SentenceScores(tuple(scores), focus, stop)


def learned_scores(d: Distiller, plan: QueryPlan, ev: TopicSentences, sim: SentenceSimilarity, scores: list[float],
                   focus: Mapping[str, float], collect: list | None = None) -> float | None:
    """With ``ranker``: the English sentences' scores (``scores``, changed in place) from the learned
    ranker (:mod:`bolt.pipeline.ranker`), and the English cut of its stopping rule when the
    probability replaces the score (a model without ``alpha``), else None. Without: None (the
    features only go to ``collect``)."""
    from bolt.pipeline.ranker import blend, load_model

    cfg = d.config
    eng = [i for i, s in enumerate(ev.sents) if s.lang == "eng"]
    if not eng:
        return None
    rows = ranker_rows(d, plan, ev, sim, scores, focus, eng)
    if collect is not None:
        collect.append({"sentences": [ev.sents[i] for i in eng], "rows": rows})
    if not cfg.ranker:
        return None
    model = load_model(cfg.ranker)
    probs = model.probabilities(rows)
    cut = model.cut(probs)
    if cfg.ranker_reorder:  # main picks which sentences pass its cuts, the ranker their order
        reorder_passing(d, ev, scores, focus, eng, probs)
        return None
    if model.alpha is not None:  # a reranker: main's score reweighed, main's own cuts
        for i, s in zip(eng, blend([scores[i] for i in eng], probs, model.alpha, cut)):
            scores[i] = s
        return None
    for i, p in zip(eng, probs):
        scores[i] = p
    return cut


def reorder_passing(d: Distiller, ev: TopicSentences, scores: list[float], focus: Mapping[str, float],
                    eng: list[int], probs: list[float]) -> None:
    """``ranker_reorder``: the English sentences that pass the select stage's cuts keep passing, in
    the order of the ranker's probabilities (:func:`bolt.pipeline.ranker.reorder`; in place)."""
    from bolt.pipeline.ranker import reorder

    cfg = d.config
    top = max(scores[i] for i in eng)
    low = max(cfg.abs_floor, cfg.rel_threshold * top)  # the select stage's English cut (never off)
    focus_low = relative_cut(cfg.focus_rel_threshold, top, cfg.abs_floor)
    passes = [k for k, i in enumerate(eng) if scores[i] >= low or (
        focus_low is not None and focus.get(ev.sents[i].thread, 0.0) >= 1.0 and scores[i] >= focus_low)]
    for k, s in zip(passes, reorder(top, low, [probs[k] for k in passes])):
        scores[eng[k]] = s


def ranker_rows(d: Distiller, plan: QueryPlan, ev: TopicSentences, sim: SentenceSimilarity, scores: list[float],
                focus: Mapping[str, float], eng: list[int]) -> list[list[float]]:
    """The ranker's feature rows of the English sentences ``eng`` (:func:`bolt.pipeline.ranker.feature_rows`)."""
    from bolt.pipeline.ranker import SentenceEvidence, feature_rows

    sents = ev.sents
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
        info, pos, role = ev.parts[i]
        evidence.append(SentenceEvidence(
            ev.lexical[i], sim.semantic.get(i, ev.coverage[i]), i in sim.semantic, bm[k] / top_bm,
            focus.get(s.thread, 0.0), s.retrieval, info, pos, role, scores[i], length_estimate(s.text, s.lang),
            s.position, th is not None and bool(th.posts) and th.posts[0].id == s.post))
        texts.append(s.text)
        mem.append(members[key])
    return feature_rows(evidence, texts, mem)
