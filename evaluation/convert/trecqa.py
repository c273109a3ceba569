"""TREC QA definition / "other" questions (2003-2006) and nugget-pyramid votes (seed 002).

Two layouts of the runs and their judgments are read. NIST's published one (TREC 2005 QA data,
``README.list+other.results``): one ``RUN.otherjudged`` file per run (in the folder or its ``other/``
subfolder) holding, per question, first the run's items ``QID TAG ITEM-NUMBER DOCNO string`` and then
the nuggets found in them ``QID TAG ITEM-NUMBER NUGGET-NUMBER``. Or the layout the seed papers describe
(``responses`` + ``judgments`` below). Both with, in plain whitespace-separated lines (docs/formats.md
gives examples):

- ``questions``: ``QID question or target text`` (``QID`` = ``1`` or series.question ``1.5``);
- ``nuggets``: the answer key, ``QID NUGGET-ID vital|okay nugget text``;
- ``responses``: the runs, ``QID RUNTAG DOCID answer text`` (one run's items contiguous and in order;
  a line of asterisks between runs is allowed, as in the pilot);
- ``judgments``: the assessor's assignments, ``QID RUNTAG ITEM NUGGET-ID DOCID [marked text]``: nugget
  NUGGET-ID appears in item ITEM (1-based) of the run's response; items without nuggets have no line;
- ``votes`` (optional, seed 002): ``QID NUGGET-ID LABEL...``, one label per assessor (``vital``, ``okay``
  or ``-`` for neither); a first line ``# assessors: NAME NAME ...`` names the columns.

Scoring the converted files: ``nugget_F`` (β = 3 from TREC 2004; ``--beta 5`` for 2003) and, with
``--votes``, ``pyramid_F`` (weight = vital votes / most vital votes of the question).
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, NamedTuple

from bolt.formats.submission import read_run
from bolt.formats.topics import IMPORTANCES, VOTES_HEADER, Facet, Topic, read_topics, read_votes, write_topics, write_votes
from evaluation.convert.aquaint import (ASSESSOR_PREFIX, PilotItem, PilotMark, item_judgments, iter_items, iter_marks,
                                        iter_questions, write_item_runs)
from evaluation.convert.common import (Problems, check_duplicate_texts, iter_lines, judgment, mark_lines,
                                       one_folder, one_topics_file, write_lines)
from evaluation.judgments import read_judgments, write_judgments
from indexing.errors import ToolkitError

FORMAT = "trec-qa"
QID = re.compile(r"^[0-9]+(?:\.[0-9]+)*$")
_NUGGET_ID = re.compile(r"^[0-9]+$")
_LABELS = ("vital", "okay", "-")
ASSESSOR = "nist"  # the judgments' assessor when none is named


class AnswerKeyNugget(NamedTuple):
    """A line of ``nuggets``."""

    qid: str
    nugget: str
    importance: str
    text: str
    line: int


class VoteRow(NamedTuple):
    """A line of ``votes``: each assessor's label of one nugget."""

    qid: str
    nugget: str
    labels: tuple[str, ...]
    line: int


def iter_answer_key(path: str | os.PathLike, problems: Problems) -> Iterator[AnswerKeyNugget]:
    for lineno, text in iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.split(None, 3)
        if len(fields) < 4:
            problems.error(path, lineno, "nugget-fields", "expected 'QID NUGGET-ID vital|okay nugget text'")
            continue
        qid, nid, imp, body = fields
        if not QID.match(qid) or not _NUGGET_ID.match(nid):
            problems.error(path, lineno, "nugget-id", f"question {qid!r} and nugget {nid!r} must be numbers "
                           "(question 1 or 1.5, nugget 1, 2, ...)")
            continue
        if imp.lower() not in IMPORTANCES:
            problems.error(path, lineno, "nugget-importance", f"importance {imp!r} must be vital or okay", qid)
            continue
        yield AnswerKeyNugget(qid, nid, imp.lower(), body.strip(), lineno)


