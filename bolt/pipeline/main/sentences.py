"""Stage 3, sentence evidence: the candidate sentences worth scoring, their query evidence and
their semantic similarity to the query.

:func:`sentence_evidence` reads the thread store (the priors) and returns :class:`TopicSentences`;
:func:`similarity` reads the encoders (the embedding model for English, the sweep's multilingual
encoder for the swept language) and returns :class:`SentenceSimilarity`.
"""
from __future__ import annotations

from typing import Mapping

from bolt.pipeline.candidates import Sentence
from bolt.pipeline.informative import subject_words
from bolt.pipeline.main.priors import prior_parts, prior_products
from bolt.pipeline.main.reading import embedder, is_embedded, xl_encoder
from bolt.pipeline.main.records import SentenceSimilarity, TopicCandidates, TopicSentences
from bolt.pipeline.scoring import concept_scores, coverage_scores, matched_concepts
from bolt.pipeline.systems import Distiller, sentence_key
from bolt.pipeline.translate import QueryPlan


def sentence_evidence(d: Distiller, query: str, plan: QueryPlan, sents: list[Sentence]) -> TopicSentences | None:
    """The sentences worth scoring and their query evidence (concepts matched, lexical score,
    coverage): a signature (prior 0) is dropped before anything is computed for it. None when no
    sentence is left."""
    with d.stage("score"):
        subject = subject_words(query)
        parts = prior_parts(d, sents, subject)
        prior = prior_products(parts)
        keep = [i for i, p in enumerate(prior) if p > 0]
        sents, prior, parts = [sents[i] for i in keep], [prior[i] for i in keep], [parts[i] for i in keep]
        if not sents:
            return None
        matched = matched_concepts(plan, sents)
        lexical = concept_scores(plan, matched)
        coverage = coverage_scores(plan, sents, matched)
    return TopicSentences(subject, tuple(sents), tuple(prior), tuple(parts), tuple(matched), tuple(lexical),
                          tuple(coverage))


def similarity(d: Distiller, cands: TopicCandidates, ev: TopicSentences,
               relevance: Mapping[str, float]) -> SentenceSimilarity:
    """The embedding cosine to the query of the ``embed_top`` most promising embedded sentences
    (lexical + thread relevance + retrieval, times the prior; encoding is the costly step and a
    sentence far down that order is not kept anyway), with ``xl_sweep_read`` the sweep encoder's
    cosines in the swept language, and the English embeddings for clustering."""
    cfg = d.config
    sents, lexical, prior = ev.sents, ev.lexical, ev.prior
    semantic: dict[int, float] = {}
    vectors: dict[int, object] = {}
    with d.stage("embed"):
        eligible = [i for i, s in enumerate(sents) if is_embedded(s.lang)]
        eligible.sort(key=lambda i: (-(lexical[i] + relevance.get(sents[i].thread, 0.0) + sents[i].retrieval)
                                     * prior[i], sentence_key(sents[i])))
        eligible = eligible[: cfg.embed_top]
        if eligible:
            emb = embedder(d)
            mat = emb.encode([sents[i].text for i in eligible])
            q = emb.encode_query(cands.query)
            for row, i in enumerate(eligible):
                vectors[i] = mat[row]
                semantic[i] = max(0.0, float(mat[row] @ q))
        if cfg.xl_sweep_read and cands.sweep:
            semantic.update(xl_sentence_similarity(d, cands.query, ev, relevance, cands.swept_lang,
                                                   cfg.sweep_encoder()))
    return SentenceSimilarity(semantic, vectors)


def xl_sentence_similarity(d: Distiller, query: str, ev: TopicSentences, relevance: Mapping[str, float],
                           lang: str | None, encoder: str | None = None) -> dict[int, float]:
    """Per candidate sentence of ``lang`` (the ``embed_top`` most promising, ordered as English ones
    are): the multilingual encoder's cosine to the English query, the semantic half of its score in
    place of lexical coverage. Only in the language of the answer: the encoder's cosine of a short
    reply is noisy, and in a language that does not hold the answer it lets replies about something
    else outrank the answer's language. ``encoder``: the encoder's name (``xl_encoder`` when None)."""
    sents, lexical, prior = ev.sents, ev.lexical, ev.prior
    mine = [i for i, s in enumerate(sents) if s.lang == lang]
    mine.sort(key=lambda i: (-(lexical[i] + relevance.get(sents[i].thread, 0.0) + sents[i].retrieval) * prior[i],
                             sentence_key(sents[i])))
    mine = mine[: d.config.embed_top]
    if not mine:
        return {}
    enc = xl_encoder(d, encoder)
    sims = enc.encode([sents[i].text for i in mine]) @ enc.encode_query(query)
    return {i: max(0.0, float(c)) for i, c in zip(mine, sims)}
