"""Scoring runs from judgments: per-topic sufficient statistics, aggregation, and the signature.

The pipeline is sacrebleu's: judgments -> per-bullet facts (:class:`BulletFacts`) and the topic's
context (pool, ``C_i``, votes: :class:`TopicContext`) -> each metric family's own reduction of them
(:class:`TopicStats`; the reducers live with the metrics, so scoring knows no metric) -> per-topic
scores -> means per run, per condition, per series. Paired tests and the bootstrap resample the per-topic
values (``evaluation.compare``). Pure Python: no model, no JVM, so scoring stays fast.

Rules decided here (documented in ``docs/metrics.md``):
- A bullet counts when one of its sources supports it. A bullet's effective facets ``M_k`` are the
  judged facets that a supporting source supports (a source's ``facets`` narrows them; default all).
  Facet ids unknown to the topics file are ignored and counted (``unknown_facets``).
- A bullet of the run with no judgment is irrelevant with unsupported sources: all its words are
  wasted, its sources count as unsupported; the scorer reports how many it met (``unjudged_bullets``).
- ``W_k`` is counted here, from the run's bullet text by the one word rule (``indexing.textfacts``);
  a judgment's own ``words``, when it differs, keeps its number of struck words and is reported
  (``StatsTable.word_counts``), never used.
- Source unit = (thread, post id): one answer for one set of inputs. Bullet sources take ``unit``
  from the judgment, else from the collection; nugget citations take it from the collection, else
  from a judged source citing the same (thread, offset). When a figure needs a unit that only the
  collection could give and none is given, scoring refuses and names ``--corpus/--index``
  (:func:`check_units_placeable`). Judgments converted from other evaluations cite whole documents
  (their header says ``converted_from``): there the document is the unit (``@offset``).
- A topic the run did not answer (no ``<result>`` or no bullets) gets each metric's default (0) and
  is counted in the mean, never dropped.
"""
from __future__ import annotations

import functools
import math
import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from evaluation.judgments import (HolisticJudgment, Judgment, JudgmentSet, gc_paused, is_unfinished,
                                  unknown_facets)
from evaluation.metrics import DEFAULT_METRICS, Metric, TopicStats, holistic, parse_metric, pyramid_F, reducers_of
from evaluation.metrics import base as metrics_base
from evaluation.metrics.facts import BulletFacts, Reducer, Response, TopicContext, UnitKey, post_id_at, unit_key
from bolt.formats.topics import average_nugget_words as topics_average_nugget_words
from evaluation.metrics.err import err_facet  # noqa: F401  (re-exported)
from evaluation.results import ScoreReport, signature  # noqa: F401  (signature re-exported)
from indexing.errors import ToolkitError
from indexing.textfacts import WORDS_VERSION, count_words, non_ws_chars  # noqa: F401  (non_ws_chars re-exported)

UnitResolver = Callable[[str, int], "str | None"]  # (thread id, offset) -> post id, None when unknown

#: TREC 2004 per-series weights (Voorhees 2005): renormalised over the types a series has, which
#: gives 0.67 factoid + 0.33 other for a series without list questions.
TREC2004_WEIGHTS: dict[str, float] = {"factoid": 0.5, "list": 0.25, "other": 0.25}


# ---------------------------------------------------------------------------------- inputs

def average_nugget_words(topics: Sequence[Any]) -> tuple[float, str]:
    """The average words per nugget over every nugget text of the topic set, and where it came from.

    Falls back to facet descriptions when no facet has nugget text (stated as ``facet-descriptions``).
    """
    texts = [n.text for t in topics for f in t.facets for n in f.nuggets if n.text and n.text.strip()]
    source = "topics"
    if not texts:
        texts = [f.desc for t in topics for f in t.facets if f.desc and f.desc.strip()]
        source = "facet-descriptions"
    if not texts:
        raise ToolkitError("the topics have no nugget text and no facet description to average",
                           hint="give --avg-nugget-words N")
    if source == "topics":
        value = float(topics_average_nugget_words(topics))
        if value > 0:
            return value, source
    return sum(count_words(t) for t in texts) / len(texts), source


# ---------------------------------------------------------------------------------- statistics