def read_otherjudged(path: str | os.PathLike, problems: Problems) -> tuple[list[PilotItem], list[PilotMark]]:
    """The items and nugget marks of a NIST ``RUN.otherjudged`` file.

    Item lines ``QID TAG ITEM-NUMBER DOCNO string`` (items numbered 1, 2, ... per question, as NIST
    counts the strings submitted) and mark lines ``QID TAG ITEM-NUMBER NUGGET-NUMBER`` (nugget NUGGET of
    the answer key found in that item). A mark takes its item's document.
    """
    items: list[PilotItem] = []
    raw_marks: list[tuple[str, str, int, str, int]] = []
    last: dict[tuple[str, str], int] = {}
    for lineno, text in iter_lines(path):
        if not text.strip():
            continue
        fields = text.split(None, 4)
        if len(fields) < 4 or not QID.match(fields[0]) or not fields[2].isdigit() or int(fields[2]) < 1:
            problems.error(path, lineno, "otherjudged-fields", "expected 'QID TAG ITEM-NUMBER DOCNO string' (an "
                           "item) or 'QID TAG ITEM-NUMBER NUGGET-NUMBER' (a nugget found in it); items count from 1")
            continue
        qid, run, item = fields[0], fields[1], int(fields[2])
        if len(fields) == 4 and _NUGGET_ID.match(fields[3]):
            raw_marks.append((qid, run, item, fields[3], lineno))
            continue
        key = (qid, run)
        if item != last.get(key, 0) + 1:
            problems.error(path, lineno, "otherjudged-item-number", f"item {item} of run {run} follows item "
                           f"{last.get(key, 0)}; number the items 1, 2, ... in submitted order", qid)
            continue
        last[key] = item
        items.append(PilotItem(qid, run, item, fields[3], fields[4].strip() if len(fields) > 4 else "", lineno))
    docs = {(i.qnum, i.run, i.item): i.docid for i in items}
    marks = [PilotMark(q, r, i, n, docs.get((q, r, i), ""), "", line) for q, r, i, n, line in raw_marks]
    return items, marks


def otherjudged_files(root: Path) -> list[Path]:
    """The ``*.otherjudged`` files of a folder and of its ``other/`` subfolder (NIST's layout)."""
    return sorted(root.glob("*.otherjudged")) + sorted((root / "other").glob("*.otherjudged"))


def iter_votes(path: str | os.PathLike, problems: Problems) -> tuple[list[str], Iterator[VoteRow]]:
    """The assessor names (from ``# assessors:``, else A1..An) and the rows."""
    rows: list[VoteRow] = []
    names: list[str] = []
    for lineno, text in iter_lines(path):
        if not text.strip():
            continue
        if text.lstrip().startswith("#"):
            m = re.match(r"^\s*#\s*assessors\s*:\s*(.+)$", text)
            if m and not rows:
                names = m.group(1).split()
            continue
        fields = text.split()
        if len(fields) < 3 or not QID.match(fields[0]) or not _NUGGET_ID.match(fields[1]):
            problems.error(path, lineno, "votes-fields", "expected 'QID NUGGET-ID' then one label per assessor "
                           "(vital, okay or -)")
            continue
        bad = [x for x in fields[2:] if x.lower() not in _LABELS]
        if bad:
            problems.error(path, lineno, "votes-label", f"label {bad[0]!r} must be vital, okay or -", fields[0])
            continue
        n = len(names) or len(fields) - 2
        if len(fields) - 2 != n:
            problems.error(path, lineno, "votes-columns", f"{len(fields) - 2} labels but {n} assessors; "
                           "give one label per assessor (- for none)", fields[0])
            continue
        rows.append(VoteRow(fields[0], fields[1], tuple(x.lower() for x in fields[2:]), lineno))
    if not names and rows:
        names = [f"A{i}" for i in range(1, len(rows[0].labels) + 1)]
    return names, iter(rows)


