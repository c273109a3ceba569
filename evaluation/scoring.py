"""Scoring runs from judgments: per-topic sufficient statistics, aggregation, and the signature.

The pipeline is sacrebleu's: judgments -> per-topic statistics (:class:`TopicStats`: facets newly
covered in bullet order, wasted words, sources, cited units, ERR sums, length) -> per-topic scores
-> means per run, per condition, per series. Paired tests and the bootstrap resample the per-topic
values (``evaluation.compare``). Pure Python: no model, no JVM, so scoring stays fast.

Rules decided here (documented in ``docs/metrics.md``):
- A bullet counts when one of its sources supports it. A bullet's effective facets ``M_k`` are the
  judged facets that a supporting source supports (a source's ``facets`` narrows them; default all).
  Facet ids unknown to the topics file are ignored and counted (``unknown_facets``).
- A bullet of the run with no judgment is irrelevant with unsupported sources: all its words are
  wasted, its sources count as unsupported; the scorer reports how many it met (``unjudged_bullets``).
- Source unit = (thread, post id). Bullet sources take ``unit`` from the judgment (from the corpus,
  when given, if the judgment has none); nugget citations take it from the corpus when one is given, else from a judged source citing the same
  (thread, offset), else the unit is ``@offset`` (only an exact citation then matches).
- A topic the run did not answer (no ``<result>`` or no bullets) gets each metric's default (0) and
  is counted in the mean, never dropped.
"""
from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from evaluation.judgments import HolisticJudgment, Judgment, JudgmentSet
from evaluation.metrics import DEFAULT_METRICS, Metric, TopicStats, holistic, pyramid_F
from evaluation.metrics.err import err_facet
from indexing.errors import ToolkitError

UnitKey = tuple[str, str]
UnitResolver = Callable[[str, int], "str | None"]  # (thread id, offset) -> post id, None when unknown

_WS = re.compile(r"\s+")
# A word: a run of letters/digits, or one CJK ideograph (Chinese has no spaces between words).
_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

#: TREC 2004 per-series weights (Voorhees 2005): renormalised over the types a series has, which
#: gives 0.67 factoid + 0.33 other for a series without list questions.
TREC2004_WEIGHTS: dict[str, float] = {"factoid": 0.5, "list": 0.25, "other": 0.25}


def count_words(text: str) -> int:
    """Words of a bullet the judgments do not cover: letter/digit runs, one per CJK ideograph."""
    return len(_WORD.findall(text))


def non_ws_chars(text: str) -> int:
    """Non-white-space characters (the ``l`` of the nugget F length allowance)."""
    return len(_WS.sub("", text))


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
    try:  # one definition of a word for the whole toolkit when bolt.topics offers it
        from bolt.topics import average_nugget_words as topics_avg
        if source == "topics":
            value = float(topics_avg(topics))
            if value > 0:
                return value, source
    except ImportError:
        pass
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


def _index_judgments(sets: Iterable[JudgmentSet | Sequence[Judgment]]) -> dict[tuple[str, str, int], Judgment]:
    out: dict[tuple[str, str, int], tuple[Judgment, str]] = {}
    for js in sets:
        name = js.path if isinstance(js, JudgmentSet) else "<judgments>"
        items = js.judgments if isinstance(js, JudgmentSet) else js
        for j in items:
            prev = out.get(j.key)
            if prev is not None:
                raise ToolkitError(f"run {j.run} bullet {j.bullet} of topic {j.topic} is judged twice "
                                   f"(also in {prev[1]}:{prev[0].line})", file=name, line=j.line or None,
                                   hint="score one assessor's judgments at a time; compare assessors with "
                                        "'bolt compare' over separate score files")
            out[j.key] = (j, name)
    return {k: v[0] for k, v in out.items()}


def build_stats(topics: Sequence[Any], runs: Sequence[Any], judgments: Iterable[JudgmentSet | Sequence[Judgment]],
                *, avg_nugget_words: float | None = None, votes: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
                holistic_judgments: Sequence[HolisticJudgment] | None = None,
                unit_of: UnitResolver | None = None) -> StatsTable:
    """Per-topic statistics of every run on every topic.

    ``topics`` are ``bolt.topics.Topic`` records; ``runs`` are ``bolt.submission.Run`` records (only
    ``run_id`` and ``results[number].bullets[k].text`` are read); ``votes`` is ``bolt.topics.read_votes``'
    mapping; ``unit_of`` resolves a nugget citation's post id from the corpus.
    """
    if avg_nugget_words is None:
        avg, avg_source = average_nugget_words(topics)
    else:
        if not avg_nugget_words > 0:
            raise ToolkitError(f"average words per nugget must be positive, got {avg_nugget_words}",
                               hint="give --avg-nugget-words a number above 0")
        avg, avg_source = float(avg_nugget_words), "override"
    jidx = _index_judgments(judgments)
    run_ids = [r.run_id for r in runs]
    if len(set(run_ids)) != len(run_ids):
        dup = next(r for r in run_ids if run_ids.count(r) > 1)
        raise ToolkitError(f"run id {dup} is given twice", hint="give each run file once; run ids must differ")
    topic_numbers = {t.number for t in topics}
    run_set = set(run_ids)
    ignored = sum(1 for (t, r, _) in jidx if t not in topic_numbers or r not in run_set)

    # Judged (thread, offset) -> unit, to place nugget citations when no corpus is given.
    judged_units: dict[tuple[str, int], str] = {}
    for j in jidx.values():
        for s in j.sources:
            if s.unit:
                judged_units.setdefault((s.post, s.offset), s.unit)

    hol: dict[tuple[str, str], list[float]] = {}
    for h in holistic_judgments or ():
        hol.setdefault((h.topic, h.run), []).append(h.score)

    table = StatsTable({r: {} for r in run_ids}, {r: 0 for r in run_ids}, 0, ignored, avg, avg_source,
                       {"corpus": 0, "judgments": 0, "offset": 0})
    for topic in topics:
        _score_topic(topic, runs, jidx, table, judged_units, unit_of, votes, hol)
    return table


