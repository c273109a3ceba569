"""The AQUAINT definition-question pilot (seed 000, NIST 2002): its files in, the same files out.

The pilot's folder holds (README, seed 000):

- ``questions``: one question per line, ``qnum question text``;
- ``Q.<n>``: the responses to question n, ``qnum run document-id answer-text`` per line, one run's
  items contiguous and in submitted order, runs separated by a line of asterisks; a run without
  document ids writes a string of X's;
- ``holistic``: after initial comment lines, ``qnum run content1 org1 content2 org2 content3 org3``,
  the pairs of the contractor, the question's author and the other assessor (0..10 each);
- ``<n>.<assessor>``: the assessor's numbered nugget list for question n (``author`` or ``other``); a
  ``*`` between the number and the text marks a vital nugget;
- ``sys.<n>.<assessor>`` (or ``<assessor>/sys.<n>``): the assessor's marks, ``qnum run item nugget
  document-id marked-text``, runs separated by asterisks; a nugget spanning items is numbered ``5.1``,
  ``5.2`` (the items together give nugget 5). Items without nuggets have no line.

Converted, each assessor's nugget lists become a topic file (facet = nugget, ``*`` = vital), each run a
submission (bullet = item, citing its document at offset 0), each assessor's marks a judgments file
(facets of a bullet = the nuggets marked in it; the original numbers and marked text kept in the
judgment's ``marks``), and the holistic pairs our holistic TSV. Scoring those with ``--beta 5`` gives the
pilot's F; ``bolt compare`` over one score file per assessor gives the rankings and Kendall's tau.
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

from bolt.formats.submission import Result, read_run, write_run
from bolt.formats.topics import Facet, Topic, read_topics, write_topics
from evaluation.convert.common import (ASTERISKS, Problems, bullet, check_duplicate_texts, is_number, iter_lines,
                                       judgment, mark_lines, one_folder, write_lines)
from evaluation.judgments import Judgment, read_holistic, read_judgments, write_judgments
from indexing.errors import ToolkitError

FORMAT = "aquaint-pilot"
HOLISTIC_ASSESSORS = ("contractor", "author", "other")  # the README's order of the three pairs
ASSESSOR_PREFIX = "human:"  # our judgments name people human:NAME

_NUGGET_NO = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")
_NUGGET_LINE = re.compile(r"^\s*([0-9]+)\s*[.:)]?\s*(\*)?\s*(.*?)\s*$")
_QUESTION_LINE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)*)\s*[.:]?\s+(\S.*?)\s*$")
_NUGGET_FILE = re.compile(r"^([0-9]+)\.([A-Za-z][\w-]*)$")
_SYS_FILE = re.compile(r"^sys\.([0-9]+)(?:\.([A-Za-z][\w-]*))?$")
_Q_FILE = re.compile(r"^Q\.([0-9]+)$")
QNUM = re.compile(r"^[0-9]+$")  # the pilot numbers questions 1..25; TREC QA passes ``[0-9]+(\.[0-9]+)*``


# --------------------------------------------------------------------------- records


class PilotQuestion(NamedTuple):
    """A line of ``questions``."""

    qnum: str
    text: str
    line: int


class PilotItem(NamedTuple):
    """A line of ``Q.<n>``: one answer item; ``item`` is its 1-based position in the run's response."""

    qnum: str
    run: str
    item: int
    docid: str
    text: str
    line: int


class PilotHolistic(NamedTuple):
    """A line of ``holistic``: (content, organisation) pairs in the README's assessor order."""

    qnum: str
    run: str
    pairs: tuple[tuple[float, float], ...]
    line: int


class PilotNugget(NamedTuple):
    """A line of ``<n>.<assessor>``: a numbered nugget, vital when starred."""

    number: str
    vital: bool
    text: str
    line: int


class PilotMark(NamedTuple):
    """A line of ``sys.<n>``: the assessor saw nugget ``nugget`` (``5`` or part ``5.1``) in an item."""

    qnum: str
    run: str
    item: int
    nugget: str
    docid: str
    text: str
    line: int

    @property
    def base(self) -> str:
        """The nugget a split part belongs to (``5.1`` -> ``5``)."""
        return self.nugget.split(".", 1)[0]


# --------------------------------------------------------------------------- readers (streaming)


