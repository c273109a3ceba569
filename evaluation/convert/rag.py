"""TREC RAG 2024/2025 answers, NeuCLIR/RAGTIME reports, and AutoNuggetizer nuggets and assignments.

One reader takes every report shape these tracks use (one JSON object per line), as the TREC
auto-judge tools read them:

- TREC RAG 2024: ``{"run_id", "topic_id", "topic", "references": [docid...], "response_length",
  "answer": [{"text", "citations": [index into references...]}]}``;
- TREC RAG 2025: the same with ``"metadata": {"team_id", "run_id", "narrative_id", "narrative"}``;
- NeuCLIR 2024: ``"metadata": {"team_id", "run_id", "topic_id"}``, ``"responses": [{"text",
  "citations": [docid...]}]``, ``"references"``;
- RAGTIME 2025: ``"responses": [{"text", "citations": {docid: confidence}}]``, ``metadata.request_id``.

AutoNuggetizer (castorini/nuggetizer) files, also JSONL:

- nuggets: ``{"qid", "query", "nuggets": [{"text", "importance": "vital"|"okay"}]}``;
- assignments: ``{"qid", "run_id", "nuggets": [{"text", "importance", "assignment":
  "support"|"partial_support"|"not_support"}]}`` (extra keys such as ``answer_text`` are allowed).

Request/topics files, also JSONL: ``{"topic_id" or "request_id", "title", "problem_statement",
"background", ...}`` (NeuCLIR/RAGTIME report requests; ``limit``, ``collection_ids`` and other keys
are allowed): a topic's query is its title, its description the problem statement and background.

Each input file's kind is recognised from its first record. Converted: one topic per topic id
(facets = nuggets, ids 1..n in the nugget list's order), one submission per run (bullet = answer
sentence, citing each cited document at offset 0; a sentence without citation cites NO-DOCUMENT,
which the exporter drops again), and one judgments file. An assignment judges the whole answer,
not a sentence: the answer's first bullet carries the nuggets assigned ``support`` as its facets and
every nugget's grade in ``nugget_assignments``; the other bullets are judged with no facet. So
``nugget_F`` (coverage and length) is meaningful, the sentence-level metrics (P_n, P_c, ERR...) are
not; the track's own metrics are in :mod:`evaluation.convert.track_metrics`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from bolt.formats.submission import Result, clean_text, read_run, write_run
from bolt.formats.topics import IMPORTANCES, Facet, Topic, read_topics, write_topics
from evaluation.convert.common import (Problems, bullet, check_duplicate_texts, cited_documents,
                                       export_with_one_topics_file, iter_json_lines, judgment, write_jsonl)
from evaluation.convert.track_metrics import UNASSESSED_KEY
from evaluation.judgments import read_judgments, write_judgments

FORMAT = "trec-rag"
GRADES = ("support", "partial_support", "not_support")
ASSESSOR = "auto:autonuggetizer"


class Sentence(NamedTuple):
    text: str
    citations: tuple[str, ...]  # document ids, in the report's order (RAGTIME: by confidence, highest first)


class Report(NamedTuple):
    """One answer/report: the run, the topic, its sentences; ``query`` when the record carries it."""

    run: str
    topic: str
    query: str | None
    sentences: tuple[Sentence, ...]
    references: tuple[str, ...]
    shape: str  # rag24, rag25, neuclir, ragtime
    file: str
    line: int


class Request(NamedTuple):
    """A track's report request (topics file line): what gives a topic its text."""

    topic: str
    title: str | None
    description: str | None
    file: str
    line: int


class NuggetList(NamedTuple):
    topic: str
    query: str | None
    nuggets: tuple[tuple[str, str], ...]  # (text, importance)
    file: str
    line: int


class Assignment(NamedTuple):
    topic: str
    run: str
    nuggets: tuple[tuple[str, str, str], ...]  # (text, importance, grade)
    file: str
    line: int


def _str(v: Any) -> str | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, str)) and str(v).strip():
        return str(v).strip()
    return None


REQUEST_TEXT_KEYS = ("title", "problem_statement", "background")


