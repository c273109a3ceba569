"""Stage 1, candidates: the query plan and the candidate posts of the languages that hold the answer.

Reads the index (retrieval, with English feedback), the thread store, and the multilingual
encoders (language focus, dense threads, the thread sweep). Returns :class:`TopicCandidates`.

In order: retrieve (English first, its numbers and names feed the other languages); leave out the
languages whose best threads are about something else (``lang_floor``); the literal anchor
(``lang_anchor``) makes one language the focus and, from 2, keeps only its threads; dense threads
(``xl_dense``) and the thread sweep (``xl_sweep``, in the language of the answer) join the threads
retrieval missed.
"""
from __future__ import annotations

from bolt.pipeline.candidates import CandidatePost
from bolt.pipeline.literal_focus import anchored_language, literal_tokens, subject_and_text
from bolt.pipeline.main.reading import best_per_thread, thread_candidates, thread_text, top_threads, xl_encoder
from bolt.pipeline.main.records import TopicCandidates
from bolt.pipeline.systems import Distiller, plan_without


def find_candidates(d: Distiller, query: str) -> TopicCandidates:
    """The query plan and the candidate posts without the languages whose threads are about
    something else, the language of the answer (whose best thread the multilingual encoder puts
    nearest the query; None when that is not measured) and what the second retrievers found."""
    cfg = d.config
    first = d.plan(query)
    plan, posts = d.retrieve_with_feedback(first)
    top = language_cosines(d, query, posts) if cfg.lang_floor > 0 else {}
    off = unfocused_languages(d, query, posts, top)
    quiet = quiet_english(top, cfg.eng_below) - off
    anchored: set[str] = set()
    if cfg.lang_anchor:
        lang, anchored = literal_anchor(d, query, posts)
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
    only_anchored = cfg.lang_anchor >= 2 and bool(anchored)
    if only_anchored:
        # the threads that state the query's identifier are what the query names: the rest go
        posts = [p for p in posts if p.thread in anchored]
    dense: dict[str, float] = {}
    if cfg.dense_langs() and not only_anchored:
        posts, dense = join_dense(d, query, posts, off)
    answer = max(top, key=lambda lg: (top[lg], lg)) if top else None
    present = {p.lang for p in posts}
    swept_lang = answer if answer is not None or len(present) != 1 else next(iter(present))
    sweep: dict[str, float] = {}
    swept: set[str] = set()
    if swept_lang in cfg.sweep_langs():  # with ``lang_anchor`` >= 2 threads, it orders them and adds none
        posts, sweep, swept = join_sweep(d, query, posts, swept_lang, join=not only_anchored)
    return TopicCandidates(query, plan, tuple(posts), answer, frozenset(anchored), dense, sweep, frozenset(swept),
                           swept_lang if sweep else None, frozenset(quiet))


def join_dense(d: Distiller, query: str, posts: list[CandidatePost],
               off: set[str]) -> tuple[list[CandidatePost], dict[str, float]]:
    """``xl_dense``: the ``xl_dense`` threads of each non-English language (not left out by the
    language focus) nearest the query by the multilingual encoder over every thread of that
    language (:func:`bolt.pipeline.dense.nearest_threads`, headline + opening post), as thread ->
    cosine / its language's best cosine; every post of one that retrieval missed joins the
    candidates with that relative cosine as its retrieval score (dense retrieval as a second
    retriever, merged on one 0..1 scale)."""
    from bolt.pipeline.dense import nearest_threads

    cfg = d.config
    have = {p.thread for p in posts}
    out = list(posts)
    dense: dict[str, float] = {}
    searched = set(cfg.dense_langs())
    for lang in d.langs:
        if lang not in searched or lang in off:
            continue
        with d.stage("embed"):
            near = nearest_threads(query, lang, cfg.xl_dense, d.corpus, lambda t: thread_text(d, t, lang),
                                   xl_encoder(d))
        if not near or near[0][1] <= 0:
            continue
        rank = sum(1 for p in posts if p.lang == lang)
        for tid, c in near:
            dense[tid] = max(0.0, c) / near[0][1]
            if tid not in have:
                joined = thread_candidates(d, tid, lang, rank, dense[tid])
                out += joined
                rank += len(joined)
    return out, dense


def join_sweep(d: Distiller, query: str, posts: list[CandidatePost], lang: str,
               join: bool = True) -> tuple[list[CandidatePost], dict[str, float], set[str]]:
    """``xl_sweep``, in the language of the answer (``lang``, one of ``xl_sweep_langs``: the language
    whose best thread the encoder puts nearest the query, or the only language of the candidates;
    the encoder is trusted to rank threads there only, as for sentences): every thread of it
    scored by :func:`bolt.pipeline.dense.language_sweep` (from the index's vectors; through the
    language's approximate index when it has one); every post of the ``xl_sweep`` best that
    retrieval missed joins the candidates with its score relative to the best as retrieval score.
    Returns the posts, the scores and the threads swept; with ``join`` False none joins (the
    candidates are the ``lang_anchor`` threads: the sweep only orders them)."""
    from bolt.pipeline.dense import language_sweep
    from bolt.pipeline.sweep_weights import sweep_weights_for

    cfg = d.config
    _, best = best_per_thread(posts)
    encoder = cfg.sweep_encoder()
    with d.stage("embed"):
        scores = language_sweep(query, lang, d.corpus, lambda t: getattr(d.thread(t), "headline", "") or "",
                                lambda t: [s.text for s in d.thread_sentences(t, lang)], best,
                                xl_encoder(d, encoder), sweep_weights_for(encoder))
    if not scores:
        return list(posts), {}, set()
    if not join:
        return list(posts), scores, set()
    have = {p.thread for p in posts}
    out = list(posts)
    ranked = sorted(scores, key=lambda t: (-scores[t], t))[: cfg.xl_sweep]
    top = scores[ranked[0]]
    rank = sum(1 for p in posts if p.lang == lang)
    for tid in ranked:
        if tid not in have:
            joined = thread_candidates(d, tid, lang, rank, max(0.0, scores[tid]) / top if top > 0 else 0.0)
            out += joined
            rank += len(joined)
    return out, scores, set(ranked)


