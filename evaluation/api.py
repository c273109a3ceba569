"""Assessing and scoring from Python: one call each, returning what ``bolt assess`` writes and what
``bolt score`` prints from.

    >>> from evaluation.api import assess, score
    >>> judgments = assess(["run.xml"], "topics.xml", index="idx")          # list of Judgment records
    >>> report = score(["run.xml"], "topics.xml", [judgments], index="idx")  # a ScoreReport
    >>> report.means["myrun"]["F_GD"], report.signature

``bolt assess`` and ``bolt score`` are thin layers over :func:`assessment` and :func:`score`: they
parse options, print, and write files. Paths or records are accepted wherever a file is read
(runs, topics, judgments), so a notebook and the command line give the same numbers for the same
inputs (docs/api.md, "Assessing and scoring").
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from evaluation.judgments import Judgment, JudgmentSet, fully_judged_topics
from evaluation.scoring import (UnitResolver, build_stats, choose_metrics, check_inputs_for, judgment_notes,
                                read_series_types, report, settings_dict, unit_resolver, index_judgments)
from indexing.errors import ToolkitError

if TYPE_CHECKING:  # pragma: no cover
    from evaluation.assessor import Assessor, AssessorConfig
    from evaluation.metrics import Metric
    from evaluation.results import ScoreReport

PathOrRecords = Any  # a path, or the records reading it gives


@dataclass
class Assessment:
    """One automatic assessment: the judgments (in run, topic, bullet order), the header a judgments
    file records them under, the runs judged, and how many judgments people's ``reuse`` decided."""

    judgments: list[Judgment]
    header: dict[str, Any]
    runs: list[Any]
    assessor: "Assessor"
    judged_by: dict[str, int] | None = None
    reuse_warning: str | None = None
    stats: dict[str, dict[str, int]] = field(default_factory=dict)


def _topics(topics: PathOrRecords) -> tuple[list[Any], str | None]:
    from bolt.formats.topics import read_topics

    if isinstance(topics, (str, os.PathLike)):
        return read_topics(topics), str(topics)
    return list(topics), None


def read_runs(runs: Iterable[PathOrRecords], *, distinct: bool = True) -> list[Any]:
    """Runs as records, refusing two that share a run id (judgments are keyed by it) when ``distinct``."""
    from bolt.formats.submission import read_run

    out, seen = [], {}
    for r in runs:
        rec = read_run(r) if isinstance(r, (str, os.PathLike)) else r
        if distinct and rec.run_id in seen:
            raise ToolkitError(f"run id {rec.run_id!r} is used by both {seen[rec.run_id]} and {r}", file=str(r),
                               hint="give each run its own id (results/@run or the file name)")
        seen[rec.run_id] = str(r)
        out.append(rec)
    return out


def open_collection(corpus: Sequence[str | os.PathLike] | None = None, index: str | os.PathLike | None = None,
                    encoding_errors: str | None = None):
    """The collection the runs cite (thread files or an index), read under ``encoding_errors`` (left
    out: what the index records, else strict); exactly one of ``corpus`` and ``index``."""
    from indexing.corpus import open_corpus

    if bool(corpus) == bool(index):
        raise ToolkitError("give the collection the runs cite: corpus=[paths] or index=folder (one of them)",
                           hint="bolt assess takes --corpus PATH... or --index DIR")
    return open_corpus(paths=[str(p) for p in corpus] if corpus else None, index_dir=str(index) if index else None,
                       encoding_errors=encoding_errors)


def assessment(runs: Iterable[PathOrRecords], topics: PathOrRecords, *, collection: Any,
               config: "AssessorConfig | None" = None, reuse: Sequence[str | os.PathLike] = (),
               progress: bool = False) -> Assessment:
    """Judge every bullet of ``runs`` against ``topics`` with the automatic assessor, people's
    decisions from ``reuse`` files put in where they judged the same bullet text (docs/judging.md).

    ``collection`` is an opened corpus (:func:`open_collection`). What ``bolt assess`` writes is
    ``write_judgments(result.judgments, out, result.header)``.
    """
    from evaluation.assessor import Assessor, AssessorConfig
    from indexing.encoding import MANIFEST_KEY

    topic_records, topics_path = _topics(topics)
    if not any(t.facets for t in topic_records):
        raise ToolkitError("the topics have no facets to judge against", file=topics_path,
                           hint="pass the full topics file (with <facet> elements), not the query-only form")
    run_records = read_runs(runs)
    assessor = Assessor(topic_records, collection, config or AssessorConfig(), progress=progress)
    header = assessor.header()
    header.update(topics=topics_path or "the topics given",
                  runs={r.run_id: str(getattr(r, "path", r.run_id)) for r in run_records})
    header[MANIFEST_KEY] = collection.encoding_errors
    judgments: Iterable[Judgment] = assessor.assess(run_records)
    result = Assessment([], header, run_records, assessor)
    if reuse:
        judgments = _with_reuse(judgments, result, topic_records, topics_path, collection, reuse)
    result.judgments = list(judgments)
    return result


