"""The tracks' own metrics, as named metric objects (ir_measures style, as ``evaluation.metrics``).

They are not ``bolt score`` metrics: they read per-nugget grades (support / partial support) and
per-sentence citation judgments that our per-bullet statistics do not carry. ``bolt convert score``
computes them from our topics and judgments files (written by ``bolt convert import``) and writes a
document of the same shape as ``bolt score --json``, so ``bolt compare`` ranks and correlates them.

AutoNuggetizer (TREC RAG 2024; Pradeep et al. 2024, castorini/nuggetizer ``calculate_nugget_scores``),
per answer, with ``s`` = 1 for support, 0.5 for partial support (0 in the strict variant), else 0:

- ``AN_all``: mean ``s`` over all nuggets of the topic;
- ``AN_vital``: mean ``s`` over the vital nuggets (0 when the topic has none);
- ``AN_weighted``: ``Σ w s / Σ w`` with weight 1 for vital, 0.5 for okay nuggets.

``strict=True`` gives no credit for partial support (nuggetizer's ``strict_*_score``).

A topic the run did not answer scores 0 and stays in the mean, as in ``bolt score``. A topic the run
answered but that has no assignment is left out of the run's mean, as nuggetizer's
``calculate_global_metrics`` averages over the assignment records it is given (the import lists such
answers in the judgments header, ``unassessed_answers``; the score document warns about each).
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from evaluation.metrics import base
from evaluation.metrics.base import Metric, ParamInfo, mean
from evaluation.metrics.nugget import f_beta

#: The tracks' metric families in the one registry (``evaluation.metrics.REGISTRY``).
AUTONUGGETIZER, ARGUE = "autonuggetizer", "argue"
TRACK_FAMILIES = (AUTONUGGETIZER, ARGUE)
CREDIT = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
WEIGHT = {"vital": 1.0, "okay": 0.5}


class NuggetGrades(NamedTuple):
    """One run's answer to one topic: (importance, grade) of every nugget of the topic."""

    topic: str
    run: str
    responded: bool
    grades: tuple[tuple[str, str], ...]


_STRICT = ParamInfo(bool, None, False, "no credit for partial support (nuggetizer's strict_* scores)")


def _credit(grade: str, strict: bool) -> float:
    if strict and grade == "partial_support":
        return 0.0
    return CREDIT[grade]


class _AutoNugget(Metric):
    SUPPORTED_PARAMS = {"strict": _STRICT}
    WEIGHTS: dict[str, float] = {}

    def compute(self, s: NuggetGrades) -> float:  # type: ignore[override]
        strict = self.params["strict"]
        num = den = 0.0
        for imp, grade in s.grades:
            w = self.WEIGHTS.get(imp, 0.0)
            num += w * _credit(grade, strict)
            den += w
        return num / den if den else 0.0


class ANAll(_AutoNugget):
    """AutoNuggetizer All score: the share of all nuggets the answer supports."""

    NAME = "AN_all"
    WEIGHTS = {"vital": 1.0, "okay": 1.0}


class ANVital(_AutoNugget):
    """AutoNuggetizer Vital score: the share of vital nuggets the answer supports."""

    NAME = "AN_vital"
    WEIGHTS = {"vital": 1.0, "okay": 0.0}


class ANWeighted(_AutoNugget):
    """AutoNuggetizer Weighted score: vital nuggets weigh 1, okay nuggets 0.5."""

    NAME = "AN_weighted"
    WEIGHTS = WEIGHT


def parse_track_metric(text: str) -> Metric:
    """``"AN_vital(strict=True)"`` -> the metric object (read with ``ast``, never ``eval``), as ``parse_metric``."""
    from indexing.spec import parse_call

    name, params = parse_call(text, what="metric", bare_words=True)
    proto = base.REGISTRY.get(name, TRACK_FAMILIES)
    return proto(**params) if params else proto


AN_all = base.register(ANAll(), family=AUTONUGGETIZER)
AN_vital = base.register(ANVital(), family=AUTONUGGETIZER)
AN_weighted = base.register(ANWeighted(), family=AUTONUGGETIZER)
AUTONUGGET_METRICS: tuple[Metric, ...] = (AN_all, AN_all(strict=True), AN_vital, AN_vital(strict=True),
                                          AN_weighted, AN_weighted(strict=True))