def kind_of(obj: Any) -> str | None:
    """``report``, ``nuggets``, ``assignments`` or ``request`` from one record; None when it is none of them."""
    if not isinstance(obj, dict):
        return None
    if "answer" in obj or "responses" in obj:
        return "report"
    if isinstance(obj.get("nuggets"), list):
        first = next((n for n in obj["nuggets"] if isinstance(n, dict)), {})
        return "assignments" if "assignment" in first else "nuggets"
    if ("topic_id" in obj or "request_id" in obj) and any(k in obj for k in REQUEST_TEXT_KEYS) \
            and "nugget_bank" not in obj:
        return "request"
    return None


def parse_request(obj: dict, file: str, line: int, problems: Problems) -> Request | None:
    """A report request: the title is the query; problem statement and background the description."""
    topic = _str(obj.get("topic_id")) or _str(obj.get("request_id"))
    texts = {k: _str(obj.get(k)) for k in REQUEST_TEXT_KEYS}
    if topic is None or not any(texts.values()):
        problems.error(file, line, "request-fields", "a request needs topic_id (or request_id) and a title, "
                       "problem_statement or background string")
        return None
    parts = [texts["problem_statement"], f"Background: {texts['background']}" if texts["background"] else None]
    description = " ".join(p for p in parts if p) or None  # topic files keep one line of text
    return Request(topic, texts["title"] or texts["problem_statement"], description, file, line)


def parse_report(obj: dict, file: str, line: int, problems: Problems) -> Report | None:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    run = _str(obj.get("run_id")) or _str(meta.get("run_id"))
    topic = (_str(obj.get("topic_id")) or _str(meta.get("topic_id")) or _str(meta.get("narrative_id"))
             or _str(meta.get("request_id")))
    if run is None or topic is None:
        problems.error(file, line, "report-ids", "a report needs run_id and topic_id (top level, or in metadata: "
                       "run_id and topic_id, narrative_id or request_id)")
        return None
    refs_raw = obj.get("references", [])
    if not isinstance(refs_raw, list) or not all(_str(r) for r in refs_raw):
        problems.error(file, line, "report-references", "references must be a list of document ids", topic)
        return None
    refs = tuple(_str(r) for r in refs_raw)
    sentences_raw = obj.get("answer") if "answer" in obj else obj.get("responses")
    shape = ("rag25" if meta else "rag24") if "answer" in obj else "neuclir"
    if not isinstance(sentences_raw, list):
        problems.error(file, line, "report-sentences", "answer/responses must be a list of {text, citations}", topic)
        return None
    out = []
    for i, s in enumerate(sentences_raw, start=1):
        if not isinstance(s, dict) or not isinstance(s.get("text"), str):
            problems.error(file, line, "report-sentence", f"sentence {i} must be an object with a text string",
                           topic, i)
            return None
        cites = s.get("citations") or []
        if isinstance(cites, dict):  # RAGTIME: {docid: confidence}; keep the highest confidence first
            shape = "ragtime"
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in cites.values()):
                problems.error(file, line, "report-citations", f"sentence {i}: citation confidences must be numbers",
                               topic, i)
                return None
            docs = [d for d, _ in sorted(cites.items(), key=lambda kv: -kv[1])]
        elif isinstance(cites, list) and all(type(c) is int for c in cites):
            bad = [c for c in cites if not 0 <= c < len(refs)]
            if bad:
                problems.error(file, line, "report-citation-index", f"sentence {i} cites reference {bad[0]}, but "
                               f"references has {len(refs)} entries (indices from 0)", topic, i)
                return None
            docs = [refs[c] for c in cites]
        elif isinstance(cites, list) and all(_str(c) for c in cites):
            docs = [_str(c) for c in cites]
        else:
            problems.error(file, line, "report-citations", f"sentence {i}: citations must be reference indices, "
                           "document ids, or {docid: confidence}", topic, i)
            return None
        out.append(Sentence(s["text"], tuple(docs)))
    query = _str(obj.get("topic")) or _str(meta.get("narrative")) or _str(meta.get("title"))
    return Report(run, topic, query, tuple(out), refs, shape, file, line)