def _with_reuse(judgments: Iterable[Judgment], result: Assessment, topics: list[Any], topics_path: str | None,
                collection: Any, reuse: Sequence[str | os.PathLike]) -> Iterable[Judgment]:
    import functools

    from evaluation.judgments.reuse import read_reusable, with_human
    from evaluation.metrics.facts import post_id_at

    index = read_reusable(reuse, runs=result.runs, unit_of=functools.partial(post_id_at, collection))
    result.reuse_warning = index.unknown_facets_warning(topics, topics_path or "the topics given")
    result.judged_by = {"human": 0, "mixed": 0, "machine": 0}
    result.header.update(reuse=[str(p) for p in reuse])
    return with_human(judgments, result.runs, index, result.judged_by)


def assess(runs: Iterable[PathOrRecords], topics: PathOrRecords, *, index: str | os.PathLike | None = None,
           corpus: Sequence[str | os.PathLike] | None = None, config: "AssessorConfig | None" = None,
           reuse: Sequence[str | os.PathLike] = (), encoding_errors: str | None = None) -> list[Judgment]:
    """The automatic assessor's judgments of every bullet of ``runs`` (paths or ``Run`` records)
    against ``topics`` (a path or ``Topic`` records), citing the collection at ``index`` or
    ``corpus``: ``bolt assess`` as a function. Give the list to :func:`score` as one judgment set."""
    collection = open_collection(corpus, index, encoding_errors)
    return assessment(runs, topics, collection=collection, config=config, reuse=reuse).judgments


def _judgment_sets(judgments: Sequence[Any]) -> list[JudgmentSet]:
    """Paths, ``JudgmentSet``s, or lists of ``Judgment`` records (what :func:`assess` returns)."""
    from evaluation.judgments import load_judgments

    out = []
    for j in judgments:
        if isinstance(j, (str, os.PathLike)):
            out.append(load_judgments(j))
        elif isinstance(j, JudgmentSet):
            out.append(j)
        else:  # records: hashed as the file write_judgments would write, so the signature still names them
            import hashlib

            from evaluation.judgments import dumps_judgment

            items = tuple(j)
            digest = hashlib.sha256("".join(dumps_judgment(x) + "\n" for x in items).encode("utf-8")).hexdigest()
            out.append(JudgmentSet("<judgments>", None, items, digest))
    return out