def autonugget_stats(topics: Sequence[Any], judgments: Iterable[Any], runs: Sequence[str] | None = None
                     ) -> dict[str, dict[str, NuggetGrades]]:
    """``{run: {topic: NuggetGrades}}`` from our topics and judgments (``nugget_assignments``, else facets).

    A judgments file of our own (no grades) counts a facet any bullet addresses as ``support``.
    """
    graded: dict[tuple[str, str], dict[str, str]] = {}
    covered: dict[tuple[str, str], set[str]] = {}
    for j in judgments:
        if j.extra.get("nugget_assignments") is not None:
            graded[(j.topic_id, j.run)] = j.extra["nugget_assignments"]
        covered.setdefault((j.topic_id, j.run), set()).update(j.facets)
    run_ids = list(runs) if runs else list(dict.fromkeys(r for _, r in covered))
    out: dict[str, dict[str, NuggetGrades]] = {r: {} for r in run_ids}
    for run in run_ids:
        for t in topics:
            key = (t.topic_id, run)
            responded = key in covered
            g = graded.get(key)
            grades = tuple((f.importance, (g.get(f.id, "not_support") if g is not None else
                                           ("support" if f.id in covered.get(key, ()) else "not_support")))
                           for f in t.facets)
            out[run][t.topic_id] = NuggetGrades(t.topic_id, run, responded, grades)
    return out


def score_document(stats: Mapping[str, Mapping[str, Any]], metrics: Sequence[Metric],
                   settings: dict[str, Any], warnings: Sequence[str] = ()) -> dict[str, Any]:
    """A ``bolt score --json``-shaped document (runs -> mean, topics) that ``bolt compare`` reads.

    A statistics record with a ``raw_counts()`` method (ARGUE) also gives each run its raw counts,
    per topic and summed (``counts``: the figures the track's viewer shows first); ``warnings`` are
    kept in the document for the CLI to print.
    """
    from bolt import __version__

    runs = {}
    for run, by_topic in stats.items():
        topics = {t: {repr(m): m.score(s) for m in metrics} for t, s in by_topic.items()}
        means = {repr(m): (m.aggregate(list(by_topic.values())) if hasattr(m, "aggregate")
                           else mean([v[repr(m)] for v in topics.values()])) for m in metrics}
        runs[run] = {"mean": means,
                     "topics": topics}
        raw = {t: s.raw_counts() for t, s in by_topic.items() if hasattr(s, "raw_counts")}
        if raw:
            summed = {k: sum(c[k] for c in raw.values()) for k in next(iter(raw.values()))}
            runs[run]["counts"] = {"all": summed, **raw}
    settings = {**settings, "metrics": [repr(m) for m in metrics], "version": __version__}
    sig = "|".join(f"{k}:{v}" for k, v in settings.items() if not isinstance(v, (list, dict)))
    doc: dict[str, Any] = {"settings": settings, "signature": sig, "runs": runs}
    if warnings:
        doc["warnings"] = list(warnings)
    return doc


def score_autonuggetizer(topics_path: str | os.PathLike, judgments_path: str | os.PathLike,
                         runs: Sequence[str] | None = None) -> dict[str, Any]:
    """Score converted AutoNuggetizer assignments with the six AutoNuggetizer metrics."""
    return _score_track(topics_path, judgments_path, runs, autonugget_stats, AUTONUGGET_METRICS,
                        {"track": "autonuggetizer", "credit": "support 1, partial_support 0.5 (strict 0)",
                         "weights": "vital 1, okay 0.5", "unanswered": "0, counted",
                         "answered_unassessed": "left out of the mean (as nuggetizer)"})


#: The judgments header key where an import lists the answers no assessment judged: ``[[run, topic], ...]``.
UNASSESSED_KEY = "unassessed_answers"


def _score_track(topics_path: str | os.PathLike, judgments_path: str | os.PathLike, runs: Sequence[str] | None,
                 stats_of: Any, metrics: Sequence[Any], settings: dict[str, Any]) -> dict[str, Any]:
    """Read the converted topics and judgments, reduce them with ``stats_of``, score ``metrics``.

    The answers the judgments header lists as unassessed are left out of their run's topics (and so
    of its mean), each with a warning.
    """
    from bolt.formats.topics import read_topics
    from evaluation.judgments import file_sha256, read_header, read_judgments
    from indexing.errors import ToolkitError

    topics = read_topics(topics_path)
    stats = stats_of(topics, read_judgments(judgments_path), runs)
    unassessed = (read_header(judgments_path) or {}).get(UNASSESSED_KEY) or []
    if not isinstance(unassessed, list) or not all(isinstance(x, list) and len(x) == 2 for x in unassessed):
        raise ToolkitError(f"the header's {UNASSESSED_KEY} is not a list of [run, topic] pairs",
                           file=str(judgments_path), line=1, hint="write it again with 'bolt convert import'")
    warnings = []
    for run, topic in unassessed:
        if topic in stats.get(run, {}):
            del stats[run][topic]
            warnings.append(f"run {run} answered topic {topic} but no assessment judged it: left out of "
                            "the run's mean")
    full = {**settings, "topics": len(topics), "judgments_sha256": file_sha256(judgments_path)[:12]}
    return score_document(stats, metrics, full, warnings)