def _unit(post: str, unit: str | None, offset: int) -> UnitKey:
    return (post, unit if unit else f"@{offset}")


def _score_topic(topic, runs, jidx, table: StatsTable, judged_units, unit_of, votes, hol) -> None:
    number = topic.number
    facet_ids = [f.id for f in topic.facets]
    known = set(facet_ids)
    importance = {f.id: f.importance for f in topic.facets}
    m = len(facet_ids)
    n_vital = sum(1 for f in topic.facets if f.importance == "vital")

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
            u = _unit(n.post, post_id, n.offset)
            pool.add(u)
            c_i[f.id].add(u)

    # First pass per run: effective facets and supporting units of each bullet.
    per_run: dict[str, list[tuple[Any, Judgment | None, list[str], list[tuple[UnitKey, tuple[str, ...]]]]]] = {}
    for run in runs:
        result = run.results.get(number)
        bullets = tuple(result.bullets) if result is not None else ()
        rows = []
        for k, bullet in enumerate(bullets, start=1):
            j = jidx.get((number, run.run_id, k))
            if j is None:
                table.unjudged_bullets[run.run_id] += 1
                rows.append((bullet, None, [], []))
                continue
            m_k = [f for f in j.facets if f in known]
            table.unknown_facets += len(j.facets) - len(m_k)
            supporting: list[tuple[UnitKey, tuple[str, ...]]] = []
            supported: set[str] = set()
            for s in j.sources:
                if not s.supports:
                    continue
                fs = tuple(f for f in s.facets if f in m_k) if s.facets is not None else tuple(m_k)
                u = _unit(s.post, s.unit or (unit_of(s.post, s.offset) if unit_of else None), s.offset)
                supporting.append((u, fs))
                supported.update(fs)
                pool.add(u)
                for f in fs:
                    c_i[f].add(u)
            eff = [f for f in m_k if f in supported]
            rows.append((bullet, j, eff, supporting))
        per_run[run.run_id] = rows
    table.pool_sizes[number] = len(pool)

    weights: dict[str, float] | None = None
    if votes is not None:
        tv = votes.get(number, {})
        vital_votes = {fid: float(tv.get(fid, {}).get("vital", 0)) for fid in facet_ids}
        top = max(vital_votes.values(), default=0.0)
        weights = {fid: (v / top if top > 0 else 0.0) for fid, v in vital_votes.items()}

    for run in runs:
        rows = per_run[run.run_id]
        covered: list[str] = []
        covered_set: set[str] = set()
        wasted = 0.0
        src_total = src_supp = length = 0
        cited: set[UnitKey] = set()
        err_steps: dict[str, list[tuple[int, int, int, float]]] = {}
        for bullet, j, eff, supporting in rows:
            length += non_ws_chars(bullet.text)
            if j is None:
                wasted += count_words(bullet.text)
                src_total += len(bullet.sources)
                continue
            src_total += len(j.sources)
            src_supp += len(supporting)
            new = [f for f in eff if f not in covered_set]
            if new:
                covered.extend(new)
                covered_set.update(new)
                wasted += j.words - j.responsive_words
            else:
                wasted += j.words
            frac = j.responsive_words / j.words if j.words else 0.0
            units_k = {u for u, _ in supporting}
            for f in eff:
                ci = c_i[f]
                mine = {u for u, fs in supporting if f in fs} - cited
                err_steps.setdefault(f, []).append((len(mine & ci), len(ci - cited), len(ci), frac))
            cited |= units_k
        err_res = sum(_err(steps, True) for steps in err_steps.values())
        err_tot = sum(_err(steps, False) for steps in err_steps.values())
        hs = hol.get((number, run.run_id))
        table.stats[run.run_id][number] = TopicStats(
            topic=number, run=run.run_id, responded=bool(rows), m=m, n_vital=n_vital,
            covered=tuple(covered),
            vital_covered=sum(1 for f in covered if importance[f] == "vital"),
            okay_covered=sum(1 for f in covered if importance[f] != "vital"),
            wasted_words=wasted, avg_nugget_words=table.avg_nugget_words,
            sources_total=src_total, sources_supporting=src_supp,
            units_cited=len(cited & pool), units_relevant=len(pool),
            err_residual=err_res, err_total=err_tot, length=length,
            pyramid_matched=(sum(weights[f] for f in covered) if weights is not None else None),
            pyramid_total=(sum(weights.values()) if weights is not None else None),
            holistic=(sum(hs) / len(hs) if hs else None),
        )