def score(runs: Sequence[PathOrRecords], topics: PathOrRecords, judgments: Sequence[Any], *, beta: float = 3.0,
          err_denominator: str = "residual", avg_nugget_words: float | None = None,
          votes: str | os.PathLike | None = None, holistic: str | os.PathLike | None = None,
          corpus: Sequence[str | os.PathLike] | None = None, index: str | os.PathLike | None = None,
          series_types: str | os.PathLike | None = None, also: Sequence["Metric | str"] = (),
          encoding_errors: str | None = None, judged_only: bool = False,
          only: Sequence["Metric | str"] | None = None, unit_of: UnitResolver | None = None) -> "ScoreReport":
    """Score runs from judgments: ``bolt score`` as a function (same settings, same report).

    ``runs``: submission paths or ``Run`` records; ``topics``: a topics path or ``Topic`` records;
    ``judgments``: paths, ``JudgmentSet`` records or lists of ``Judgment`` records. Files are hashed
    into the settings; records given directly are not (their ``sha256`` settings are None).
    ``corpus``/``index`` place cited offsets in posts; without them a citation metric whose units
    only the collection can give is refused (docs/metrics.md). ``unit_of`` is a resolver
    ``(thread, offset) -> post id`` standing in for the collection (its units are marked
    ``given`` in the settings). ``also`` adds metrics (objects or reprs); ``only`` replaces the
    default metrics (``bolt score -m``); ``judged_only`` scores only the topics whose every bullet
    has a finished judgment. The report's ``notes`` say what was noticed (unfinished judgments,
    unknown facet ids, word counts that differ from the text's, support the machine decided).
    """
    from bolt.formats.topics import read_votes
    from evaluation.judgments import file_sha256, read_holistic

    topic_records, topics_path = _topics(topics)
    run_records = read_runs(runs, distinct=False)  # build_stats names a run id given twice
    sets = _judgment_sets(judgments)
    left_out: dict[str, list[str]] = {}
    if judged_only:
        topic_records = _judged_topics(topic_records, run_records, sets, left_out)
    notes = judgment_notes(topic_records, run_records, sets)
    notes["topics_file"] = topics_path if topics_path is not None else "the topics given"
    notes["left_out"] = left_out
    vote_table = read_votes(votes) if votes else None
    hol = read_holistic(holistic) if holistic else None
    if unit_of is not None:
        units = "given"
    else:
        unit_of, units = unit_resolver([str(p) for p in corpus] if corpus else None, str(index) if index else None,
                                       encoding_errors)
    metrics = choose_metrics(beta=beta, err_denominator=err_denominator, votes=vote_table is not None,
                             holistic_file=hol is not None, also=also, only=only)
    check_inputs_for(metrics, votes=vote_table is not None, holistic_file=hol is not None)
    table = build_stats(topic_records, run_records, sets, avg_nugget_words=avg_nugget_words, votes=vote_table,
                        holistic_judgments=hol, unit_of=unit_of, metrics=metrics)
    notes["word_counts"] = table.word_counts
    extra = {"votes_sha256": file_sha256(votes) if votes else None,
             "holistic_sha256": file_sha256(holistic) if holistic else None,
             "series": "trec2004" if series_types else "macro"}
    if judged_only:
        extra["judged_only"] = True
    settings = settings_dict(metrics, table, judgments=sets, topics_count=len(topic_records),
                             topics_sha256=file_sha256(topics_path) if topics_path is not None else None,
                             units=units, extra=extra)
    types = read_series_types(series_types) if series_types else None
    rep = report(topic_records, table, metrics, settings, series_types=types)
    rep.machine_support = dict(notes.pop("machine_support", {}))
    rep.notes = notes
    return rep


def _judged_topics(topics: list[Any], runs: list[Any], sets: list[JudgmentSet],
                   left_out: dict[str, list[str]]) -> list[Any]:
    """The topics whose every bullet has a finished judgment; the others listed in ``left_out``."""
    kept = set(fully_judged_topics([t.topic_id for t in topics], runs, index_judgments(sets)))
    answered = {n for r in runs for n, res in r.results.items() if res.bullets}
    for t in topics:
        if t.topic_id not in kept:
            left_out.setdefault("unfinished" if t.topic_id in answered else "no_bullets", []).append(t.topic_id)
    kept_topics = [t for t in topics if t.topic_id in kept]
    if not kept_topics:
        raise ToolkitError("no topic has a finished judgment for every bullet of these runs",
                           hint="finish judging one topic (press Done on each bullet), or score without "
                                "--judged-only")
    return kept_topics


def corrected(topics: PathOrRecords, machine: Any, people: Any, *, runs: Iterable[str] | None = None,
              level: float = 0.95) -> dict[str, dict[str, dict[str, Any]]]:
    """Each run's R_n, P_n and F_GD from the machine's judgments, corrected by people's judgments of
    a random sample of the same bullets (``evaluation.correction``: a difference estimator, with a
    ``level`` t interval). ``machine`` and ``people``: a judgments path, a ``JudgmentSet`` or
    ``Judgment`` records; ``runs``: run ids to keep (default: every run the machine judged).

    ``{run: {metric: {"machine", "estimate", "ci", "sampled", "bullets"}}}``.
    """
    from evaluation.correction import corrected_scores

    topic_records, _ = _topics(topics)
    (mine,), (theirs,) = _judgment_sets([machine]), _judgment_sets([people])
    keep = set(runs) if runs is not None else None
    judged = [j for j in mine.judgments if keep is None or j.run in keep]
    out = corrected_scores(topic_records, judged, theirs.judgments, level=level)
    return {r: {m: c.as_dict() for m, c in by_m.items()} for r, by_m in out.items()}