@dataclass
class Converted:
    out: Path
    topics: Path
    judgments: Path
    runs: list[Path]
    votes: Path | None
    counts: dict[str, int]
    warnings: list = field(default_factory=list)

    def commands(self, beta: float = 3) -> list[str]:
        runs = " ".join(str(p) for p in self.runs)
        votes = f" --votes {self.votes}" if self.votes else ""
        score = self.out / "scores.json"
        return [f"bolt score {runs} --topics {self.topics} --judgments {self.judgments} --beta {beta:g}{votes} "
                f"--json > {score}",
                f"bolt compare {score} --metric nugget_F"]


Items = dict[str, dict[str, list[PilotItem]]]  # run -> question -> items


def import_trecqa(folder: str | os.PathLike, out: str | os.PathLike, assessor: str = ASSESSOR) -> Converted:
    """Read a TREC QA folder, check it whole, and write topics, runs, judgments (and votes) to ``out``."""
    root = Path(folder)
    judged = otherjudged_files(root)
    _check_folder(root, judged)
    problems = Problems()
    questions = _read_questions(root, problems)
    key, seen = _read_answer_key(root, questions, problems)
    item_lines, mark_lines_ = _item_and_mark_lines(root, judged, problems)
    items = _read_items(item_lines, questions, problems)
    marks = _read_marks(mark_lines_, items, seen, problems)
    vote_rows = _read_vote_rows(root, seen, problems)
    problems.check()
    return _write_trecqa(root, Path(out), assessor, questions, key, items, marks, vote_rows, len(seen), problems)


def _check_folder(root: Path, judged: list[Path]) -> None:
    """The files the folder must hold: questions and nuggets, then NIST's files or responses and judgments."""
    needed = ("questions", "nuggets") if judged else ("questions", "nuggets", "responses", "judgments")
    for name in needed:
        if not (root / name).is_file():
            raise ToolkitError(f"no '{name}' file in the folder", file=str(root),
                               hint="a trec-qa folder holds questions, nuggets and either NIST's RUN.otherjudged "
                                    "files or responses and judgments, optionally votes (docs/formats.md)")


def _read_questions(root: Path, problems: Problems) -> dict:
    """The questions by QID (a repeated QID is an error)."""
    questions = {}
    for q in iter_questions(root / "questions", problems):
        if q.qnum in questions:
            problems.error(root / "questions", q.line, "question-duplicate", f"question {q.qnum} appears again")
        questions[q.qnum] = q
    return questions


def _read_answer_key(root: Path, questions: dict,
                     problems: Problems) -> tuple[dict[str, list[AnswerKeyNugget]], dict[tuple[str, str], int]]:
    """The answer key by QID, and the line of each (QID, nugget) (a nugget of no question, or twice: errors)."""
    key: dict[str, list[AnswerKeyNugget]] = defaultdict(list)
    seen: dict[tuple[str, str], int] = {}
    for n in iter_answer_key(root / "nuggets", problems):
        if n.qid not in questions:
            problems.error(root / "nuggets", n.line, "nugget-unknown-question", f"question {n.qid} is not in "
                           "questions; add it there", n.qid)
        elif (n.qid, n.nugget) in seen:
            problems.error(root / "nuggets", n.line, "nugget-duplicate", f"nugget {n.nugget} of question {n.qid} "
                           f"again (first at line {seen[(n.qid, n.nugget)]})", n.qid)
        else:
            seen[(n.qid, n.nugget)] = n.line
            key[n.qid].append(n)
    return key, seen