def _nuggets(obj: dict, file: str, line: int, problems: Problems, graded: bool):
    topic = _str(obj.get("qid")) or _str(obj.get("topic_id"))
    if topic is None:
        problems.error(file, line, "nuggets-qid", "each record needs a qid")
        return None
    out = []
    for i, n in enumerate(obj["nuggets"], start=1):
        if not isinstance(n, dict) or not _str(n.get("text")):
            problems.error(file, line, "nugget-text", f"nugget {i} needs a text", topic)
            return None
        imp = n.get("importance")
        if imp not in IMPORTANCES:
            problems.error(file, line, "nugget-importance", f"nugget {i} importance {imp!r} must be vital or okay",
                           topic)
            return None
        if graded:
            g = n.get("assignment")
            if g not in GRADES:
                problems.error(file, line, "nugget-assignment", f"nugget {i} assignment {g!r} must be one of "
                               f"{', '.join(GRADES)}", topic)
                return None
            out.append((n["text"].strip(), imp, g))
        else:
            out.append((n["text"].strip(), imp))
    return topic, tuple(out)


def iter_records(path: str | os.PathLike, problems: Problems
                 ) -> Iterator[Report | NuggetList | Assignment | Request]:
    """Stream one input file; its kind is that of its first record, and every record must be of it."""
    kind = None
    file = str(path)
    for lineno, obj in iter_json_lines(path, problems):
        k = kind_of(obj)
        if k is None:
            bank = " (an ARGUE or RAGTIME nugget bank: import it with 'bolt convert import argue')" \
                if isinstance(obj, dict) and "nugget_bank" in obj else ""
            problems.error(file, lineno, "record-kind", "not a report (answer/responses), a nugget list or an "
                           "assignment (qid + nuggets), or a request (topic_id or request_id + title, "
                           f"problem_statement, background){bank}")
            continue
        if kind is None:
            kind = k
        elif k != kind:
            problems.error(file, lineno, "record-kind", f"a {k} record in a file of {kind} records; keep one kind "
                           "per file")
            continue
        if k == "report":
            r = parse_report(obj, file, lineno, problems)
        elif k == "request":
            r = parse_request(obj, file, lineno, problems)
        elif k == "nuggets":
            got = _nuggets(obj, file, lineno, problems, graded=False)
            r = NuggetList(got[0], _str(obj.get("query")), got[1], file, lineno) if got else None
        else:
            got = _nuggets(obj, file, lineno, problems, graded=True)
            run = _str(obj.get("run_id"))
            if got and run is None:
                problems.error(file, lineno, "assignment-run", "an assignment needs the run_id of the judged answer",
                               got[0])
                got = None
            r = Assignment(got[0], run, got[1], file, lineno) if got else None
        if r is not None:
            yield r


def merge_repeats(sentences: tuple[Sentence, ...]) -> tuple[tuple[Sentence, ...], list[tuple[int, int]]]:
    """The sentences with each repeat of an earlier text (after white-space collapsing, as our bullets
    compare texts) merged into its first copy, whose citations gain the repeat's; and the
    ``(repeat, first)`` positions (1-based). Our submissions hold a text once per response."""
    out: list[Sentence] = []
    first: dict[str, tuple[int, int]] = {}  # text -> (index in out, position in the answer)
    repeats: list[tuple[int, int]] = []
    for i, s in enumerate(sentences, start=1):
        key = clean_text(s.text)
        if key and key in first:
            k, pos = first[key]
            out[k] = out[k]._replace(citations=tuple(dict.fromkeys([*out[k].citations, *s.citations])))
            repeats.append((i, pos))
            continue
        first[key] = (len(out), i)
        out.append(s)
    return tuple(out), repeats


def topic_text(requests: dict[str, "Request"], queries: dict[str, str], topic: str) -> tuple[str, str | None]:
    """(query, description) of a topic: its request's title and statement, else the query another input gave."""
    r = requests.get(topic)
    if r is not None and r.title:
        return r.title, r.description
    return queries.get(topic, topic), (r.description if r else None)


def warn_topics_without_text(topic_ids: list[str], has_text: Any, file: str | os.PathLike, problems: Problems) -> None:
    """One warning naming every topic no input gives a text (its query is then its id)."""
    missing = [t for t in topic_ids if not has_text(t)]
    if missing:
        shown = ", ".join(missing[:10]) + (", ..." if len(missing) > 10 else "")
        problems.warning(file, None, "topic-no-text", f"{len(missing)} topic(s) have no text in the inputs "
                         f"({shown}); their query is the topic id: give the track's request/topics file "
                         "(topic_id or request_id, title, problem_statement, background) too")