def iter_questions(path: str | os.PathLike, problems: Problems) -> Iterator[PilotQuestion]:
    """``qnum question`` lines; blank and ``#`` lines skipped."""
    for lineno, text in iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        m = _QUESTION_LINE.match(text)
        if m is None:
            problems.error(path, lineno, "question-line", "expected 'QNUM question text' (e.g. '1 Who is X?')")
            continue
        yield PilotQuestion(m.group(1), m.group(2), lineno)


def iter_items(path: str | os.PathLike, problems: Problems, qnum_re: re.Pattern = QNUM) -> Iterator[PilotItem]:
    """Answer items of a ``Q.<n>`` file, numbered per run and question in file order."""
    counts: dict[tuple[str, str], int] = defaultdict(int)
    finished: set[tuple[str, str]] = set()  # (qnum, run) blocks closed by an asterisk line
    block: set[tuple[str, str]] = set()
    for lineno, text in iter_lines(path):
        if ASTERISKS.match(text):
            finished |= block
            block = set()
            continue
        if not text.strip():
            continue
        fields = text.split(None, 3)
        if len(fields) < 4:
            problems.error(path, lineno, "item-fields", f"expected 'QNUM RUN DOCID answer text', got {len(fields)} "
                           "field(s); a run without document ids writes XXXXXXXX as its DOCID")
            continue
        qnum, run, docid, answer = fields
        if not qnum_re.match(qnum):
            problems.error(path, lineno, "item-qnum", f"question number {qnum!r} is not a question number "
                           "(e.g. 1, or 1.5 in a TREC series)")
            continue
        key = (qnum, run)
        if key in finished:
            problems.error(path, lineno, "item-run-split", f"run {run} answers question {qnum} again after an "
                           "asterisk line; keep one run's items together", qnum)
            continue
        block.add(key)
        counts[key] += 1
        yield PilotItem(qnum, run, counts[key], docid, answer.strip(), lineno)


def iter_holistic(path: str | os.PathLike, problems: Problems) -> Iterator[PilotHolistic]:
    """``qnum run c1 o1 c2 o2 c3 o3`` lines; lines before the first such line are the initial comments."""
    started = False
    for lineno, text in iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fields = text.split()
        looks = len(fields) >= 4 and fields[0].isdigit() and all(is_number(f) for f in fields[2:])
        if not started and not looks:
            continue  # the README: "after initial comments, the file contains lines of the form ..."
        started = True
        if not looks or len(fields) % 2:
            problems.error(path, lineno, "holistic-fields", "expected 'QNUM RUN' then content/organization pairs "
                           "(three pairs: contractor, author, other)")
            continue
        nums = [float(f) for f in fields[2:]]
        if any(not 0 <= x <= 10 for x in nums):
            problems.error(path, lineno, "holistic-range", "content and organization scores lie in 0..10",
                           fields[0])
            continue
        yield PilotHolistic(fields[0], fields[1], tuple(zip(nums[::2], nums[1::2])), lineno)


def iter_nuggets(path: str | os.PathLike, problems: Problems) -> Iterator[PilotNugget]:
    """``N [*] nugget text`` lines of a nugget list; an indented line continues the nugget above it."""
    seen: dict[str, int] = {}
    pending: PilotNugget | None = None
    for lineno, text in iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if pending is not None and text[:1].isspace() and not text.strip()[:1].isdigit():
            pending = pending._replace(text=f"{pending.text} {text.strip()}")  # a wrapped nugget text
            continue
        m = _NUGGET_LINE.match(text)
        if m is None or not m.group(3):
            problems.error(path, lineno, "nugget-line", "expected 'NUMBER [*] nugget text' ('*' marks a vital nugget; "
                           "indent a line that continues the nugget above)")
            continue
        number = str(int(m.group(1)))
        if number in seen:
            problems.error(path, lineno, "nugget-duplicate", f"nugget {number} is listed again (first at line "
                           f"{seen[number]}); number each nugget once")
            continue
        seen[number] = lineno
        if pending is not None:
            yield pending
        pending = PilotNugget(number, m.group(2) is not None, m.group(3), lineno)
    if pending is not None:
        yield pending