@dataclass
class StatsTable:
    """Per-run, per-topic statistics plus the bookkeeping the output reports."""

    stats: dict[str, dict[str, TopicStats]]
    unjudged_bullets: dict[str, int]
    unknown_facets: int
    ignored_judgments: int
    avg_nugget_words: float
    avg_nugget_words_source: str
    nugget_units: dict[str, int] = field(default_factory=dict)  # "corpus", "judgments", "offset" -> count
    pool_sizes: dict[str, int] = field(default_factory=dict)
    #: judgments whose own ``words`` differ from the count of the run's bullet text:
    #: (topic, run, bullet, words given, words counted)
    word_counts: list[tuple[str, str, int, int, int]] = field(default_factory=list)


def index_judgments(sets: Iterable[JudgmentSet | Sequence[Judgment]]) -> dict[tuple[str, str, int], Judgment]:
    sets = list(sets)
    lists = [js.judgments if isinstance(js, JudgmentSet) else tuple(js) for js in sets]
    fast: dict[tuple[str, str, int], Judgment] = {}
    for items in lists:
        fast.update({(j.topic_id, j.run, j.bullet): j for j in items})
    if len(fast) == sum(map(len, lists)):
        return fast
    return _index_judgments_checked(zip(sets, lists))  # a bullet judged twice: say where


def _index_judgments_checked(pairs) -> dict[tuple[str, str, int], Judgment]:
    out: dict[tuple[str, str, int], tuple[Judgment, str]] = {}
    for js, items in pairs:
        name = js.path if isinstance(js, JudgmentSet) else "<judgments>"
        for j in items:
            prev = out.get(j.key)
            if prev is not None:
                raise ToolkitError(f"run {j.run} bullet {j.bullet} of topic {j.topic_id} is judged twice "
                                   f"(also in {prev[1]}:{prev[0].line})", file=name, line=j.line or None,
                                   hint="score one assessor's judgments at a time; compare assessors with "
                                        "'bolt compare' over separate score files")
            out[j.key] = (j, name)
    return {k: v[0] for k, v in out.items()}


def build_stats(topics: Sequence[Any], runs: Sequence[Any], judgments: Iterable[JudgmentSet | Sequence[Judgment]],
                *, avg_nugget_words: float | None = None, votes: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
                holistic_judgments: Sequence[HolisticJudgment] | None = None,
                unit_of: UnitResolver | None = None, metrics: Sequence[Metric] | None = None) -> StatsTable:
    """Per-topic statistics of every run on every topic: each response reduced by the reducers of
    ``metrics`` (default: every registered metric).

    ``topics`` are ``bolt.formats.topics.Topic`` records; ``runs`` are ``bolt.formats.submission.Run`` records (only
    ``run_id`` and ``results[number].bullets[k].text`` are read); ``votes`` is ``bolt.formats.topics.read_votes``'
    mapping; ``unit_of`` resolves a nugget citation's post id from the corpus.
    """
    metrics = list(metrics if metrics is not None else metrics_base.REGISTRY.prototypes((metrics_base.SCORE,)))
    reducers = reducers_of(metrics)
    unit_metrics = [] if unit_of is not None else [m for m in metrics if m.READS_UNITS]
    with gc_paused():  # builds ~10 live objects per bullet: see evaluation.judgments.gc_paused
        return _build_stats(topics, runs, list(judgments), avg_nugget_words, votes, holistic_judgments, unit_of,
                            reducers, unit_metrics)


#: The judgments header key of files ``bolt convert`` writes: their sources cite whole documents.
CONVERTED_KEY = "converted_from"