@dataclass
class Converted:
    out: Path
    topics: Path
    judgments: Path | None
    runs: list[Path]
    counts: dict[str, int]
    warnings: list = field(default_factory=list)

    def commands(self) -> list[str]:
        runs = " ".join(str(p) for p in self.runs)
        if self.judgments is None:
            return [f"bolt validate {runs} --topics {self.topics}"]
        return [f"bolt score {runs} --topics {self.topics} --judgments {self.judgments} --json > "
                f"{self.out / 'scores.json'}",
                f"bolt convert score autonuggetizer --topics {self.topics} --judgments {self.judgments} --json > "
                f"{self.out / 'track-scores.json'}",
                f"bolt compare {self.out / 'track-scores.json'} --metric AN_vital"]


def _keep_first(seen: dict, r, rule: str, what: str, problems) -> bool:
    """Keep ``r`` as its topic's first ``what``; a second one is an error naming the first place."""
    first = seen.get(r.topic)
    if first is not None:
        problems.error(r.file, r.line, rule, f"topic {r.topic} has {what} already at {first.file}:{first.line}; "
                       "keep one", r.topic)
        return False
    seen[r.topic] = r
    return True


@dataclass
class _Inputs:
    """What the input files hold, sorted by record kind (first of each kept; repeats are errors)."""

    reports: dict[str, dict[str, Report]] = field(default_factory=dict)  # run -> topic -> answer
    nugget_lists: dict[str, NuggetList] = field(default_factory=dict)
    assignments: list[Assignment] = field(default_factory=list)
    queries: dict[str, str] = field(default_factory=dict)
    requests: dict[str, Request] = field(default_factory=dict)
    repeated: int = 0  # sentences kept once because an answer repeated them


def import_rag(inputs: list[str | os.PathLike], out: str | os.PathLike) -> Converted:
    """Read TREC RAG files of any kinds, check them together, and write topics, runs and judgments to ``out``."""
    problems = Problems()
    got = _read_inputs(inputs, problems)
    facets = _topic_facets(got, inputs, problems)
    topic_ids = list(dict.fromkeys([*got.requests, *facets, *(t for by in got.reports.values() for t in by)]))
    assessed = _check_assignments(got, facets, problems)
    unassessed = _warn_unassessed(got, assessed, problems)
    warn_topics_without_text(topic_ids, lambda t: t in got.queries or t in got.requests, inputs[0], problems)
    problems.check()
    return _write_rag(Path(out), got, facets, topic_ids, unassessed, problems)


def _read_inputs(inputs: list[str | os.PathLike], problems: Problems) -> _Inputs:
    """Every record of every input, by kind; an answer's repeated sentences are merged (a warning)."""
    got = _Inputs()
    for path in inputs:
        for r in iter_records(path, problems):
            if isinstance(r, Report):
                first = got.reports.setdefault(r.run, {}).get(r.topic)
                if first is not None:
                    problems.error(r.file, r.line, "report-duplicate", f"run {r.run} answers topic {r.topic} again "
                                   f"(first at {first.file}:{first.line}); keep one answer", r.topic)
                    continue
                merged, repeats = merge_repeats(r.sentences)
                for i, k in repeats:
                    problems.warning(r.file, r.line, "repeated-sentence", f"run {r.run}: sentence {i} repeats "
                                     f"sentence {k}; kept once (a response holds a text once), its citations "
                                     f"added to sentence {k}", r.topic)
                got.repeated += len(repeats)
                r = r._replace(sentences=merged)
                got.reports[r.run][r.topic] = r
                check_duplicate_texts(r.file, r.line, [s.text for s in r.sentences], r.topic, r.run, problems)
                if r.query:
                    got.queries.setdefault(r.topic, r.query)
            elif isinstance(r, Request):
                _keep_first(got.requests, r, "request-duplicate", "a request", problems)
            elif isinstance(r, NuggetList):
                if _keep_first(got.nugget_lists, r, "nuggets-duplicate", "a nugget list", problems) and r.query:
                    got.queries[r.topic] = r.query
            else:
                got.assignments.append(r)
    return got