def iter_marks(path: str | os.PathLike, problems: Problems, qnum_re: re.Pattern = QNUM) -> Iterator[PilotMark]:
    """``qnum run item nugget docid marked-text`` lines of a ``sys`` file (asterisk lines skipped)."""
    for lineno, text in iter_lines(path):
        if not text.strip() or ASTERISKS.match(text):
            continue
        fields = text.split(None, 5)
        if len(fields) < 5:
            problems.error(path, lineno, "mark-fields", "expected 'QNUM RUN ITEM NUGGET DOCID marked text'")
            continue
        qnum, run, item, nugget, docid = fields[:5]
        if not qnum_re.match(qnum) or not item.isdigit() or int(item) < 1:
            problems.error(path, lineno, "mark-number", f"question {qnum!r} and item {item!r} must be whole "
                           "numbers, items counted from 1")
            continue
        if not _NUGGET_NO.match(nugget):
            problems.error(path, lineno, "mark-nugget", f"nugget {nugget!r} must be a number such as 5, or 5.1 for "
                           "part of a nugget spanning items", qnum)
            continue
        yield PilotMark(qnum, run, int(item), nugget, docid, fields[5].strip() if len(fields) > 5 else "", lineno)


# --------------------------------------------------------------------------- the folder


@dataclass
class PilotFiles:
    """Where each of the pilot's files is in a folder."""

    questions: Path
    responses: list[Path]
    holistic: Path | None
    nuggets: dict[str, dict[str, Path]] = field(default_factory=dict)  # assessor -> qnum -> file
    marks: dict[str, dict[str, Path]] = field(default_factory=dict)    # assessor -> qnum -> file


def find_files(folder: str | os.PathLike) -> PilotFiles:
    """Locate the pilot's files (top level, or one subfolder per assessor)."""
    root = Path(folder)
    if not root.is_dir():
        raise ToolkitError("not a folder", file=str(root), hint="give the folder holding 'questions' and 'Q.<n>'")
    questions = root / "questions"
    if not questions.is_file():
        raise ToolkitError("no 'questions' file in the folder", file=str(root),
                           hint="the pilot folder holds questions, Q.<n>, holistic, <n>.<assessor>, sys.<n>.<assessor>")
    files = PilotFiles(questions, [], root / "holistic" if (root / "holistic").is_file() else None)
    for p in sorted(root.rglob("*")):
        if not p.is_file():
            continue
        sub = p.parent.name if p.parent != root else None
        if _Q_FILE.match(p.name) and sub is None:
            files.responses.append(p)
        elif m := _NUGGET_FILE.match(p.name):
            files.nuggets.setdefault(m.group(2), {})[m.group(1)] = p
        elif m := _SYS_FILE.match(p.name):
            assessor = m.group(2) or sub
            if assessor is None:
                raise ToolkitError("a sys file without an assessor", file=str(p),
                                   hint="name it sys.<n>.<assessor> or put it in a folder named after the assessor")
            files.marks.setdefault(assessor, {})[m.group(1)] = p
    files.responses.sort(key=lambda p: int(p.name.split(".")[1]))
    if not files.responses:
        raise ToolkitError("no response files Q.<n> in the folder", file=str(root),
                           hint="the pilot's responses are in files named Q.1, Q.2, ...")
    return files


@dataclass
class Converted:
    """What an import wrote, for the CLI's summary and the next commands."""

    out: Path
    topics: dict[str, Path]       # assessor -> topic file
    judgments: dict[str, Path]    # assessor -> judgments file
    runs: list[Path]
    holistic: dict[str, Path]     # "all" and each assessor -> holistic TSV
    counts: dict[str, int]
    warnings: list = field(default_factory=list)

    def commands(self, beta: float = 5) -> list[str]:
        """The score and compare commands the docs show: one score file per assessor, then compare.

        An assessor with holistic scores but no nugget lists (the pilot's contractor) is scored with the
        first assessor's nuggets; only its ``holistic`` column is that assessor's own.
        """
        runs = " ".join(str(p) for p in self.runs)
        names = list(self.topics) + [a for a in self.holistic if a != "all" and a not in self.topics]
        first = next(iter(self.topics))
        out, files = [], []
        for a in names:
            t = a if a in self.topics else first
            hol = self.holistic.get(a)
            score = self.out / f"scores.{a}.json"
            judg = f" --judgments {self.judgments[t]}" if t in self.judgments else ""
            if t == "questions":  # no nuggets: P_n's words-per-nugget is undefined and unused here
                judg += " --avg-nugget-words 1"
            out.append(f"bolt score {runs} --topics {self.topics[t]}{judg} --beta {beta:g}"
                       + (f" --holistic {hol}" if hol else "") + f" --json > {score}")
            files.append((a, score))
        nug = " ".join(str(f) for a, f in files if a in self.judgments)
        if len(self.judgments) > 1:
            out.append(f"bolt compare {nug} --metric nugget_F")
        hol = " ".join(str(f) for a, f in files if a in self.holistic)
        if len([a for a in self.holistic if a != "all"]) > 1:
            out.append(f"bolt compare {hol} --metric holistic")
        return out