def _item_and_mark_lines(root: Path, judged: list[Path], problems: Problems
                         ) -> tuple[list[tuple[Path, PilotItem]], list[tuple[Path, PilotMark]]]:
    """(file, record) pairs of items and marks: NIST's one file per run, or the seed layout's two files."""
    item_lines: list[tuple[Path, PilotItem]] = []
    mark_lines_: list[tuple[Path, PilotMark]] = []
    if judged:
        for path in judged:
            its, mks = read_otherjudged(path, problems)
            item_lines += [(path, i) for i in its]
            mark_lines_ += [(path, m) for m in mks]
    else:
        item_lines = [(root / "responses", i) for i in iter_items(root / "responses", problems, QID)]
        mark_lines_ = [(root / "judgments", m) for m in iter_marks(root / "judgments", problems, QID)]
    return item_lines, mark_lines_


def _read_items(item_lines: list[tuple[Path, PilotItem]], questions: dict, problems: Problems) -> Items:
    """The runs' items by run and question (of known questions; a text twice in a response: an error)."""
    items: Items = {}
    item_file: dict[tuple[str, str], Path] = {}
    for path, it in item_lines:
        if it.qnum not in questions:
            problems.error(path, it.line, "item-unknown-question", f"question {it.qnum} is not in "
                           "questions; add it there", it.qnum)
            continue
        items.setdefault(it.run, {}).setdefault(it.qnum, []).append(it)
        item_file[(it.run, it.qnum)] = path
    for run, by_q in items.items():
        for qid, its in by_q.items():
            check_duplicate_texts(item_file[(run, qid)], {i.item: i.line for i in its}, [i.text for i in its], qid,
                                  run, problems)
    return items


def _read_marks(mark_lines_: list[tuple[Path, PilotMark]], items: Items, seen: dict[tuple[str, str], int],
                problems: Problems) -> dict[tuple[str, str, int], list[PilotMark]]:
    """The marks by (question, run, item), each of an existing item and a nugget of the answer key."""
    marks = defaultdict(list)
    for path, mk in mark_lines_:
        its = items.get(mk.run, {}).get(mk.qnum, [])
        if mk.item > len(its):
            problems.error(path, mk.line, "mark-unknown-item", f"run {mk.run} has {len(its)} item(s) "
                           f"for question {mk.qnum}, not item {mk.item}; check responses", mk.qnum, mk.item)
        elif (mk.qnum, mk.base) not in seen:
            problems.error(path, mk.line, "mark-unknown-nugget", f"nugget {mk.nugget} is not in the "
                           f"answer key of question {mk.qnum}; use a nugget id of 'nuggets'", mk.qnum, mk.item)
        else:
            marks[(mk.qnum, mk.run, mk.item)].append(mk)
    return marks


def _read_vote_rows(root: Path, seen: dict[tuple[str, str], int], problems: Problems
                    ) -> list[tuple[str, str, str, str]]:
    """The optional votes as (QID, nugget, assessor, label) rows, ``-`` (no vote) left out."""
    vote_rows: list[tuple[str, str, str, str]] = []
    if (root / "votes").is_file():
        names, rows = iter_votes(root / "votes", problems)
        for r in rows:
            if (r.qid, r.nugget) not in seen:
                problems.error(root / "votes", r.line, "votes-unknown-nugget", f"nugget {r.nugget} of question "
                               f"{r.qid} is not in the answer key", r.qid)
                continue
            vote_rows += [(r.qid, r.nugget, a, lab) for a, lab in zip(names, r.labels) if lab != "-"]
    return vote_rows