def _topic_facets(got: _Inputs, inputs: list[str | os.PathLike],
                  problems: Problems) -> dict[str, tuple[tuple[str, str], ...]]:
    """Each topic's (nugget text, importance) pairs: the nugget lists, else the first assignment of each
    topic (a text twice in one topic is an error: nuggets are matched by text)."""
    facets: dict[str, tuple[tuple[str, str], ...]] = {t: n.nuggets for t, n in got.nugget_lists.items()}
    for a in got.assignments:
        facets.setdefault(a.topic, tuple((t, i) for t, i, _ in a.nuggets))
    for t, fs in facets.items():
        texts = [x for x, _ in fs]
        if len(set(texts)) != len(texts):
            src = got.nugget_lists.get(t)
            problems.error(src.file if src else inputs[0], src.line if src else None, "nuggets-repeated",
                           f"topic {t} lists a nugget text twice; nuggets are matched by text, keep one", t)
    return facets


def _check_assignments(got: _Inputs, facets: dict[str, tuple[tuple[str, str], ...]],
                       problems: Problems) -> dict[tuple[str, str], int]:
    """Each assignment against its topic's nuggets and the answers given; returns the line of each
    assessed (topic, run)."""
    seen_a: dict[tuple[str, str], int] = {}
    for a in got.assignments:
        ids = {x: str(i) for i, (x, _) in enumerate(facets.get(a.topic, ()), start=1)}
        for text, imp, _ in a.nuggets:
            if text not in ids:
                problems.error(a.file, a.line, "assignment-unknown-nugget", f"nugget {text[:40]!r} is not in the "
                               f"nugget list of topic {a.topic}; assign the listed nuggets", a.topic)
        if (a.topic, a.run) in seen_a:
            problems.error(a.file, a.line, "assignment-duplicate", f"run {a.run} on topic {a.topic} is assigned "
                           f"again (first at line {seen_a[(a.topic, a.run)]})", a.topic)
        seen_a[(a.topic, a.run)] = a.line
        if got.reports and a.topic not in got.reports.get(a.run, {}):
            problems.error(a.file, a.line, "assignment-no-answer", f"run {a.run} has no answer to topic {a.topic} "
                           "among the inputs; give its answers file too", a.topic)
    return seen_a


def _warn_unassessed(got: _Inputs, assessed: dict[tuple[str, str], int],
                     problems: Problems) -> list[tuple[str, str]]:
    """(run, topic) of answers no assignment judged: left out of the AutoNuggetizer means (as nuggetizer),
    said here (one warning per run) and at scoring. None when there are no assignments at all."""
    unassessed = [(run, t) for run, by_t in got.reports.items() for t in by_t if (t, run) not in assessed] \
        if got.assignments else []
    for run in dict.fromkeys(run for run, _ in unassessed):
        ts = [t for r, t in unassessed if r == run]
        first = got.reports[run][ts[0]]
        problems.warning(first.file, first.line, "assignment-missing", f"run {run} answered {len(ts)} topic(s) "
                         f"that no assignment judges ({', '.join(ts[:10])}{', ...' if len(ts) > 10 else ''}); "
                         "AutoNuggetizer scores only assigned answers: they are left out of the run's mean",
                         ts[0])
    return unassessed


def _rag_judgments(got: _Inputs, facets: dict[str, tuple[tuple[str, str], ...]]) -> list:
    """One judgment per sentence of each assessed answer; the answer's grades ride on its bullet 1."""
    js = []
    for a in got.assignments:
        ids = {x: str(i) for i, (x, _) in enumerate(facets[a.topic], start=1)}
        grades = {ids[text]: g for text, _, g in a.nuggets}
        supported = [f for f, g in grades.items() if g == "support"]
        rep = got.reports.get(a.run, {}).get(a.topic)
        # An empty (or absent) answer still keeps its grades, on a bullet 1 that bolt score ignores.
        sentences = rep.sentences if rep and rep.sentences else (Sentence("", ()),)
        for k, s in enumerate(sentences, start=1):
            extra = {"nugget_assignments": grades, "assignment_level": "answer"} if k == 1 else {}
            js.append(judgment(a.topic, a.run, k, ASSESSOR, s.text, supported if k == 1 else [], s.citations,
                               extra))
    return js


