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

import time
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from evaluation.assessment.config import ASSESSOR_VERSION, DECISIONS, RULES, AssessorConfig
from evaluation.assessment.crosslingual import Features, cross_features, cross_matches, cross_probabilities
from evaluation.assessment.judging import Judge
from evaluation.assessment.overlap import match_overlap
from evaluation.assessment.records import AssessStats, Pending, Ref, TopicPrep
from evaluation.assessment.sources import TEXT_LANGS, SourceChecker
from evaluation.assessment.statements import match_statements
from evaluation.assessment.topic_prep import prepare_topic
from evaluation.judgments import Judgment
from evaluation.matching import lexical
from evaluation.matching.semantic import EmbeddingTable
from evaluation.matching.text import script_lang, sentences
from indexing.errors import ToolkitError

if TYPE_CHECKING:  # pragma: no cover
    from bolt.formats.submission import Run
    from bolt.formats.topics import Topic
    from evaluation.matching.statement import StatementModel

__all__ = ["ASSESSOR_VERSION", "DECISIONS", "RULES", "AssessorConfig", "AssessStats", "Assessor", "Ref",
           "assess_runs"]


class Assessor:
    """Judges runs against a topic set and a corpus with one configuration and one embedder.

    The passes: collect every distinct bullet (``_collect``: topic preparation and source checks),
    embed every text once, match units to facet texts, then judge each distinct bullet once.
    """

    def __init__(self, topics: Sequence["Topic"], corpus, config: AssessorConfig | None = None,
                 embedder=None, *, progress: bool = False, batch_size: int = 1024) -> None:
        self.config = config or AssessorConfig()
        self.topics = {t.topic_id: t for t in topics}
        self.corpus = corpus
        self.progress = progress
        self.batch_size = batch_size
        self._embedder = embedder
        self._preps: dict[str, TopicPrep] = {}
        self.table = EmbeddingTable()
        self.sources = SourceChecker(corpus, self.config, self.table)
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
        self.judge = Judge(self.config, self.statement, self.table)

    @property
    def statement_threshold(self) -> float:
        """The probability a statement match needs: the configured one, else the operating point's
        for English bullets, else the model file's own."""
        t = self.config.statement_threshold
        if t is not None:
            return t
        point = _point(self.config)
        return point.thresholds["eng"] if point and "eng" in point.thresholds else self.statement.threshold

    def crosslingual_threshold(self, lang: str) -> float | None:
        """The probability a cross-language match needs in ``lang``: the configured one, else the
        operating point's, else None (the model file's own)."""
        if self.config.crosslingual_threshold is not None:
            return self.config.crosslingual_threshold
        point = _point(self.config)
        return point.thresholds.get(lang) if point else None

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
                **({"operating_point": _point_header(self.config)} if _point(self.config) else {}),
                **({"statement_model": self.statement.to_dict(),
                    "statement_threshold": self.statement_threshold,
                    "statement_held_out_by_source": self.statement.fit_notes.get("held_out_by_source")}
                   if self.statement else {})}

    def _prep(self, number: str, run: "Run") -> TopicPrep:
        prep = self._preps.get(number)
        if prep is not None:
            return prep
        topic = self.topics.get(number)
        if topic is None:
            raise ToolkitError(f"run {run.run_id} answers topic {number}, which the topics file does not hold",
                               file=str(getattr(run, "path", "") or "") or None,
                               hint="pass the topics file the run was made for (check with 'bolt validate')")
        prep = self._preps[number] = prepare_topic(topic, self.sources.thread)
        if self._embed_units:
            self.table.add(r.text for r in prep.refs)
        return prep

    # ----------------------------------------------------------------------------- passes
    def _collect(self, runs: Iterable["Run"]) -> tuple[list[tuple[str, int, tuple]], dict[tuple, Pending]]:
        """Every bullet as (run, position, key), and one pending decision per distinct key."""
        order: list[tuple[str, int, tuple]] = []
        pending: dict[tuple, Pending] = {}
        for run in runs:
            for number, result in run.results.items():
                prep = self._prep(number, run)
                for b in result.bullets:
                    key = (number, b.text, tuple((s.thread, s.offset) for s in b.sources))
                    order.append((run.run_id, b.position, key))
                    if key not in pending:
                        pending[key] = self._pending(prep, number, b)
        return order, pending

    def _pending(self, prep: TopicPrep, number: str, b) -> Pending:
        text = b.text
        lang = script_lang(text)
        english = lang == "eng"
        terms = lexical.content_terms(text) if english else frozenset()
        checks = [self.sources.check(s, prep, text, terms, english) for s in b.sources]
        textual = english and (not checks or any(c.lang in TEXT_LANGS for c in checks))
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
            prep.xunits.setdefault(text, set()).update(s.thread for s in b.sources)
        return Pending(number, text, lang, textual, units, n_sent, checks)

    def _match_units(self) -> None:
        """For each topic: every distinct bullet unit against every facet text, once."""
        for prep in self._preps.values():
            units = list(prep.units)
            if not units or not prep.refs:
                prep.matches = {u: [] for u in units}
                continue
            sims = self.table.similarities(units, [r.text for r in prep.refs]) if self._embed_units else None
            if self.statement is not None:
                match_statements(prep, units, sims, self.statement, self.statement_threshold, self.table)
            else:
                match_overlap(prep, units, sims, self.config)

    def cross_features(self, prep: TopicPrep, units: Sequence[str]) -> list[Features]:
        """For each non-English unit, per facet: its best English facet text and the features of
        ``matching.crosslingual.XFEATURES`` (``scripts/xl_assessor.py`` fits the model on these)."""
        from evaluation.matching.crosslingual import get_encoder

        enc = get_encoder(self.config.crosslingual_model)
        self.crosslingual_model_id = enc.model_id
        return cross_features(enc, prep, units)

    def _match_crosslingual(self) -> None:
        """Non-English bullets against each facet by the fitted per-language model (``assessment.crosslingual``)."""
        from evaluation.matching.crosslingual import load_cross_model

        todo = [p for p in self._preps.values() if p.xunits and p.refs]
        if not todo:
            return
        t0 = time.perf_counter()
        model = load_cross_model()
        for prep in todo:
            units = list(prep.xunits)
            for u, row in zip(units, self.cross_features(prep, units)):
                lang = script_lang(u)
                prep.xmatches[u] = cross_matches(model, lang, self.crosslingual_threshold(lang), row)
                prep.probabilities[u] = cross_probabilities(model, lang, row)
        self.stats.crosslingual_seconds += time.perf_counter() - t0

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
        decided = {key: self.judge.judge(p, self._preps[p.topic]) for key, p in pending.items()}
        self.stats.prepare_seconds += t1 - t0
        self.stats.embed_seconds += t2 - t1
        self.stats.decide_seconds += time.perf_counter() - t2
        for run_id, position, key in order:
            j = decided[key]
            self.stats.bullets += 1
            yield Judgment(j.topic_id, run_id, position, j.assessor, j.facets, j.words, j.responsive_words,
                           j.sources, j.extra)