# ---------------------------------------------------------------------------------- ARGUE

"""ARGUE (Mayfield et al. 2024; hltcoe auto-argue / argue-viz score names), per report:

- ``argue_nugget_coverage``: nuggets covered / nuggets of the topic; a nugget (question) is covered
  when the report's sentences, together, give one of its acceptable answers (``OR``) or all of them
  (``AND``); a question without listed answers is covered by any matched answer;
- ``argue_sentence_support``: sentences every one of whose citations is attested / sentences that
  cite something or answer a nugget (those that need a citation); one unattested citation makes the
  sentence unsupported (argue-viz: "supported by *each* of their citations"; auto-argue's flow:
  "penalize if any cited document doesn't support the statement");
- ``argue_citation_support``: attested citations / citations;
- ``argue_citation_relevance``: citations judged relevant / citations;
- ``argue_f1``: harmonic mean of nugget coverage and sentence support;
- ``argue_nugget_coverage_weighted``, ``argue_f1_weighted``: the same with each nugget weighted by
  its importance, vital 2 and okay 1 (a bank without importance labels is read as all vital, so
  its weighted coverage equals the plain one).

``average='macro'`` (default) is the mean of the per-topic values; ``average='micro'`` divides the
counts summed over topics (``argue_f1(average='micro')`` is the harmonic mean of the two micro values).
"""


#: ARGUE's importance weights (vital 2, okay 1), for the ``_weighted`` metrics.
ARGUE_WEIGHT = {"vital": 2, "okay": 1}


class ArgueCounts(NamedTuple):
    """One report's ARGUE counts."""

    topic: str
    run: str
    responded: bool
    nuggets: int
    covered: int
    needing: int          # sentences that cite something or answer a nugget
    correctly_cited: int  # of those, sentences every one of whose citations is attested
    citations: int
    supporting: int
    relevant: int
    sentences: int = 0
    nuggets_weighted: int = 0
    covered_weighted: int = 0

    def raw_counts(self) -> dict[str, int]:
        """The raw counts under the names and in the order the track's viewer (argue-viz) shows them."""
        return {"sentences": self.sentences,
                "sentences_with_citations_or_requiring_citations": self.needing,
                "correctly_cited_sentences": self.correctly_cited, "nuggets": self.nuggets,
                "nuggets_weighted": self.nuggets_weighted, "correct_nuggets": self.covered,
                "correct_nuggets_weighted": self.covered_weighted, "citations": self.citations,
                "relevant_citations": self.relevant, "supporting_citations": self.supporting}


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


_AVERAGE = ParamInfo(str, ("macro", "micro"), "macro", "mean of per-topic values, or ratio of summed counts")


class _Argue(Metric):
    """A ratio of two of :class:`ArgueCounts`' fields: a metric is its name and the two field names."""

    SUPPORTED_PARAMS = {"average": _AVERAGE}
    NUM: str = ""
    DEN: str = ""

    def ratio(self, c: ArgueCounts) -> tuple[float, float]:
        return getattr(c, self.NUM), getattr(c, self.DEN)

    def compute(self, c: ArgueCounts) -> float:  # type: ignore[override]
        return _ratio(*self.ratio(c))

    def aggregate(self, counts: Sequence[ArgueCounts]) -> float:
        if self.params["average"] == "macro":
            return mean([self.score(c) for c in counts])
        pairs = [self.ratio(c) for c in counts]
        return _ratio(sum(a for a, _ in pairs), sum(b for _, b in pairs))


class ArgueNuggetCoverage(_Argue):
    """Share of the topic's nugget questions the report answers acceptably."""

    NAME, NUM, DEN = "argue_nugget_coverage", "covered", "nuggets"


class ArgueSentenceSupport(_Argue):
    """Share of the sentences needing a citation whose citation supports them."""

    NAME, NUM, DEN = "argue_sentence_support", "correctly_cited", "needing"


class ArgueCitationSupport(_Argue):
    """Share of citations that support their sentence."""

    NAME, NUM, DEN = "argue_citation_support", "supporting", "citations"


class ArgueCitationRelevance(_Argue):
    """Share of citations judged relevant to the topic."""

    NAME, NUM, DEN = "argue_citation_relevance", "relevant", "citations"


class ArgueNuggetCoverageWeighted(_Argue):
    """Nugget coverage with each nugget weighted by importance (vital 2, okay 1)."""

    NAME, NUM, DEN = "argue_nugget_coverage_weighted", "covered_weighted", "nuggets_weighted"