def _write_rag(out: Path, got: _Inputs, facets: dict[str, tuple[tuple[str, str], ...]], topic_ids: list[str],
               unassessed: list[tuple[str, str]], problems: Problems) -> Converted:
    """Write our formats: topics, one run per RAG run, and the judgments when there are assignments."""
    out.mkdir(parents=True, exist_ok=True)
    topics = []
    for t in topic_ids:
        query, description = topic_text(got.requests, got.queries, t)
        topics.append(Topic(topic_id=t, query=query, description=description,
                            facets=tuple(Facet(id=str(i), importance=imp, desc=text)
                                         for i, (text, imp) in enumerate(facets.get(t, ()), start=1))))
    write_topics(topics, out / "topics.xml")
    run_paths = []
    for run, by_t in got.reports.items():
        results = [Result(topic_id=t,
                          bullets=tuple(bullet(i, s.text, s.citations) for i, s in enumerate(by_t[t].sentences, 1)))
                   for t in topic_ids if t in by_t]
        path = out / "runs" / f"{run}.xml"
        write_run(run, results, path, system=f"converted from {FORMAT}")
        run_paths.append(path)
    jpath = None
    if got.assignments:
        jpath = out / "judgments.jsonl"
        header = {"assessor": ASSESSOR, "converted_from": "autonuggetizer"}
        if unassessed:
            header[UNASSESSED_KEY] = [list(x) for x in unassessed]
        write_judgments(_rag_judgments(got, facets), jpath, header=header)
    counts = {"topics": len(topic_ids), "requests": len(got.requests), "runs": len(got.reports),
              "answers": sum(len(v) for v in got.reports.values()), "repeated_sentences": got.repeated,
              "nugget_lists": len(got.nugget_lists), "assignments": len(got.assignments),
              "unassessed_answers": len(unassessed)}
    return Converted(out, out / "topics.xml", jpath, run_paths, counts, problems.warnings)


def export_rag(out: str | os.PathLike, *, runs: list, topics: str | os.PathLike,
               judgments: str | os.PathLike | None = None) -> list[Path]:
    """Write ``answers.jsonl`` (TREC RAG 2024 shape), ``nuggets.jsonl`` and ``assignments.jsonl``."""
    out = Path(out)
    ts = read_topics(topics)
    written = []
    answers = []
    texts: dict[tuple[str, str], list[str]] = {}
    for p in runs:
        r = read_run(p)
        for t in ts:
            res = r.results.get(t.topic_id)
            if res is None:
                continue
            refs: list[str] = []
            sentences = []
            for b in res.bullets:
                docs = cited_documents(b)
                refs += [d for d in docs if d not in refs]
                sentences.append({"text": b.text, "citations": [refs.index(d) for d in docs]})
            texts[(r.run_id, t.topic_id)] = [b.text for b in res.bullets]
            answers.append({"run_id": r.run_id, "topic_id": t.topic_id, "topic": t.query, "references": refs,
                            "response_length": sum(len(b.text.split()) for b in res.bullets), "answer": sentences})
    write_jsonl(answers, out / "answers.jsonl")
    written.append(out / "answers.jsonl")
    write_jsonl(({"qid": t.topic_id, "query": t.query,
                  "nuggets": [{"text": f.desc, "importance": f.importance} for f in t.facets]} for t in ts if t.facets),
                out / "nuggets.jsonl")
    written.append(out / "nuggets.jsonl")
    if judgments:
        from evaluation.convert.track_metrics import autonugget_stats

        rows = []
        for run, by_topic in autonugget_stats(ts, read_judgments(judgments)).items():
            for t in ts:
                g = by_topic[t.topic_id]
                if not g.responded:
                    continue
                rows.append({"qid": t.topic_id, "run_id": run, "query": t.query,
                             "answer_text": " ".join(texts.get((run, t.topic_id), [])),
                             "nuggets": [{"text": f.desc, "importance": f.importance, "assignment": grade}
                                         for f, (_, grade) in zip(t.facets, g.grades)]})
        write_jsonl(rows, out / "assignments.jsonl")
        written.append(out / "assignments.jsonl")
    return written


#: What ``bolt convert export`` calls (the importer takes the input files as given: FORMATS names it directly)
export_cli = partial(export_with_one_topics_file, FORMAT, export_rag)