def _write_trecqa(root: Path, out: Path, assessor: str, questions: dict, key: dict[str, list[AnswerKeyNugget]],
                  items: Items, marks: dict[tuple[str, str, int], list[PilotMark]],
                  vote_rows: list[tuple[str, str, str, str]], nuggets: int, problems: Problems) -> Converted:
    """Write our formats: topics, one run per TREC run, the judgments and the votes."""
    out.mkdir(parents=True, exist_ok=True)
    topics = [Topic(topic_id=q, query=questions[q].text,
                    facets=tuple(Facet(id=n.nugget, importance=n.importance, desc=n.text) for n in key[q]))
              for q in questions]
    write_topics(topics, out / "topics.xml")
    run_paths = write_item_runs(items, questions, out / "runs", system=f"converted from {FORMAT} {root}")
    js = item_judgments(items, marks, ASSESSOR_PREFIX + assessor)
    write_judgments(js, out / "judgments.jsonl", header={"assessor": ASSESSOR_PREFIX + assessor,
                                                         "converted_from": FORMAT})
    votes_path = None
    if vote_rows:
        votes_path = out / "votes.tsv"
        write_votes(vote_rows, votes_path)
    counts = {"questions": len(questions), "nuggets": nuggets, "runs": len(items),
              "items": sum(len(v) for b in items.values() for v in b.values()),
              "assignments": sum(len(v) for v in marks.values()), "votes": len(vote_rows)}
    return Converted(out, out / "topics.xml", out / "judgments.jsonl", run_paths, votes_path, counts,
                     problems.warnings)


def export_trecqa(out: str | os.PathLike, *, runs: list, topics: str | os.PathLike, judgments: str | os.PathLike,
                  votes: str | os.PathLike | None = None) -> list[Path]:
    """Our topics, runs, judgments (and votes TSV) as the trec-qa folder this module reads."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ts = read_topics(topics)
    read = [read_run(p) for p in runs]
    written = []

    def write(name: str, lines: list[str]) -> None:
        write_lines(out / name, lines, written)

    write("questions", [f"{t.topic_id} {t.query}" for t in ts])
    write("nuggets", [f"{t.topic_id} {f.id} {f.importance} {f.desc}" for t in ts for f in t.facets])
    lines: list[str] = []
    docs = {}
    for r in read:
        if lines:
            lines.append("*" * 14)
        for t in ts:
            res = r.results.get(t.topic_id)
            for b in (res.bullets if res else ()):
                docs[(r.run_id, t.topic_id, b.position)] = (b.sources[0].thread, b.text)
                lines.append(f"{t.topic_id} {r.run_id} {b.sources[0].thread} {b.text}")
    write("responses", lines)
    lines = []
    for j in read_judgments(judgments):
        docid, text = docs.get((j.run, j.topic_id, j.bullet), ("X" * 8, ""))
        lines += mark_lines(j, docid, text)
    write("judgments", lines)
    if votes:
        v = read_votes_rows(votes)
        names = list(dict.fromkeys(a for _, _, a, _ in v))
        by = defaultdict(dict)
        for q, f, a, lab in v:
            by[(q, f)][a] = lab
        write("votes", [f"# assessors: {' '.join(names)}"] +
              [f"{q} {f} " + " ".join(by[(q, f)].get(a, "-") for a in names) for (q, f) in by])
    return written


def read_votes_rows(path: str | os.PathLike) -> list[tuple[str, str, str, str]]:
    """Our votes TSV as ``(topic, facet, assessor, vote)`` rows in file order (checked by ``read_votes``)."""
    read_votes(path)  # every problem of the file, with line numbers, before we use it
    rows = []
    for lineno, text in iter_lines(path):
        cells = [c.strip() for c in text.split("\t")]
        if tuple(cells) == VOTES_HEADER or not text.strip() or text.lstrip().startswith("#") or len(cells) != 4:
            continue
        rows.append(tuple(cells))
    return rows


def import_cli(inputs: list[str], out: str) -> Converted:
    return import_trecqa(one_folder(FORMAT, inputs, "give the folder holding questions, nuggets, responses, "
                                    "judgments [, votes]"), out)


def export_cli(out: str, *, runs: list[str], topics: dict[str, str], judgments: dict[str, str],
               holistic: str | None = None, votes: str | None = None) -> list[Path]:
    t, j = one_topics_file(FORMAT, topics, judgments, runs, judgments_required=True, holistic=holistic)
    return export_trecqa(out, runs=runs, topics=t, judgments=j, votes=votes)