def import_pilot(folder: str | os.PathLike, out: str | os.PathLike) -> Converted:
    """Read a pilot folder, check it whole, and write topics, runs, judgments and holistic files to ``out``."""
    files = find_files(folder)
    problems = Problems()
    questions = _read_questions(files, problems)
    items = _read_responses(files, questions, problems)
    nuggets = _read_nugget_lists(files, questions, problems)
    marks = _read_marks(files, items, nuggets, problems)
    holistic_rows = _read_holistic_rows(files, items, problems)
    problems.check()
    return _write_pilot(Path(out), files, questions, items, nuggets, marks, holistic_rows, problems)


def _read_questions(files: PilotFiles, problems: Problems) -> dict[str, PilotQuestion]:
    """The questions by number (a repeated number is an error)."""
    questions: dict[str, PilotQuestion] = {}
    for q in iter_questions(files.questions, problems):
        if q.qnum in questions:
            problems.error(files.questions, q.line, "question-duplicate",
                           f"question {q.qnum} appears again (first at line {questions[q.qnum].line})")
        questions[q.qnum] = q
    return questions


def _read_responses(files: PilotFiles, questions: dict[str, PilotQuestion],
                    problems: Problems) -> dict[str, dict[str, list[PilotItem]]]:
    """Responses: run -> qnum -> items, each in its question's file, one file per run and question."""
    items: dict[str, dict[str, list[PilotItem]]] = {}
    where: dict[tuple[str, str], Path] = {}
    for path in files.responses:
        expected = path.name.split(".")[1]
        for it in iter_items(path, problems):
            if it.qnum != expected:
                problems.error(path, it.line, "item-wrong-file", f"question {it.qnum} in {path.name}; "
                               f"Q.{expected} holds question {expected} only", it.qnum)
                continue
            if it.qnum not in questions:
                problems.error(path, it.line, "item-unknown-question",
                               f"question {it.qnum} is not in {files.questions.name}; add it there", it.qnum)
                continue
            if (it.qnum, it.run) in where and where[(it.qnum, it.run)] != path:
                problems.error(path, it.line, "item-run-split", f"run {it.run} answered question {it.qnum} "
                               f"already in {where[(it.qnum, it.run)]}", it.qnum)
                continue
            where[(it.qnum, it.run)] = path
            items.setdefault(it.run, {}).setdefault(it.qnum, []).append(it)
    for run, by_q in items.items():
        for qnum, its in by_q.items():
            check_duplicate_texts(where[(qnum, run)], {i.item: i.line for i in its}, [i.text for i in its],
                                  qnum, run, problems)
    return items


def _read_nugget_lists(files: PilotFiles, questions: dict[str, PilotQuestion],
                       problems: Problems) -> dict[str, dict[str, list[PilotNugget]]]:
    """Nugget lists: assessor -> qnum -> nuggets (a question without a list: a warning)."""
    nuggets: dict[str, dict[str, list[PilotNugget]]] = {}
    for assessor, by_q in sorted(files.nuggets.items()):
        for qnum, path in sorted(by_q.items(), key=lambda kv: int(kv[0])):
            if qnum not in questions:
                problems.error(path, None, "nuggets-unknown-question", f"question {qnum} is not in "
                               f"{files.questions.name}; rename the file or add the question")
                continue
            nuggets.setdefault(assessor, {})[qnum] = list(iter_nuggets(path, problems))
    for assessor, by_q in nuggets.items():
        for qnum in questions:
            if qnum not in by_q:
                problems.warning(files.questions, questions[qnum].line, "nuggets-missing",
                                 f"assessor {assessor} has no nugget list {qnum}.{assessor}; the question gets no "
                                 "facets and every run scores 0 on it", qnum)
    return nuggets