def _point(config: AssessorConfig):
    """The forum operating point (``matching.operating_point``) when the config asks for it, else None."""
    if config.operating_point != "forum":
        return None
    from evaluation.matching.operating_point import load_point

    return load_point()


def _point_header(config: AssessorConfig) -> dict[str, Any]:
    """The operating point as the judgments header records it: domain, thresholds, stated error
    (pooled, and R_n per board or site, which ``bolt assess`` and ``bolt score`` print)."""
    p = _point(config)
    keep = ("threshold", "bias_from", "bias", "relevance_kappa", "bias_by_site")
    return {"domain": p.domain, "languages": {k: {f: v[f] for f in keep if f in v} for k, v in p.languages.items()},
            "regenerate": p.regenerate}


def _crosslingual_id(config: AssessorConfig) -> str:
    """The multilingual encoder's id for the header, without loading it (``indexing.models.multilingual.model_id``)."""
    from indexing.models.multilingual import model_id

    return model_id(config.crosslingual_model)


def _cross_model():
    """The shipped cross-language decision (``matching.crosslingual``), for the header."""
    from evaluation.matching.crosslingual import load_cross_model

    return load_cross_model()


def assess_runs(runs: Iterable["Run"], topics: Sequence["Topic"], corpus,
                config: AssessorConfig | None = None, *, embedder=None,
                progress: bool = False) -> Iterator[Judgment]:
    """Judge every bullet of every run (SPEC §5); see :class:`Assessor` for the header and stats."""
    return Assessor(topics, corpus, config, embedder, progress=progress).assess(runs)