def check_units_placeable(topics: Sequence[Any], runs: Sequence[Any], judgments: Sequence[JudgmentSet | Sequence[Judgment]],
                          metrics: Sequence[Metric]) -> None:
    """Refuse, naming ``--corpus/--index``, when ``metrics`` (those reading source units) would need
    a unit that only the collection can give: a supporting source without ``unit``, or a nugget
    citation no judged source places. Without this rule the same files scored with and without the
    collection gave two different R_c (docs/metrics.md, "Source units: one answer")."""
    if not metrics:
        return
    numbers = {t.topic_id for t in topics}
    run_ids = {r.run_id for r in runs}
    judged_units: set[tuple[str, int]] = set()
    sources = 0
    for js in judgments:
        documents = isinstance(js, JudgmentSet) and bool((js.header or {}).get(CONVERTED_KEY))
        for j in (js.judgments if isinstance(js, JudgmentSet) else js):
            if j.topic_id not in numbers or j.run not in run_ids:
                continue
            for src in j.sources:
                if src.unit:
                    judged_units.add((src.post, src.offset))
                elif src.supports and not documents:
                    sources += 1
    nuggets = sum(1 for t in topics for f in t.facets for n in f.nuggets
                  if n.post is not None and n.offset is not None and (n.post, n.offset) not in judged_units)
    if not (sources or nuggets):
        return
    what = " and ".join(x for x in (f"{sources} supporting source(s) without a \"unit\"" if sources else "",
                                    f"{nuggets} nugget citation(s) of the topics" if nuggets else "") if x)
    names = ", ".join(repr(m) for m in metrics)
    raise ToolkitError(f"{what} can only be placed in posts by the collection, and none was given; {names} "
                       "depend on those units",
                       hint="give --corpus PATH... or --index DIR (Python: corpus=... or index=...), or leave "
                            "those metrics out (-m)")


def _build_stats(topics, runs, judgments, avg_nugget_words, votes, holistic_judgments, unit_of,
                 reducers: Sequence[Reducer], unit_metrics: Sequence[Metric]) -> StatsTable:
    if avg_nugget_words is None:
        avg, avg_source = average_nugget_words(topics)
    else:
        if not avg_nugget_words > 0:
            raise ToolkitError(f"average words per nugget must be positive, got {avg_nugget_words}",
                               hint="give --avg-nugget-words a number above 0")
        avg, avg_source = float(avg_nugget_words), "override"
    jidx = index_judgments(judgments)
    run_ids = [r.run_id for r in runs]
    if len(set(run_ids)) != len(run_ids):
        dup = next(r for r in run_ids if run_ids.count(r) > 1)
        raise ToolkitError(f"run id {dup} is given twice", hint="give each run file once; run ids must differ")
    check_units_placeable(topics, runs, judgments, unit_metrics)
    topic_numbers = {t.topic_id for t in topics}
    run_set = set(run_ids)
    ignored = sum(1 for (t, r, _) in jidx if t not in topic_numbers or r not in run_set)

    # Judged (thread, offset) -> unit, to place nugget citations when no corpus is given.
    judged_units: dict[tuple[str, int], str] = {}
    for j in jidx.values():
        for s in j.sources:
            if s.unit and (s.post, s.offset) not in judged_units:
                judged_units[(s.post, s.offset)] = s.unit

    hol: dict[str, dict[str, list[float]]] = {}  # topic -> run -> scores
    for h in holistic_judgments or ():
        hol.setdefault(h.topic, {}).setdefault(h.run, []).append(h.score)

    table = StatsTable({r: {} for r in run_ids}, {r: 0 for r in run_ids}, 0, ignored, avg, avg_source,
                       {"corpus": 0, "judgments": 0, "offset": 0})
    for topic in topics:
        _score_topic(topic, runs, jidx, table, judged_units, unit_of, votes, hol, tuple(reducers))
    return table