def _read_marks(files: PilotFiles, items: dict[str, dict[str, list[PilotItem]]],
                nuggets: dict[str, dict[str, list[PilotNugget]]], problems: Problems) -> dict[str, list[PilotMark]]:
    """Marks by assessor, each checked against the responses and the assessor's nugget list."""
    marks: dict[str, list[PilotMark]] = {}
    for assessor, by_q in sorted(files.marks.items()):
        if assessor not in nuggets:
            some = next(iter(by_q.values()))
            problems.error(some, None, "marks-without-nuggets", f"assessor {assessor} has marks but no nugget "
                           f"lists <n>.{assessor}; add them")
            continue
        for qnum, path in sorted(by_q.items(), key=lambda kv: int(kv[0])):
            known = {n.number for n in nuggets[assessor].get(qnum, [])}
            for mk in iter_marks(path, problems):
                if mk.qnum != qnum:
                    problems.error(path, mk.line, "mark-wrong-file", f"question {mk.qnum} in a file of question "
                                   f"{qnum}", mk.qnum)
                    continue
                its = items.get(mk.run, {}).get(qnum, [])
                if mk.item > len(its):
                    problems.error(path, mk.line, "mark-unknown-item",
                                   f"run {mk.run} has {len(its)} item(s) for question {qnum}, not item {mk.item}; "
                                   "check the run and item number against Q." + qnum, qnum, mk.item)
                    continue
                if mk.base not in known:
                    problems.error(path, mk.line, "mark-unknown-nugget",
                                   f"nugget {mk.nugget} is not in {assessor}'s list {qnum}.{assessor}; "
                                   "use a number of that list", qnum, mk.item)
                    continue
                marks.setdefault(assessor, []).append(mk)
    return marks


def _read_holistic_rows(files: PilotFiles, items: dict[str, dict[str, list[PilotItem]]],
                        problems: Problems) -> list[tuple[str, str, str, float, float]]:
    """Holistic scores as (qnum, run, assessor, content, organisation) rows (none without the file)."""
    holistic_rows: list[tuple[str, str, str, float, float]] = []
    if files.holistic is not None:
        seen: dict[tuple[str, str], int] = {}
        for h in iter_holistic(files.holistic, problems):
            if (h.qnum, h.run) in seen:
                problems.error(files.holistic, h.line, "holistic-duplicate", f"run {h.run} on question {h.qnum} "
                               f"again (first at line {seen[(h.qnum, h.run)]})", h.qnum)
                continue
            seen[(h.qnum, h.run)] = h.line
            if h.run not in items or h.qnum not in items[h.run]:
                problems.warning(files.holistic, h.line, "holistic-no-response",
                                 f"run {h.run} has no response to question {h.qnum}", h.qnum)
            names = HOLISTIC_ASSESSORS if len(h.pairs) == 3 else tuple(f"assessor{i}" for i in
                                                                       range(1, len(h.pairs) + 1))
            for name, (c, o) in zip(names, h.pairs):
                holistic_rows.append((h.qnum, h.run, name, c, o))
    return holistic_rows