def literal_anchor(d: Distiller, query: str, posts: list[CandidatePost]) -> tuple[str | None, set[str]]:
    """``lang_anchor``: the language whose retrieved threads state a literal query token (a
    non-year number, a capitalised acronym) in their headline or opening post, a token no
    retrieved English thread holds in any post, and those threads (:func:`anchored_language`)."""
    tokens = literal_tokens(query)
    if not tokens:
        return None, set()
    langs, _ = best_per_thread(posts)
    texts: dict[str, tuple[str, str, str]] = {}
    for tid, lang in langs.items():
        th = d.thread(tid)
        if th is not None:
            texts[tid] = (lang, *subject_and_text(th.headline, [p.own_text for p in th.posts]))
    return anchored_language(tokens, texts)


def language_cosines(d: Distiller, query: str, posts: list[CandidatePost]) -> dict[str, float]:
    """Per language: the best multilingual-encoder cosine of the query to the headline and opening
    post of its ``thread_top`` best-retrieved threads; {} without ``xl_encoder`` or when fewer
    than two languages have candidates (nothing to compare)."""
    if not d.config.xl_encoder:
        return {}
    return {lg: c for lg, (c, _) in language_best_threads(d, query, posts, min_languages=2).items()}


def language_best_threads(d: Distiller, query: str, posts: list[CandidatePost],
                          min_languages: int = 1) -> dict[str, tuple[float, str]]:
    """Per language: (best cosine, its thread) of the multilingual encoder's query to the headline
    and opening post of the language's ``thread_top`` best-retrieved threads (the first thread of
    a tie); {} when fewer than ``min_languages`` languages have candidates (nothing is encoded)."""
    langs, best = best_per_thread(posts)
    present = sorted(set(langs.values()))
    if not present or len(present) < min_languages:
        return {}
    chosen = top_threads(langs, best, present, d.config.thread_top)
    with d.stage("embed"):
        enc = xl_encoder(d)
        sims = enc.encode([thread_text(d, t, langs[t]) for t in chosen]) @ enc.encode_query(query)
    out: dict[str, tuple[float, str]] = {}
    for t, c in zip(chosen, sims):
        if langs[t] not in out or float(c) > out[langs[t]][0]:
            out[langs[t]] = (float(c), t)
    return out


def unfocused_languages(d: Distiller, query: str, posts: list[CandidatePost],
                        top: dict[str, float] | None = None) -> set[str]:
    """Languages that give no candidates (``lang_floor``; empty when off): those whose best
    thread's multilingual-encoder cosine to the query (headline + opening post, of the
    ``thread_top`` best-retrieved threads) is below ``lang_floor`` and below ``lang_ratio`` x the
    best language's. One encoder reads every language, so the cosines are on one scale; when a
    topic's answer lives in one language's threads, the others' best threads are about
    something else, and their bullets are noise. The best language is always kept. ``top``: the
    cosines of :func:`language_cosines` when already computed."""
    cfg = d.config
    if cfg.lang_floor <= 0 or not cfg.xl_encoder:
        return set()
    if top is None:
        top = language_cosines(d, query, posts)
    return language_focus(top, cfg.lang_floor, cfg.lang_ratio)


def language_focus(top: dict[str, float], floor: float, ratio: float) -> set[str]:
    """The languages to leave out, given each language's best thread cosine ``top``: below
    ``floor`` and below ``ratio`` x the best cosine (so never the best language)."""
    if not top:
        return set()
    m = max(top.values())
    return {lg for lg, c in top.items() if c < floor and c < ratio * m}


def quiet_english(top: dict[str, float], ratio: float) -> set[str]:
    """``eng_below``: {"eng"} when English's best thread cosine ``top["eng"]`` is below ``ratio`` x
    the best other language's, else empty (and when off). The encoder puts text in the query's own
    language nearer than the same text in another, so English threads still farther than another
    language's best are near on shared words only: their sentences are no answer. They are still
    read: the thread-first picks are matched against the best English sentences, and those do
    name the query's numbers and key nouns, so only English's bullets are left out."""
    others = [c for lg, c in top.items() if lg != "eng"]
    if ratio > 0 and "eng" in top and others and top["eng"] < ratio * max(others):
        return {"eng"}
    return set()