def bullet_facts(bullets: Sequence[Any], judged: Callable[[int], "Judgment | None"], *,
                 known: set[str] | None = None, unit_of: UnitResolver | None = None,
                 word_counts: list[tuple[int, int, int]] | None = None) -> tuple[list[BulletFacts], int]:
    """The facts of a response's bullets in order, and how many unknown facet ids were dropped.

    ``bullets`` are ``bolt.formats.submission.Bullet`` records (``text``, ``sources``), numbered from 1;
    ``judged(k)`` is bullet ``k``'s judgment or None; ``known`` the topic's facet ids (None: all).
    A bullet counts when one of its sources supports it (docs/metrics.md); an unjudged bullet is
    irrelevant with unsupported sources. ``W_k`` is the word count of the bullet's text
    (:func:`judged_words`); ``word_counts`` gets (bullet, words given, words counted) where a
    judgment's own count differs.
    """
    out: list[BulletFacts] = []
    covered_set: set[str] = set()
    unknown_facets = 0
    new_facts = tuple.__new__
    for k, bullet in enumerate(bullets, start=1):
        text = bullet.text
        length = sum(map(len, text.split()))  # non_ws_chars, inlined
        j = judged(k)
        if j is None:
            out.append(new_facts(BulletFacts, (k, False, (), (), count_words(text), len(bullet.sources), (), 0.0,
                                               length)))
            continue
        m_k = j.facets
        if known is not None and not known.issuperset(m_k):
            m_k = tuple(f for f in m_k if f in known)
            unknown_facets += len(j.facets) - len(m_k)
        supporting: list[tuple[UnitKey, tuple[str, ...]]] = []
        narrowed = False  # whether a source supports only some of the bullet's facets
        for src in j.sources:
            if not src.supports:
                continue
            if src.facets is None:
                fs = m_k
            else:
                fs = tuple(f for f in src.facets if f in m_k)
                narrowed = True
            post_id = src.unit or (unit_of(src.post, src.offset) if unit_of else None)
            supporting.append(((src.post, post_id if post_id else f"@{src.offset}"), fs))  # unit_key, inlined
        words, responsive = judged_words(count_words(text), j.words, j.responsive_words)
        if word_counts is not None:
            given = j.words if j.words is not None else j.responsive_words
            if given is not None and (given > words if j.words is None else given != words):
                word_counts.append((k, given, words))
        eff: tuple[str, ...] = ()
        new: tuple[str, ...] = ()
        wasted = words
        if supporting:
            if narrowed:
                supported = {f for _, fs in supporting for f in fs}
                eff = tuple(f for f in m_k if f in supported)
            else:  # every supporting source supports all of M_k
                eff = tuple(m_k)
            if eff:
                new = tuple(f for f in eff if f not in covered_set)
                if new:
                    covered_set.update(new)
                    wasted = words - responsive
        out.append(new_facts(BulletFacts, (k, True, eff, new, wasted, len(j.sources), tuple(supporting),
                                           responsive / words if words else 0.0, length)))
    return out, unknown_facets


def judged_words(counted: int, given: int | None, responsive: int | None) -> tuple[int, int]:
    """(``W_k``, ``w_k``) of a judged bullet whose text has ``counted`` words.

    The toolkit's count is ``W_k``; a judgment says how many words the person struck: ``given -
    responsive`` when it gives its own count, else ``counted - responsive``. Without
    ``responsive_words`` nothing is struck. A count given by hand under another reading of "word"
    (a Chinese bullet counted by segments) therefore changes nothing but the warning.
    """
    if responsive is None:
        return counted, counted
    struck = (given - responsive) if given is not None else (counted - responsive)
    return counted, min(counted, max(0, counted - struck))


def _score_topic(topic, runs, jidx, table: StatsTable, judged_units, unit_of, votes, hol,
                 reducers: tuple[Reducer, ...]) -> None:
    number = topic.topic_id
    facet_ids = [f.id for f in topic.facets]
    known = set(facet_ids)

    # The pool: nugget citations plus every supporting source of any run scored together.
    pool: set[UnitKey] = set()
    c_i: dict[str, set[UnitKey]] = {fid: set() for fid in facet_ids}
    for f in topic.facets:
        for n in f.nuggets:
            if n.post is None or n.offset is None:
                continue
            post_id = unit_of(n.post, n.offset) if unit_of else None
            how = "corpus"
            if post_id is None:
                post_id = judged_units.get((n.post, n.offset))
                how = "judgments" if post_id else "offset"
            table.nugget_units[how] += 1
            u = unit_key(n.post, post_id, n.offset)
            pool.add(u)
            c_i[f.id].add(u)

    # First every run's bullet facts, which fill the pool and C_i; the reductions need them complete.
    unjudged = table.unjudged_bullets
    unknown_facets = 0
    pool_add = pool.add
    responses: list[Response] = []
    for run in runs:
        run_id = run.run_id
        result = run.results.get(number)
        bullets = tuple(result.bullets) if result is not None else ()
        counts: list[tuple[int, int, int]] = []
        facts, dropped = bullet_facts(bullets, lambda k: jidx.get((number, run_id, k)), known=known, unit_of=unit_of,
                                      word_counts=counts)
        table.word_counts.extend((number, run_id, k, given, counted) for k, given, counted in counts)
        unknown_facets += dropped
        for b in facts:
            if not b.judged:
                unjudged[run_id] += 1
            elif b.supporting:
                for u, fs in b.supporting:
                    pool_add(u)
                    for f in fs:
                        c_i[f].add(u)
        responses.append(Response(number, run_id, bool(bullets), facts))
    table.unknown_facets += unknown_facets
    table.pool_sizes[number] = len(pool)

    # Which facets' C_i hold each unit: keeps |C_i \ cited| up to date without building sets (ERR).
    facets_of_unit: dict[UnitKey, list[str]] = {}
    for fid, ci in c_i.items():
        for u in ci:
            facets_of_unit.setdefault(u, []).append(fid)
    context = TopicContext(number, tuple(facet_ids), frozenset(f.id for f in topic.facets if f.importance == "vital"),
                           table.avg_nugget_words, len(pool), facets_of_unit, {fid: len(ci) for fid, ci in c_i.items()},
                           votes.get(number, {}) if votes is not None else None, hol.get(number, {}))
    stats = table.stats
    for r in responses:
        stats[r.run][number] = TopicStats(number, r.run, r.responded, {red: red(r, context) for red in reducers})


