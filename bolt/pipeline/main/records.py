"""The typed records ``main``'s stages hand on, one per stage (see :mod:`bolt.pipeline.main`).

Each is frozen: a stage reads the records before it and returns a new one, so what a stage may
change is what it returns. Lists inside are aligned with ``TopicSentences.sents``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from bolt.pipeline.candidates import CandidatePost, Sentence
from bolt.pipeline.main.gate import CrossLanguageGate
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.translate import QueryPlan


@dataclass(frozen=True)
class TopicCandidates:
    """The candidates stage: the query plan (with feedback), the candidate posts of the languages
    kept, and what the second retrievers and the literal anchor found on the way."""

    query: str
    plan: QueryPlan
    posts: tuple[CandidatePost, ...]
    answer: str | None  # the language whose best thread the encoder puts nearest the query
    anchored: frozenset[str] = frozenset()  # ``lang_anchor``: the threads holding the literal token
    dense: Mapping[str, float] = field(default_factory=dict)  # ``xl_dense``: thread -> cosine / its language's best
    sweep: Mapping[str, float] = field(default_factory=dict)  # ``xl_sweep``: every thread of the swept language -> score
    swept: frozenset[str] = frozenset()  # ``xl_sweep``: the best swept threads (they joined the candidates)
    swept_lang: str | None = None  # the language the sweep read
    quiet: frozenset[str] = frozenset()  # ``eng_below``: languages read (evidence) that give no bullets


@dataclass(frozen=True)
class ThreadEvidence:
    """The thread stage: each candidate thread's relevance (what expansion, embedding and scoring
    read) and the cross-language gate (which keeps its own evidence)."""

    relevance: Mapping[str, float]
    gate: CrossLanguageGate


@dataclass(frozen=True)
class TopicSentences:
    """The sentences stage: the candidate sentences worth scoring (no signature) and their query
    evidence, aligned by index."""

    subject: frozenset[str]  # the query's subject words, read by the prior
    sents: tuple[Sentence, ...]
    prior: tuple[float, ...]
    parts: tuple[tuple[float, float, float], ...]  # (informativeness, answer position, role) per sentence
    matched: tuple[frozenset[str], ...]
    lexical: tuple[float, ...]
    coverage: tuple[float, ...]


@dataclass(frozen=True)
class SentenceSimilarity:
    """The embedding stage: by sentence index, the semantic half of the score (only for the
    sentences embedded) and the English embeddings the clustering reads."""

    semantic: Mapping[int, float]
    vectors: Mapping[int, object]


@dataclass(frozen=True)
class SentenceScores:
    """The scoring stage: each sentence's score, its thread's relevance relative to the best thread
    of its language (``focus``), and the learned ranker's English cut when it sets one."""

    scores: tuple[float, ...]
    focus: Mapping[str, float]
    stop: float | None = None


@dataclass(frozen=True)
class Clustering:
    """The clustering stage: the sentences clustered (best first), the best score overall and per
    language, the cut per language, and the clusters (best first)."""

    order: tuple[int, ...]
    best: float
    lang_best: Mapping[str, float]
    cut: Mapping[str, float]
    clusters: tuple[Cluster, ...]


@dataclass(frozen=True)
class Selection:
    """The selection stage: the clusters that become bullets, best first, and the sentences and
    scores they index (the candidates' own, and those of threads thread-first read, score 0)."""

    keep: tuple[Cluster, ...]
    sents: tuple[Sentence, ...]
    scores: tuple[float, ...]
