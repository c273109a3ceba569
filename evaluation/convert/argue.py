"""NeuCLIR / RAGTIME report evaluation in the ARGUE style: nugget banks and sentence judgments.

Files (hltcoe ARGUE tools, TREC auto-judge ``NuggetBank`` v3), JSON or JSONL:

- nugget banks: ``{"query_id", "title_query", "nugget_bank": {KEY: {"question", "question_id",
  "answers": {TEXT: {"answer": TEXT, ...}}, "aggregator_type": "OR"|"AND"|null, "importance"}}}``, one
  bank per topic (a ``.json`` file holding one bank or a list of banks, or JSONL, one bank per line);
  or the RAGTIME 2026 shape (TREC auto-judge ``Ragtime26NuggetBank``): ``{"metadata": {"topic_id",
  "team_id", "run_id", ...}, "nugget_bank": [{"question", "aggregator_type", "answers": [{"answer",
  "references"}], "importance"}]}`` (questions numbered 1..n in list order). A
  nugget is a question with acceptable answers; ``OR`` (the default) is covered by any answer, ``AND``
  only when every answer is given;
- judgments: one line per report, ``{"report": {NeuCLIR/RAGTIME report}, "judgments": [{"segment_type":
  "sentence", "text", "citations": [{"doc_id"}], "judgments": [{"judgment_type_id": ...,
  "response": {...}}]}]}`` with the judgment types ``SENTENCE_ANSWERS_QUESTION`` (``matched_nuggets``:
  ``question_text`` and ``matched_answer``), ``SENTENCE_ATTESTED`` (``is_attested``, the cited document in
  ``provenance.doc_id``) and ``CITED_DOCUMENT_RELEVANCE`` (``doc_id``, ``is_relevant``);
- report requests (:func:`evaluation.convert.rag.parse_request`): the topics' title and text.

Converted: a topic per bank (facet = nugget question, its acceptable answers as the facet's nugget
texts, the AND/OR aggregators in the topic's ``rules`` as ``argue-aggregators: ID=AND; ...``), a
submission per run (bullet = sentence), and a judgments file (facets of a sentence = the questions it
answers, ``matched_answers`` per question; each source ``supports`` = attested, ``relevant`` kept).
Nugget claims and sub-nuggets are not read (an error says so).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from bolt.formats.submission import Result, read_run, write_run
from bolt.formats.topics import Facet, Nugget, Topic, read_topics, write_topics
from evaluation.convert.common import (NO_DOCUMENT, RULES_PREFIX, Problems, bullet, check_duplicate_texts,
                                       cited_documents, export_with_one_topics_file, format_aggregators,
                                       iter_json_lines, iter_lines, parse_aggregators, write_jsonl)
from evaluation.convert import rag
from evaluation.convert.rag import Report, Request, parse_report, topic_text, warn_topics_without_text
from evaluation.judgments import JudgedSource, Judgment, read_judgments, write_judgments
from indexing.lookup import count_words

FORMAT = "argue"
AGGREGATORS = ("OR", "AND")
ASSESSOR = "argue"


class BankNugget(NamedTuple):
    id: str
    question: str
    answers: tuple[str, ...]
    aggregator: str
    importance: str


class Bank(NamedTuple):
    topic: str
    title: str | None
    nuggets: tuple[BankNugget, ...]
    file: str
    line: int | None


class JudgedSentence(NamedTuple):
    text: str
    citations: tuple[str, ...]
    matched: dict[str, tuple[str, ...]]   # question text -> matched answers
    attested: dict[str, bool]              # doc id -> attested
    relevant: dict[str, bool]              # doc id -> relevant


class JudgedReport(NamedTuple):
    report: Report
    sentences: tuple[JudgedSentence, ...]


# --------------------------------------------------------------------------- aggregators in topic rules


# --------------------------------------------------------------------------- readers


BANK_SHAPES = ('{"query_id", "nugget_bank": {QUESTION: {"question", "answers", "aggregator_type", "importance"}}} '
               '(ARGUE v3, NeuCLIR 2024 / RAGTIME 2025) or {"metadata": {"topic_id", ...}, "nugget_bank": '
               '[{"question", "aggregator_type", "answers": [{"answer", "references"}], "importance"}]} (RAGTIME 2026)')


def _bank(obj: Any, file: str, line: int | None, problems: Problems) -> Bank | None:
    """One topic's bank, in either published shape: ARGUE v3 (``query_id``, ``nugget_bank`` keyed by
    question) or RAGTIME 2026 (``metadata.topic_id``, ``nugget_bank`` a list of questions)."""
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    topic = obj.get("query_id", meta.get("topic_id"))
    bank = obj.get("nugget_bank")
    if isinstance(bank, list):  # RAGTIME 2026: a list of questions, keyed here by position
        bank = {str(i): n for i, n in enumerate(bank, start=1)}
    if isinstance(topic, bool) or not isinstance(topic, (str, int)) or not str(topic).strip() \
            or not isinstance(bank, dict):
        problems.error(file, line, "bank-shape", f"not a nugget bank; expected {BANK_SHAPES}")
        return None
    topic = str(topic).strip()
    out = []
    for pos, (key, n) in enumerate(bank.items(), start=1):
        if not isinstance(n, dict) or not isinstance(n.get("question"), str):
            what = "claims are not read yet; write them as questions" if isinstance(n, dict) and "claim" in n \
                else "each nugget needs a question text"
            problems.error(file, line, "bank-nugget", f"nugget {key!r}: {what}", topic)
            return None
        if n.get("sub_nuggets"):
            problems.error(file, line, "bank-sub-nuggets", f"nugget {key!r} has sub_nuggets, which are not read; "
                           "flatten them into questions", topic)
            return None
        answers = n.get("answers") or {}
        if isinstance(answers, dict):
            texts = tuple(str((a or {}).get("answer", k)) if isinstance(a, dict) else str(k) for k, a in answers.items())
        elif isinstance(answers, list):
            texts = tuple(str(a.get("answer")) if isinstance(a, dict) else str(a) for a in answers)
        else:
            problems.error(file, line, "bank-answers", f"nugget {key!r}: answers must be an object or a list", topic)
            return None
        agg = (n.get("aggregator_type") or "OR").upper()
        if agg == "DEFAULT":
            agg = "OR"
        if agg not in AGGREGATORS:
            problems.error(file, line, "bank-aggregator", f"nugget {key!r}: aggregator {agg!r} is not read; use OR "
                           "or AND", topic)
            return None
        imp = "okay" if str(n.get("importance") or "").lower() in ("okay", "1", "low") else "vital"
        out.append(BankNugget(str(n.get("question_id") or pos), n["question"].strip(), texts, agg, imp))
    return Bank(topic, obj.get("title_query"), tuple(out), file, line)


def iter_banks(path: str | os.PathLike, problems: Problems) -> Iterator[Bank]:
    """Banks of a ``.json`` file (one bank or a list) or of a JSONL file (one per line)."""
    file = str(path)
    if file.endswith((".json", ".json.gz")):
        try:
            doc = json.loads("".join(t + "\n" for _, t in iter_lines(path)))
        except json.JSONDecodeError as exc:
            problems.error(file, exc.lineno, "json", f"not valid JSON ({exc.msg})")
            return
        for obj in doc if isinstance(doc, list) else [doc]:
            b = _bank(obj if isinstance(obj, dict) else {}, file, None, problems)
            if b:
                yield b
        return
    for lineno, obj in iter_json_lines(path, problems):
        b = _bank(obj if isinstance(obj, dict) else {}, file, lineno, problems)
        if b:
            yield b


def _judged(obj: dict, file: str, line: int, problems: Problems) -> JudgedReport | None:
    rep = parse_report(obj.get("report") if isinstance(obj.get("report"), dict) else {}, file, line, problems)
    if rep is None:
        return None
    segs = [s for s in obj.get("judgments") or [] if isinstance(s, dict) and s.get("segment_type", "sentence") == "sentence"]
    if len(segs) != len(rep.sentences):
        problems.error(file, line, "judgments-sentences", f"{len(segs)} judged sentences for a report of "
                       f"{len(rep.sentences)}; judge every sentence once, in order", rep.topic)
        return None
    out = []
    for i, (seg, sent) in enumerate(zip(segs, rep.sentences), start=1):
        if seg.get("text", sent.text).strip() != sent.text.strip():
            problems.error(file, line, "judgments-text", f"judged sentence {i} differs from the report's sentence {i}",
                           rep.topic, i)
            return None
        matched: dict[str, tuple[str, ...]] = {}
        attested: dict[str, bool] = {}
        relevant: dict[str, bool] = {}
        for j in seg.get("judgments") or []:
            kind = j.get("judgment_type_id") if isinstance(j, dict) else None
            resp = j.get("response") or {} if isinstance(j, dict) else {}
            doc = (j.get("provenance") or {}).get("doc_id") if isinstance(j, dict) else None
            if kind == "SENTENCE_ANSWERS_QUESTION":
                for m in resp.get("matched_nuggets") or []:
                    q = str(m.get("question_text", "")).strip()
                    ans = m.get("matched_answer") or []
                    matched[q] = tuple(dict.fromkeys([*matched.get(q, ()), *(str(a) for a in
                                                                             (ans if isinstance(ans, list) else [ans]))]))
            elif kind == "SENTENCE_ATTESTED":
                if not isinstance(resp.get("is_attested"), bool):
                    problems.error(file, line, "judgments-attested", f"sentence {i}: is_attested must be true or false",
                                   rep.topic, i)
                    return None
                for d in ([doc] if doc else sent.citations):
                    attested[d] = attested.get(d, False) or resp["is_attested"]
            elif kind == "CITED_DOCUMENT_RELEVANCE":
                relevant[str(resp.get("doc_id") or doc)] = bool(resp.get("is_relevant"))
        out.append(JudgedSentence(sent.text, sent.citations, matched, attested, relevant))
    return JudgedReport(rep, tuple(out))


def iter_inputs(path: str | os.PathLike, problems: Problems) -> Iterator[Bank | JudgedReport | Report | Request]:
    """A file of banks, of judged reports (``report`` + ``judgments``), of bare reports or of requests."""
    if str(path).endswith((".json", ".json.gz")):
        yield from iter_banks(path, problems)
        return
    for lineno, obj in iter_json_lines(path, problems):
        if not isinstance(obj, dict):
            problems.error(path, lineno, "record-kind", "each line must be a JSON object")
        elif "nugget_bank" in obj:
            b = _bank(obj, str(path), lineno, problems)
            if b:
                yield b
        elif "report" in obj:
            r = _judged(obj, str(path), lineno, problems)
            if r:
                yield r
        elif "responses" in obj or "answer" in obj:
            r = parse_report(obj, str(path), lineno, problems)
            if r:
                yield r
        elif rag.kind_of(obj) == "request":
            q = rag.parse_request(obj, str(path), lineno, problems)
            if q:
                yield q
        else:
            problems.error(path, lineno, "record-kind", "not a nugget bank, a judged report, a report or a "
                           "request (request_id or topic_id + title, problem_statement, background)")


# --------------------------------------------------------------------------- import


class Converted(rag.Converted):
    """What an ARGUE import wrote; the next commands use the ARGUE metrics."""

    def commands(self) -> list[str]:
        if self.judgments is None:
            return [f"bolt validate {' '.join(map(str, self.runs))} --topics {self.topics}"]
        score = self.out / "argue-scores.json"
        return [f"bolt convert score argue --topics {self.topics} --judgments {self.judgments} --json > {score}",
                f"bolt compare {score} --metric argue_f1"]


@dataclass
class _Inputs:
    """What the input files hold, by record kind (a repeat is an error)."""

    banks: dict[str, Bank] = field(default_factory=dict)
    reports: dict[tuple[str, str], JudgedReport | Report] = field(default_factory=dict)  # (run, topic) -> report
    requests: dict[str, Request] = field(default_factory=dict)

    def report_of(self, r: JudgedReport | Report) -> Report:
        return r.report if isinstance(r, JudgedReport) else r


def import_argue(inputs: list[str | os.PathLike], out: str | os.PathLike) -> Converted:
    """Read ARGUE files of any kinds, check them together, and write topics, runs and judgments to ``out``."""
    problems = Problems()
    got = _read_inputs(inputs, problems)
    questions = {t: {n.question: n.id for n in b.nuggets} for t, b in got.banks.items()}
    _check_questions(got, questions, problems)
    topic_ids = list(dict.fromkeys([*got.requests, *got.banks, *(t for _, t in got.reports)]))
    titles = {t: b.title for t, b in got.banks.items() if b.title}
    for r in got.reports.values():
        rep = got.report_of(r)
        if rep.query:
            titles.setdefault(rep.topic, rep.query)
    warn_topics_without_text(topic_ids, lambda t: t in titles or t in got.requests, inputs[0], problems)
    problems.check()

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_topics(_argue_topics(got, topic_ids, titles), out / "topics.xml")
    by_run: dict[str, list[Report]] = {}
    for (run, topic), r in got.reports.items():
        by_run.setdefault(run, []).append(got.report_of(r))
    run_paths = _write_runs(out, by_run, topic_ids)
    js = _argue_judgments(got, questions)
    jpath = None
    if js:
        jpath = out / "judgments.jsonl"
        write_judgments(js, jpath, header={"assessor": f"auto:{ASSESSOR}", "converted_from": FORMAT})
    counts = {"topics": len(topic_ids), "requests": len(got.requests), "banks": len(got.banks), "runs": len(by_run),
              "reports": len(got.reports),
              "judged_reports": sum(isinstance(r, JudgedReport) for r in got.reports.values())}
    return Converted(out, out / "topics.xml", jpath, run_paths, counts, problems.warnings)


def _read_inputs(inputs: list[str | os.PathLike], problems: Problems) -> _Inputs:
    """Every record of every input, by kind; a second bank, request or report of one topic is an error."""
    got = _Inputs()
    for path in inputs:
        for r in iter_inputs(path, problems):
            if isinstance(r, Request):
                if r.topic in got.requests:
                    problems.error(r.file, r.line, "request-duplicate", f"topic {r.topic} has a request already",
                                   r.topic)
                got.requests[r.topic] = r
                continue
            if isinstance(r, Bank):
                if r.topic in got.banks:
                    problems.error(r.file, r.line, "bank-duplicate", f"topic {r.topic} has a bank already", r.topic)
                got.banks[r.topic] = r
                continue
            rep = got.report_of(r)
            key = (rep.run, rep.topic)
            if key in got.reports:
                problems.error(rep.file, rep.line, "report-duplicate", f"run {rep.run} reports on topic {rep.topic} "
                               "again; keep one report", rep.topic)
                continue
            got.reports[key] = r
            check_duplicate_texts(rep.file, rep.line, [s.text for s in rep.sentences], rep.topic, rep.run, problems)
    return got


def _check_questions(got: _Inputs, questions: dict[str, dict[str, str]], problems: Problems) -> None:
    """Every question a judged sentence answers must be a question of its topic's bank (matched by text)."""
    for (run, topic), r in got.reports.items():
        if not isinstance(r, JudgedReport):
            continue
        for i, s in enumerate(r.sentences, start=1):
            for q in s.matched:
                if q not in questions.get(topic, {}):
                    problems.error(r.report.file, r.report.line, "judgment-unknown-question",
                                   f"sentence {i} answers {q[:50]!r}, which is not a question of topic {topic}'s "
                                   "nugget bank; give the bank, or fix the question text", topic, i)