# ---------------------------------------------------------------------------------- aggregation

def result_keys(metrics: Sequence[Metric]) -> list[str]:
    """The key each metric's results go under: its name (the params are in the settings), or its
    repr when two metrics of one name are asked for together (``nugget_F``, ``nugget_F(beta=5)``)."""
    reprs = [repr(m) for m in metrics]
    if len(set(reprs)) != len(reprs):
        dup = next(r for r in reprs if reprs.count(r) > 1)
        raise ValueError(f"metric {dup} is asked for twice; ask for each metric once")
    names = [m.NAME for m in metrics]
    return [m.NAME if names.count(m.NAME) == 1 else repr(m) for m in metrics]


def topic_scores(table: StatsTable, metrics: Sequence[Metric]) -> dict[str, dict[str, dict[str, float]]]:
    """``{run: {topic: {result key: score}}}`` (keys from :func:`result_keys`)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    pairs = [(key, m.score) for key, m in zip(result_keys(metrics), metrics)]
    for run, by_topic in table.stats.items():
        out[run] = {t: {name: f(s) for name, f in pairs} for t, s in by_topic.items()}
    return out


def mean_over(values: Iterable[float]) -> float:
    vals = list(values)
    return math.fsum(vals) / len(vals) if vals else 0.0


def condition_groups(topics: Sequence[Any]) -> dict[str, list[str]]:
    """Topic numbers per condition: ``asks_about:X``, ``asks_for:X``, ``language:L`` (each language
    involved), ``languages:eng+cmn`` (the exact set), ``threads:single|multiple``."""
    groups: dict[str, list[str]] = {}
    for t in topics:
        p = getattr(t, "properties", None)
        if p is None:
            continue
        keys = []
        if p.asks_about:
            keys.append(f"asks_about:{p.asks_about}")
        if p.asks_for:
            keys.append(f"asks_for:{p.asks_for}")
        langs = sorted(p.languages or ())
        keys.extend(f"language:{lang}" for lang in langs)
        if langs:
            keys.append(f"languages:{'+'.join(langs)}")
        if p.multiple_threads is not None:
            keys.append(f"threads:{'multiple' if p.multiple_threads else 'single'}")
        for k in keys:
            groups.setdefault(k, []).append(t.topic_id)
    return dict(sorted(groups.items()))


def series_of(number: str) -> str | None:
    """The series of a topic: the number's prefix before the first '.', None without one."""
    return number.split(".", 1)[0] if "." in number else None