def _err(steps: list[tuple[int, int, int, float]], residual: bool) -> float:
    return err_facet(steps, residual)


# ---------------------------------------------------------------------------------- aggregation

def topic_scores(table: StatsTable, metrics: Sequence[Metric]) -> dict[str, dict[str, dict[str, float]]]:
    """``{run: {topic: {metric name: score}}}`` (names without params: the params are in the settings)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    pairs = [(m.NAME, m.score) for m in metrics]
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
            groups.setdefault(k, []).append(t.number)
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
    for m in metrics:
        for k, v in m.settings().items():
            params[f"{m.NAME}.{k}"] = v
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
    }
    if extra:
        settings.update(extra)
    settings["version"] = __version__
    return settings


def signature(settings: Mapping[str, Any]) -> str:
    """sacrebleu-style ``key:value|...`` line; version last. Long hashes shortened to 12 digits."""
    parts = []
    for k, v in settings["params"].items():
        parts.append(f"{k}:{_fmt(v)}")
    for js in settings.get("judgments", []):
        parts.append(f"judgments:{js['sha256'][:12]}")
    if settings.get("assessors"):
        parts.append(f"assessor:{'+'.join(settings['assessors'])}")
    for key in ("assessor_version", "embedding_model"):
        if settings.get(key):
            parts.append(f"{key}:{'+'.join(settings[key])}")
    skip = {"params", "judgments", "assessors", "assessor_version", "embedding_model", "assessor_meta",
            "metrics", "version", "nugget_units"}
    for k, v in settings.items():
        if k in skip or v is None or isinstance(v, (dict, list)):
            continue
        parts.append(f"{k}:{_fmt(v)[:12] if k.endswith('sha256') else _fmt(v)}")
    parts.append(f"version:{settings.get('version')}")
    return "|".join(parts)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


# ---------------------------------------------------------------------------------- report

@dataclass
class ScoreReport:
    """All numbers of one ``bolt score`` invocation, with their settings."""

    settings: dict[str, Any]
    metrics: list[str]
    topics: dict[str, dict[str, dict[str, float]]]   # run -> topic -> metric -> score
    means: dict[str, dict[str, float]]               # run -> metric -> mean over topics
    conditions: dict[str, dict[str, dict[str, Any]]]  # run -> condition -> {"topics": n, metric: mean}
    series: dict[str, dict[str, dict[str, float]]]   # run -> series -> metric -> score
    series_means: dict[str, dict[str, float]]        # run -> metric -> macro-average over series
    zero_median: dict[str, list[str]]                # metric -> topics
    unjudged: dict[str, int]

    @property
    def signature(self) -> str:
        return signature(self.settings)

    def to_json(self) -> dict[str, Any]:
        runs = {r: {"mean": self.means[r], "topics": self.topics[r], "conditions": self.conditions[r],
                    "series": self.series[r], "series_mean": self.series_means[r],
                    "unjudged_bullets": self.unjudged[r]} for r in self.means}
        return {
            "settings": self.settings,
            "signature": self.signature,
            "runs": runs,
            "zero_median_topics": {m: {"count": len(ts), "topics": ts} for m, ts in self.zero_median.items()},
            "unjudged_bullets": sum(self.unjudged.values()),
        }


def choose_metrics(*, beta: float = 3.0, err_denominator: str = "residual", votes: bool = False,
                   holistic_file: bool = False) -> list[Metric]:
    """The metrics ``bolt score`` reports for these options."""
    out: list[Metric] = []
    for m in DEFAULT_METRICS:
        if "beta" in m.SUPPORTED_PARAMS:
            m = m(beta=float(beta))
        if "denominator" in m.SUPPORTED_PARAMS:
            m = m(denominator=err_denominator)
        out.append(m)
    if votes:
        out.append(pyramid_F(beta=float(beta)))
    if holistic_file:
        out.append(holistic)
    return out


def report(topics: Sequence[Any], table: StatsTable, metrics: Sequence[Metric], settings: dict[str, Any],
           series_types: Mapping[str, str] | None = None) -> ScoreReport:
    """Per-topic scores and every aggregate of SPEC §6 from the statistics."""
    names = [m.NAME for m in metrics]
    if len(set(names)) != len(names):
        raise ValueError("one report holds each metric once; score other params in another report")
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