def _argue_topics(got: _Inputs, topic_ids: list[str], titles: dict[str, str]) -> list[Topic]:
    """A topic per id: its bank's questions as facets (answers as nugget texts, aggregators in ``rules``)."""
    topics = []
    for t in topic_ids:
        b = got.banks.get(t)
        facets = tuple(Facet(id=n.id, importance=n.importance, desc=n.question,
                             nuggets=tuple(Nugget(text=a) for a in n.answers)) for n in (b.nuggets if b else ()))
        rules = format_aggregators({n.id: n.aggregator for n in b.nuggets}) if b else None
        query, description = topic_text(got.requests, titles, t)
        topics.append(Topic(topic_id=t, query=query, description=description, facets=facets, rules=rules))
    return topics


def _write_runs(out: Path, by_run: dict[str, list[Report]], topic_ids: list[str]) -> list[Path]:
    """One submission per run, a bullet per sentence, results in topic order."""
    run_paths = []
    for run, reps in by_run.items():
        order = {t: i for i, t in enumerate(topic_ids)}
        results = [Result(topic_id=rep.topic,
                          bullets=tuple(bullet(i, s.text, s.citations) for i, s in enumerate(rep.sentences, 1)))
                   for rep in sorted(reps, key=lambda x: order[x.topic])]
        path = out / "runs" / f"{run}.xml"
        write_run(run, results, path, system=f"converted from {FORMAT}")
        run_paths.append(path)
    return run_paths