def _write_pilot(out: Path, files: PilotFiles, questions: dict[str, PilotQuestion],
                 items: dict[str, dict[str, list[PilotItem]]],
                 nuggets: dict[str, dict[str, list[PilotNugget]]], marks: dict[str, list[PilotMark]],
                 holistic_rows: list[tuple[str, str, str, float, float]], problems: Problems) -> Converted:
    """Write our formats: topics and judgments per assessor, one run per pilot run, holistic TSVs."""
    out.mkdir(parents=True, exist_ok=True)
    topics_paths, judgment_paths, hol_paths = {}, {}, {}
    for assessor, by_q in nuggets.items():
        topics = []
        for qnum, q in questions.items():
            facets = tuple(Facet(id=n.number, importance="vital" if n.vital else "okay", desc=n.text)
                           for n in by_q.get(qnum, []))
            topics.append(Topic(topic_id=qnum, query=q.text, facets=facets))
        topics_paths[assessor] = out / f"topics.{assessor}.xml"
        write_topics(topics, topics_paths[assessor])
    if not nuggets:  # no nugget lists: the questions alone, and no judgments (holistic scoring only)
        topics_paths["questions"] = out / "topics.xml"
        write_topics([Topic(topic_id=q.qnum, query=q.text) for q in questions.values()], topics_paths["questions"])
        judgment_paths["questions"] = out / "judgments.none.jsonl"
        write_judgments([], judgment_paths["questions"], header={"assessor": "none", "converted_from": FORMAT})
    run_paths = write_item_runs(items, questions, out / "runs",
                                system=f"converted from {FORMAT} {files.questions.parent}")
    for assessor in nuggets:
        by_item: dict[tuple[str, str, int], list[PilotMark]] = defaultdict(list)
        for mk in marks.get(assessor, []):
            by_item[(mk.qnum, mk.run, mk.item)].append(mk)
        js = item_judgments(items, by_item, ASSESSOR_PREFIX + assessor)
        judgment_paths[assessor] = out / f"judgments.{assessor}.jsonl"
        write_judgments(js, judgment_paths[assessor], header={"assessor": ASSESSOR_PREFIX + assessor,
                                                              "converted_from": FORMAT})
    if holistic_rows:
        hol_paths["all"] = out / "holistic.tsv"
        _write_holistic(holistic_rows, hol_paths["all"])
        for name in dict.fromkeys(r[2] for r in holistic_rows):
            hol_paths[name] = out / f"holistic.{name}.tsv"
            _write_holistic([r for r in holistic_rows if r[2] == name], hol_paths[name])
    counts = {"questions": len(questions), "runs": len(items),
              "items": sum(len(v) for by_q in items.values() for v in by_q.values()),
              "assessors": len(nuggets), "marks": sum(len(v) for v in marks.values()),
              "holistic": len(holistic_rows)}
    return Converted(out, topics_paths, judgment_paths, run_paths, hol_paths, counts, problems.warnings)


def write_item_runs(items: dict[str, dict[str, list[PilotItem]]], questions: Iterable[str], runs_dir: Path, *,
                    system: str) -> list[Path]:
    """One run file per run of items (pilot and TREC QA), its answers in the questions' order."""
    paths = []
    order = list(questions)
    for run, by_q in items.items():
        results = [Result(topic_id=qnum, bullets=tuple(bullet(i.item, i.text, [i.docid]) for i in by_q[qnum]))
                   for qnum in order if qnum in by_q]
        path = runs_dir / f"{run}.xml"
        write_run(run, results, path, system=system)
        paths.append(path)
    return paths


def item_judgments(items: dict[str, dict[str, list[PilotItem]]],
                   marks: dict[tuple[str, str, int], list[PilotMark]], assessor: str) -> list[Judgment]:
    """A judgment of every item, its facets the nuggets marked in it (``marks`` by question, run, item);
    the marks themselves are kept in ``extra`` so the export writes them back."""
    js = []
    for run, by_q in items.items():
        for qnum, its in by_q.items():
            for it in its:
                mks = marks.get((qnum, run, it.item), [])
                extra = {"marks": [{"nugget": m.nugget, "docid": m.docid, "text": m.text} for m in mks]} if mks else {}
                js.append(judgment(qnum, run, it.item, assessor, it.text, [m.base for m in mks], [it.docid], extra))
    return js


def _fmt(x: float) -> str:
    return f"{x:g}"


def _write_holistic(rows, path: Path) -> None:
    lines = ["topic\trun\tassessor\tcontent\torganization"]
    lines += [f"{q}\t{r}\t{a}\t{_fmt(c)}\t{_fmt(o)}" for q, r, a, c, o in rows]
    write_lines(path, lines)


# --------------------------------------------------------------------------- export (our files -> pilot)


def _bare(assessor: str) -> str:
    return assessor[len(ASSESSOR_PREFIX):] if assessor.startswith(ASSESSOR_PREFIX) else assessor


