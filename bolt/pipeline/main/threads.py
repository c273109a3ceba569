"""Stage 2, thread evidence: how much each candidate thread is about the query, decided here only.

Reads the candidates (:class:`TopicCandidates`), the thread store and the encoders (the embedding
model for English threads). Returns :class:`ThreadEvidence`.

Precedence, each step overriding the one before for the threads it names:

1. *base*: an English thread of the ``thread_top`` best-retrieved: ``w_thread_semantic`` x the
   embedding cosine of the query to its headline and opening post + the rest x its best retrieval
   score (the other English threads: that retrieval part only); an Arabic or Chinese thread (and
   every thread when ``w_thread_semantic`` is 0): the query coverage of everything it says;
2. *dense* (``xl_dense``): a dense thread's relevance is at least its language's best times its
   relative cosine;
3. the *gate* reads the relevance as it stands here, with every dense or swept thread at least
   ``xl_thread_coverage`` (:class:`CrossLanguageGate`);
4. *sweep* (``xl_sweep``): a candidate thread the sweep scored has that score as its relevance;
5. *anchor* (``lang_anchor``): a swept thread that holds the query's literal token gets 1 on top.

One more reading, for thread-first picks only, is :func:`xl_thread_relevance` (the multilingual
encoder's, with the same anchor lift).
"""
from __future__ import annotations

from bolt.pipeline.candidates import CandidatePost, Sentence
from bolt.pipeline.main.gate import CrossLanguageGate
from bolt.pipeline.main.reading import best_per_thread, embedder, is_embedded, thread_text, top_threads, xl_encoder
from bolt.pipeline.main.records import ThreadEvidence, TopicCandidates
from bolt.pipeline.scoring import coverage_scores
from bolt.pipeline.systems import Distiller
from bolt.pipeline.translate import QueryPlan


def thread_evidence(d: Distiller, cands: TopicCandidates) -> ThreadEvidence:
    """Each candidate thread's relevance and the gate's evidence, in the order of the module docstring."""
    cfg = d.config
    rel = relevance_before_sweep(d, cands)
    with d.stage("score"):
        evidence = dict(rel)
        for t in [*cands.dense, *cands.swept]:
            evidence[t] = max(evidence.get(t, 0.0), cfg.xl_thread_coverage)
    gate = CrossLanguageGate(cands.plan, evidence, cfg.xl_min_concepts, cfg.xl_thread_coverage,
                             cands.anchored if cfg.lang_anchor >= 3 else frozenset(),
                             frozenset(cands.sweep) if cfg.xl_sweep_read else frozenset())
    return ThreadEvidence(sweep_relevance(d, cands, rel), gate)


def relevance_before_sweep(d: Distiller, cands: TopicCandidates) -> dict[str, float]:
    """Steps 1 and 2 of the module docstring: the relevance the gate reads."""
    posts = list(cands.posts)
    langs, _ = best_per_thread(posts)
    return dense_relevance(base_relevance(d, cands.query, cands.plan, posts), langs, cands.dense)


def base_relevance(d: Distiller, query: str, plan: QueryPlan, posts: list[CandidatePost]) -> dict[str, float]:
    """Per candidate thread, in [0, 1]: step 1 of the module docstring."""
    cfg = d.config
    langs, best = best_per_thread(posts)
    # the ``thread_top`` best-retrieved threads of an embedded language are embedded (the cost
    # of this stage); the others keep the retrieval part only
    semantic: list[str] = []
    if cfg.w_thread_semantic > 0:
        embedded = sorted({lg for lg in langs.values() if is_embedded(lg)})
        semantic = sorted(top_threads(langs, best, embedded, cfg.thread_top))
    rel: dict[str, float] = {}
    w = cfg.w_thread_semantic
    with d.stage("score"):
        lexical = [t for t in sorted(langs) if not is_embedded(langs[t]) or w <= 0]
        if lexical:
            rel.update(thread_coverage(d, plan, {t: langs[t] for t in lexical}))
        for t in langs:
            if t not in rel:
                rel[t] = (1 - w) * best[t]
        texts = [thread_text(d, t, langs[t]) for t in semantic]
    if semantic:
        with d.stage("embed"):
            emb = embedder(d)
            vecs = emb.encode(texts)
            q = emb.encode_query(query)
        for t, v in zip(semantic, vecs):
            rel[t] = w * max(0.0, float(v @ q)) + (1 - w) * best[t]
    return rel


def dense_relevance(rel: dict[str, float], langs: dict[str, str], dense: dict[str, float]) -> dict[str, float]:
    """Step 2: a dense thread's relevance is at least its language's best candidate relevance times
    its relative cosine (the nearest thread ranks with the most relevant one): lexical coverage
    misses the names the lexicons lack, which is why the thread was missed."""
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


def sweep_relevance(d: Distiller, cands: TopicCandidates, rel: dict[str, float]) -> dict[str, float]:
    """Steps 4 and 5: a candidate thread of the swept language has its sweep score as relevance (at
    least 0; a ``lang_anchor`` thread 1 more). ``rel`` unchanged without a sweep."""
    if not cands.sweep:
        return rel
    out = dict(rel)
    lift = d.config.lang_anchor > 0
    for t in {p.thread for p in cands.posts if p.thread in cands.sweep}:
        out[t] = max(0.0, cands.sweep[t]) + (1.0 if lift and t in cands.anchored else 0.0)
    return out


def thread_coverage(d: Distiller, plan: QueryPlan, langs: dict[str, str]) -> dict[str, float]:
    """Per thread (id -> language): the query coverage of everything it says (headline and every
    sentence), the lexical thread relevance."""
    pseudo = [Sentence(t, "", lg, 0, 0, "", 0, 0.0, 0) for t, lg in sorted(langs.items())]
    cov = coverage_scores(plan, pseudo, [d.thread_concepts(plan, s.thread, s.lang) for s in pseudo])
    return {s.thread: c for s, c in zip(pseudo, cov)}


def xl_thread_relevance(d: Distiller, query: str, posts: list[CandidatePost],
                        anchored: frozenset[str] = frozenset()) -> dict[str, float]:
    """Per non-English candidate thread (the ``thread_top`` best-retrieved of each language): how
    much it is about the query by the multilingual encoder, ``w_thread_semantic`` x cosine(query,
    headline + opening post) + the rest x its best retrieval score (as English thread relevance),
    + 1 for a ``lang_anchor`` thread (the threads that state the query's literal token come first).

    Cross-language retrieval ranks threads by translated words, which miss names and
    paraphrases and tie easily; the encoder reads the thread's own text in its own language.
    """
    cfg = d.config
    langs, best = best_per_thread([p for p in posts if p.lang != "eng"])
    chosen = top_threads(langs, best, sorted(set(langs.values())), cfg.thread_top)
    if not chosen:
        return {}
    texts = [thread_text(d, t, langs[t]) for t in chosen]
    with d.stage("embed"):
        enc = xl_encoder(d)
        sims = enc.encode(texts) @ enc.encode_query(query)
    w = cfg.w_thread_semantic
    lift = {t: 1.0 if cfg.lang_anchor and t in anchored else 0.0 for t in chosen}
    return {t: w * max(0.0, float(c)) + (1 - w) * best[t] + lift[t] for t, c in zip(chosen, sims)}


def expand(d: Distiller, posts: list[CandidatePost], relevance: dict[str, float]) -> list[CandidatePost]:
    """Add every post of the ``expand_threads`` most relevant threads per language.

    Forum threads stay on one subject, and later replies carry the facts without repeating
    the query's words (nor its names, in another script); their prior is the thread's best
    post score, halved.
    """
    n = d.config.expand_threads
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