def series_scores(per_topic: Mapping[str, float], types: Mapping[str, str] | None = None,
                  weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """Score per series: the mean of its topics, or with ``types`` (topic -> question type) the
    weighted combination of per-type means (``weights``, default TREC 2004), renormalised over the
    types present in the series."""
    by_series: dict[str, list[str]] = {}
    for t in per_topic:
        s = series_of(t)
        if s is not None:
            by_series.setdefault(s, []).append(t)
    out = {}
    for s, ts in sorted(by_series.items()):
        if types is None:
            out[s] = mean_over(per_topic[t] for t in ts)
            continue
        w = weights or TREC2004_WEIGHTS
        per_type: dict[str, list[float]] = {}
        for t in ts:
            per_type.setdefault(types.get(t, "other"), []).append(per_topic[t])
        present = {k: w.get(k, 0.0) for k in per_type}
        total = sum(present.values())
        out[s] = (sum(present[k] * mean_over(v) for k, v in per_type.items()) / total) if total else \
            mean_over(per_topic[t] for t in ts)
    return out


def zero_median_topics(scores: Mapping[str, Mapping[str, Mapping[str, float]]], metric: str) -> list[str]:
    """Topics whose median score over the runs is zero (Voorhees 2005 reports these)."""
    runs = list(scores)
    if not runs:
        return []
    topics = list(scores[runs[0]])
    return [t for t in topics if statistics.median(scores[r][t][metric] for r in runs) == 0]


# ---------------------------------------------------------------------------------- signature

def settings_dict(metrics: Sequence[Metric], table: StatsTable, *, judgments: Sequence[JudgmentSet],
                  topics_count: int, topics_sha256: str | None = None, units: str = "offset",
                  extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every setting a number depends on, generated from the metric params (not hand-picked)."""
    from bolt import __version__

    params: dict[str, Any] = {}
    for key, m in zip(result_keys(metrics), metrics):
        for k, v in m.settings().items():
            params[f"{key}.{k}"] = v
    headers = [js.header or {} for js in judgments]
    assessors = sorted({a for js in judgments for a in js.assessors})
    models = sorted({str(h.get(k)) for h in headers for k in ("embedding_model", "model") if h.get(k)})
    versions = sorted({str(h.get("version")) for h in headers if h.get("version")})
    from evaluation.metrics.nugget import ALLOWANCE_PER_NUGGET

    settings: dict[str, Any] = {
        "metrics": [repr(m) for m in metrics],
        "params": params,
        "avg_nugget_words": round(table.avg_nugget_words, 4),
        "avg_nugget_words_source": table.avg_nugget_words_source,
        "allowance_per_nugget": ALLOWANCE_PER_NUGGET,
        "judgments": [{"file": js.path, "sha256": js.sha256} for js in judgments],
        "assessors": assessors,
        "assessor_meta": [h for h in headers if h],
        "assessor_version": versions,
        "embedding_model": models,
        "topics": topics_count,
        "topics_sha256": topics_sha256,
        "runs": len(table.stats),
        "units": units,
        "nugget_units": dict(table.nugget_units),
        "unjudged": "irrelevant-unsupported",
        "words": WORDS_VERSION,
    }
    if extra:
        settings.update(extra)
    settings["version"] = __version__
    return settings


def choose_metrics(*, beta: float = 3.0, err_denominator: str = "residual", votes: bool = False,
                   holistic_file: bool = False, also: Sequence[Metric | str] = (),
                   only: Sequence[Metric | str] | None = None) -> list[Metric]:
    """The metrics ``bolt score`` reports for these options, then ``also`` (metrics or their reprs,
    e.g. ``"nugget_F(beta=5)"``) that are not already among them.

    ``only`` (``bolt score -m``) replaces the default list: exactly these metrics, in this order; a
    bare name (``"nugget_F"``) takes ``beta`` and ``err_denominator`` as the default list would."""
    out: list[Metric] = []
    if only is not None:
        for m in only:
            bare = isinstance(m, str) and "(" not in m
            m = parse_metric(m) if isinstance(m, str) else m
            if bare:
                m = _with_options(m, beta, err_denominator)
            if m not in out:
                out.append(m)
    else:
        out.extend(_with_options(m, beta, err_denominator) for m in DEFAULT_METRICS)
        if votes:
            out.append(pyramid_F(beta=float(beta)))
        if holistic_file:
            out.append(holistic)
    for m in also:
        m = parse_metric(m) if isinstance(m, str) else m
        if m not in out:
            out.append(m)
    return out


def report(topics: Sequence[Any], table: StatsTable, metrics: Sequence[Metric], settings: dict[str, Any],
           series_types: Mapping[str, str] | None = None) -> ScoreReport:
    """Per-topic scores and every aggregate of SPEC §6 from the statistics."""
    names = result_keys(metrics)
    per_topic = topic_scores(table, metrics)
    groups = condition_groups(topics)
    means, conds, series, smeans = {}, {}, {}, {}
    for run, by_topic in per_topic.items():
        means[run] = {n: mean_over(s[n] for s in by_topic.values()) for n in names}
        conds[run] = {g: {"topics": len(ts), **{n: mean_over(by_topic[t][n] for t in ts) for n in names}}
                      for g, ts in groups.items()}
        per_series: dict[str, dict[str, float]] = {}
        for n in names:
            for s, v in series_scores({t: by_topic[t][n] for t in by_topic}, series_types).items():
                per_series.setdefault(s, {})[n] = v
        series[run] = per_series
        smeans[run] = {n: mean_over(v[n] for v in per_series.values()) for n in names} if per_series else {}
    zero = {n: zero_median_topics(per_topic, n) for n in names}
    return ScoreReport(settings, names, per_topic, means, conds, series, smeans, zero,
                       dict(table.unjudged_bullets))


# ------------------------------------------------------------ inputs of evaluation.api.score

def unit_resolver(corpus: Sequence[str] | None = None, index: str | None = None,
                  encoding_errors: str | None = None) -> tuple[UnitResolver | None, str]:
    """(thread, offset) -> post id from a collection or an index (read under ``encoding_errors``,
    ``indexing.corpus.open_corpus``), and the ``units`` setting it gives."""
    if not (corpus or index):
        return None, "judgments"
    from indexing.corpus import open_corpus

    opened = open_corpus(paths=corpus, index_dir=index, encoding_errors=encoding_errors)
    return functools.partial(post_id_at, opened), "corpus"


def read_series_types(path: str | os.PathLike) -> dict[str, str]:
    """``topic<TAB>factoid|list|other`` lines (``--series-types``); errors name the file and line."""
    out = {}
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 2 or cells[1].strip() not in ("factoid", "list", "other"):
            raise ToolkitError("expected topic<TAB>factoid|list|other", file=str(path), line=lineno,
                               hint="one topic per line, its question type after a tab")
        out[cells[0].strip()] = cells[1].strip()
    return out


def check_inputs_for(metrics: Sequence[Metric], *, votes: bool, holistic_file: bool) -> None:
    """A metric asked for whose input was not given is an error, never a column of zeros."""
    missing = {pyramid_F.NAME: (votes, "votes", "give the vital/okay votes TSV (bolt score --votes FILE)"),
               holistic.NAME: (holistic_file, "holistic judgments",
                               "give the holistic judgments file (bolt score --holistic FILE)")}
    for m in metrics:
        given, what, hint = missing.get(m.NAME, (True, "", ""))
        if not given:
            raise ToolkitError(f"metric {m!r} needs {what}, and none were given", hint=hint)


def _with_options(m: Metric, beta: float, err_denominator: str) -> Metric:
    """``m`` with ``bolt score``'s ``--beta`` and ``--err-*`` where it takes them."""
    if "beta" in m.SUPPORTED_PARAMS:
        m = m(beta=float(beta))
    if "denominator" in m.SUPPORTED_PARAMS:
        m = m(denominator=err_denominator)
    return m


def machine_support(judgments: Iterable[Judgment]) -> dict[str, int]:
    """Per run, the cited sources whose support the machine decided and no person did (``judged_by:
    machine`` on the source, or on the whole judgment, as ``bolt assess --reuse`` and ``bolt judge``'s
    prefill write them); runs with none are left out. Judgments that carry no such mark (a person's,
    or ``bolt assess`` alone, whose header names the assessor) count nothing here."""
    from evaluation.judgments.reuse import JUDGED_BY_KEY, persons_verdict

    out: dict[str, int] = {}
    for j in judgments:
        whole = j.extra.get(JUDGED_BY_KEY) == "machine"
        n = sum(1 for s in j.sources if whole or not persons_verdict(s.extra.get(JUDGED_BY_KEY)))
        if n:
            out[j.run] = out.get(j.run, 0) + n
    return out


def judgment_notes(topics: Sequence[Any], runs: Sequence[Any], sets: Sequence[JudgmentSet]) -> dict[str, Any]:
    """Unfinished judgments and unknown facet ids among the judgments being scored (topics and runs)."""
    numbers = {t.topic_id for t in topics}
    run_ids = {r.run_id for r in runs}
    scored = [j for js in sets for j in js.judgments if j.topic_id in numbers and j.run in run_ids]
    return {"unfinished": sum(1 for j in scored if is_unfinished(j.extra)),
            "machine_support": machine_support(scored),
            "unknown_facets": unknown_facets(topics, ((j.topic_id, j.facets) for j in scored)),
            "judged_with": [js.header.get("topics") for js in sets if js.header and js.header.get("topics")]}