def export_pilot(out: str | os.PathLike, *, runs: list[str | os.PathLike], topics: dict[str, str | os.PathLike],
                 judgments: dict[str, str | os.PathLike], holistic: str | os.PathLike | None = None) -> list[Path]:
    """Write our topics, runs, judgments (per assessor) and holistic TSV as the pilot's files in ``out``.

    Bullets become items (their first source's thread id is the document id), facets numbered nuggets
    (``*`` for vital), judged facets ``sys`` lines (the original split numbers and marked text when the
    judgment kept them in ``marks``, else the facet id and the bullet text).
    """
    out = Path(out)
    written: list[Path] = []
    read = [read_run(p) for p in runs]
    topic_sets = {a: read_topics(p) for a, p in topics.items()}
    first = next(iter(topic_sets.values()))
    qnums = [t.topic_id for t in first]
    write_lines(out / "questions", [f"{t.topic_id} {t.query}" for t in first], written)
    for qnum in qnums:
        blocks = []
        for run in read:
            res = run.results.get(qnum)
            if res is None or not res.bullets:
                continue
            blocks.append([f"{qnum} {run.run_id} {b.sources[0].thread if b.sources else 'X' * 8} {b.text}"
                           for b in res.bullets])
        if blocks:
            write_lines(out / f"Q.{qnum}", _join_blocks(blocks), written)
    texts = {(r.run_id, n, b.position): (b.text, b.sources[0].thread if b.sources else "X" * 8)
             for r in read for n, res in r.results.items() for b in res.bullets} if judgments else {}
    for assessor, ts in topic_sets.items():
        for t in ts:
            if t.facets:
                write_lines(out / f"{t.topic_id}.{assessor}",
                       [f"{f.id} {'* ' if f.vital else ''}{f.desc}" for f in t.facets], written)
        if assessor in judgments:
            by_q: dict[str, dict[str, list[str]]] = defaultdict(dict)
            for j in read_judgments(judgments[assessor]):
                text, docid = texts.get((j.run, j.topic_id, j.bullet), ("", "X" * 8))
                by_q[j.topic_id].setdefault(j.run, []).extend(mark_lines(j, docid, text))
            for qnum in qnums:
                blocks = [by_q[qnum][r.run_id] for r in read if by_q.get(qnum, {}).get(r.run_id)]
                if blocks:
                    write_lines(out / f"sys.{qnum}.{assessor}", _join_blocks(blocks), written)
    if holistic is not None:
        rows = read_holistic(holistic)
        names = list(dict.fromkeys(h.assessor for h in rows))
        order = [a for a in HOLISTIC_ASSESSORS if a in names] + [a for a in names if a not in HOLISTIC_ASSESSORS]
        pairs: dict[tuple[str, str], dict[str, tuple[float, float]]] = defaultdict(dict)
        for h in rows:
            pairs[(h.topic, h.run)][h.assessor] = (h.content, h.organization)
        lines = ["# holistic scores: qnum run, then content/organization of " + ", ".join(order)]
        for (qnum, run), by_a in pairs.items():
            missing = [a for a in order if a not in by_a]
            if missing:
                raise ToolkitError(f"run {run} on topic {qnum} has no holistic scores from {', '.join(missing)}",
                                   file=str(holistic), hint="the pilot's holistic file needs every assessor's pair")
            lines.append(f"{qnum} {run} " + " ".join(f"{_fmt(by_a[a][0])} {_fmt(by_a[a][1])}" for a in order))
        write_lines(out / "holistic", lines, written)
    return written


def _join_blocks(blocks: list[list[str]]) -> list[str]:
    lines: list[str] = []
    for i, b in enumerate(blocks):
        if i:
            lines.append("*" * 14)
        lines.extend(b)
    return lines


# --------------------------------------------------------------------------- the CLI's entry points


def import_cli(inputs: list[str], out: str) -> Converted:
    return import_pilot(one_folder(FORMAT, inputs, "give the folder holding questions, Q.<n>, holistic and the "
                                   "nugget files"), out)


def export_cli(out: str, *, runs: list[str], topics: dict[str, str], judgments: dict[str, str],
               holistic: str | None = None, votes: str | None = None) -> list[Path]:
    if votes:
        raise ToolkitError("the pilot has no votes file", hint="leave out --votes")
    if not runs or not topics:
        raise ToolkitError("give --runs and --topics ASSESSOR=FILE", hint="see 'bolt convert export --help'")
    return export_pilot(out, runs=runs, topics=topics, judgments=judgments, holistic=holistic)