class ArgueF1(_Argue):
    """Harmonic mean of nugget coverage and sentence support."""

    NAME = "argue_f1"
    COVERAGE: tuple[str, str] = ("covered", "nuggets")

    def compute(self, c: ArgueCounts) -> float:  # type: ignore[override]
        num, den = self.COVERAGE
        return f_beta(_ratio(getattr(c, num), getattr(c, den)), _ratio(c.correctly_cited, c.needing), beta=1)

    def aggregate(self, counts: Sequence[ArgueCounts]) -> float:
        if self.params["average"] == "macro":
            return mean([self.score(c) for c in counts])
        num, den = self.COVERAGE
        return f_beta(_ratio(sum(getattr(c, num) for c in counts), sum(getattr(c, den) for c in counts)),
                      _ratio(sum(c.correctly_cited for c in counts), sum(c.needing for c in counts)), beta=1)


class ArgueF1Weighted(ArgueF1):
    """Harmonic mean of importance-weighted nugget coverage and sentence support."""

    NAME = "argue_f1_weighted"
    COVERAGE = ("covered_weighted", "nuggets_weighted")


argue_nugget_coverage = base.register(ArgueNuggetCoverage(), family=ARGUE)
argue_nugget_coverage_weighted = base.register(ArgueNuggetCoverageWeighted(), family=ARGUE)
argue_sentence_support = base.register(ArgueSentenceSupport(), family=ARGUE)
argue_citation_support = base.register(ArgueCitationSupport(), family=ARGUE)
argue_citation_relevance = base.register(ArgueCitationRelevance(), family=ARGUE)
argue_f1 = base.register(ArgueF1(), family=ARGUE)
argue_f1_weighted = base.register(ArgueF1Weighted(), family=ARGUE)
ARGUE_METRICS: tuple[Metric, ...] = tuple(m(average=a) if a == "micro" else m for m in (
    argue_nugget_coverage, argue_nugget_coverage_weighted, argue_sentence_support, argue_citation_support,
    argue_citation_relevance, argue_f1, argue_f1_weighted)
    for a in ("macro", "micro"))


def argue_counts(topics: Sequence[Any], judgments: Iterable[Any], runs: Sequence[str] | None = None
                 ) -> dict[str, dict[str, ArgueCounts]]:
    """``{run: {topic: ArgueCounts}}`` from our topics (answers, aggregators) and sentence judgments."""
    from evaluation.convert.common import NO_DOCUMENT, parse_aggregators

    by: dict[tuple[str, str], list] = {}
    for j in judgments:
        by.setdefault((j.topic_id, j.run), []).append(j)
    run_ids = list(runs) if runs else list(dict.fromkeys(r for _, r in by))
    out: dict[str, dict[str, ArgueCounts]] = {r: {} for r in run_ids}
    for t in topics:
        aggs = parse_aggregators(t.rules)
        for run in run_ids:
            js = sorted(by.get((t.topic_id, run), []), key=lambda j: j.bullet)
            matched: dict[str, set[str]] = {}
            needing = cited_ok = cites = supp = rel = 0
            for j in js:
                answers = j.extra.get("matched_answers") or {f: [] for f in j.facets}
                for f, a in answers.items():
                    matched.setdefault(f, set()).update(a)
                real = [s for s in j.sources if s.post != NO_DOCUMENT]
                if real or answers:
                    needing += 1
                    cited_ok += bool(real) and all(s.supports for s in real)  # each citation attested
                cites += len(real)
                supp += sum(s.supports for s in real)
                rel += sum(bool(s.extra.get("relevant")) for s in real)
            covered = covered_w = 0
            for f in t.facets:
                if f.id not in matched:
                    continue
                acceptable = {n.text for n in f.nuggets}
                got = matched[f.id]
                if not acceptable:
                    hit = True
                elif aggs.get(f.id, "OR") == "AND":
                    hit = acceptable <= got
                else:
                    hit = bool(acceptable & got) or (not got)  # a match without named answers counts
                covered += hit
                covered_w += ARGUE_WEIGHT[f.importance] * hit
            out[run][t.topic_id] = ArgueCounts(t.topic_id, run, bool(js), len(t.facets), covered, needing, cited_ok,
                                             cites, supp, rel, len(js),
                                             sum(ARGUE_WEIGHT[f.importance] for f in t.facets), covered_w)
    return out


def score_argue(topics_path: str | os.PathLike, judgments_path: str | os.PathLike,
                runs: Sequence[str] | None = None) -> dict[str, Any]:
    """Score converted ARGUE judgments with the ARGUE metrics, macro and micro."""
    return _score_track(topics_path, judgments_path, runs, argue_counts, ARGUE_METRICS,
                        {"track": "argue", "coverage": "OR: any acceptable answer, AND: every answer",
                         "needs_citation": "cites or answers a nugget",
                         "sentence_support": "every citation attested", "weights": "vital 2, okay 1",
                         "unanswered": "0, counted"})