def _argue_judgments(got: _Inputs, questions: dict[str, dict[str, str]]) -> list[Judgment]:
    """A judgment per sentence of each judged report: the questions it answers, each source attested or not."""
    js = []
    for (run, topic), r in got.reports.items():
        if not isinstance(r, JudgedReport):
            continue
        ids = questions.get(topic, {})
        for k, s in enumerate(r.sentences, start=1):
            matched = {ids[q]: list(a) for q, a in s.matched.items() if a}
            docs = tuple(dict.fromkeys(s.citations)) or (NO_DOCUMENT,)  # as bullet() writes them
            sources = tuple(JudgedSource(post=d, offset=0, unit=None, supports=bool(s.attested.get(d, False)),
                                         extra={"relevant": s.relevant[d]} if d in s.relevant else {}) for d in docs)
            words = count_words(s.text)
            js.append(Judgment(topic_id=topic, run=run, bullet=k, assessor=f"auto:{ASSESSOR}", facets=tuple(matched),
                               words=words, responsive_words=words, sources=sources,
                               extra={"matched_answers": matched} if matched else {}))
    return js


# --------------------------------------------------------------------------- export


def export_argue(out: str | os.PathLike, *, runs: list, topics: str | os.PathLike,
                 judgments: str | os.PathLike | None = None) -> list[Path]:
    """Write ``nugget-banks.jsonl`` and ``judgments.jsonl`` (reports with their sentence judgments)."""
    out = Path(out)
    ts = read_topics(topics)
    banks = []
    for t in ts:
        if not t.facets:
            continue
        aggs = parse_aggregators(t.rules)
        banks.append({"query_id": t.topic_id, "title_query": t.query, "format_version": "v3", "nugget_bank": {
            f.desc: {"question": f.desc, "question_id": f.id, "query_id": t.topic_id,
                     "answers": {n.text: {"answer": n.text} for n in f.nuggets},
                     "aggregator_type": aggs.get(f.id, "OR"), "importance": f.importance} for f in t.facets}})
    write_jsonl(banks, out / "nugget-banks.jsonl")
    written = [out / "nugget-banks.jsonl"]
    question = {(t.topic_id, f.id): f.desc for t in ts for f in t.facets}
    judged = {(j.topic_id, j.run, j.bullet): j for j in read_judgments(judgments)} if judgments else {}
    rows = []
    for p in runs:
        r = read_run(p)
        for t in ts:
            res = r.results.get(t.topic_id)
            if res is None:
                continue
            refs: list[str] = []
            responses, segs = [], []
            for b in res.bullets:
                cites = cited_documents(b)
                refs += [c for c in cites if c not in refs]
                responses.append({"text": b.text, "citations": cites})
                j = judged.get((t.topic_id, r.run_id, b.position))
                jj = []
                if j is not None:
                    matched = j.extra.get("matched_answers") or {f: [] for f in j.facets}
                    jj.append({"judgment_type_id": "SENTENCE_ANSWERS_QUESTION", "response": {
                        "judgment_type_id": "SENTENCE_ANSWERS_QUESTION",
                        "matched_nuggets": [{"question_text": question.get((t.topic_id, f), f), "matched_answer": a}
                                            for f, a in matched.items()]}})
                    for s in j.sources:
                        if s.post == NO_DOCUMENT:
                            continue
                        jj.append({"judgment_type_id": "SENTENCE_ATTESTED", "provenance": {"doc_id": s.post},
                                   "response": {"judgment_type_id": "SENTENCE_ATTESTED", "is_attested": s.supports}})
                        if "relevant" in s.extra:
                            jj.append({"judgment_type_id": "CITED_DOCUMENT_RELEVANCE", "provenance": {"doc_id": s.post},
                                       "response": {"judgment_type_id": "CITED_DOCUMENT_RELEVANCE", "doc_id": s.post,
                                                    "is_relevant": s.extra["relevant"]}})
                segs.append({"segment_type": "sentence", "text": b.text,
                             "citations": [{"doc_id": c} for c in cites], "judgments": jj})
            rows.append({"report": {"metadata": {"run_id": r.run_id, "topic_id": t.topic_id}, "responses": responses,
                                    "references": refs}, "judgments": segs})
    write_jsonl(rows, out / "judgments.jsonl")
    written.append(out / "judgments.jsonl")
    return written


#: What ``bolt convert export`` calls (the importer takes the input files as given: FORMATS names it directly)
export_cli = partial(export_with_one_topics_file, FORMAT, export_argue)
