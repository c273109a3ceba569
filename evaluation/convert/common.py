"""What every importer and exporter shares: line streaming, problem collection, our records.

Importers read other evaluations' files line by line (generators, never a whole file in memory),
collect every bad line as a :class:`indexing.problems.Problem` (file, line, what to fix) and fail once
with :class:`indexing.problems.ProblemsError`, as ``bolt validate`` does. They write our own formats only
through the project's writers (``write_topics``, ``write_run``, ``write_judgments``), so a converted
file is exactly what ``bolt score`` reads.
"""
from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from indexing.problems import ERROR, WARNING, Problem, ProblemsError
from bolt.formats.submission import Bullet, Source, clean_text
from evaluation.convert.rules import RULES
from evaluation.judgments import JudgedSource, Judgment
from indexing.atomic import atomic_open, atomic_write_text
from indexing.errors import ToolkitError
from indexing.lookup import count_words

MAX_PROBLEMS = 50  # as the judgments reader: one pass shows the pattern
ASTERISKS = re.compile(r"^\s*\*{3,}\s*$")  # the run separator of the pilot and TREC QA files
NO_DOCUMENT = "NO-DOCUMENT"  # the source we give an answer that cites nothing (our format needs one)


class Problems:
    """Collects the problems of one conversion; :meth:`check` raises them all at once.

    Every rule named must be declared in :data:`evaluation.convert.rules.RULES` (KeyError otherwise), so
    the converted formats' faults are listed in one place, as every other format's are."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def error(self, file: str | os.PathLike, line: int | None, rule: str, message: str,
              topic: str | None = None, bullet: int | None = None) -> None:
        RULES[rule]  # declared, or KeyError
        if self.errors < MAX_PROBLEMS:
            self.items.append(Problem(ERROR, str(file), line, rule, message, topic, bullet))

    def warning(self, file: str | os.PathLike, line: int | None, rule: str, message: str,
                topic: str | None = None) -> None:
        RULES[rule]  # declared, or KeyError
        self.items.append(Problem(WARNING, str(file), line, rule, message, topic))

    @property
    def errors(self) -> int:
        return sum(1 for p in self.items if p.severity == ERROR)

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == WARNING]

    def check(self) -> None:
        """Raise :class:`ProblemsError` with every problem when any of them is an error."""
        if self.errors:
            raise ProblemsError(self.items)


def iter_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """``(line number, text without the line break)`` of a UTF-8 file (``.gz`` read through gzip), streamed."""
    path = Path(path)
    lineno = 0
    try:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            for lineno, text in enumerate(fh, start=1):
                yield lineno, text.rstrip("\r\n")
    except FileNotFoundError:
        raise ToolkitError("file not found", file=str(path), hint="check the path") from None
    except IsADirectoryError:
        raise ToolkitError("is a folder, not a file", file=str(path), hint="give the file inside it") from None
    except UnicodeDecodeError as exc:
        raise ToolkitError(f"not UTF-8 ({exc.reason}) after line {lineno}", file=str(path), line=lineno + 1,
                           hint="save the file as UTF-8 (ASCII files are UTF-8)") from None
    except (gzip.BadGzipFile, EOFError) as exc:
        raise ToolkitError(f"not a complete gzip file ({exc}) after line {lineno}", file=str(path),
                           hint="download or compress the file again, or give it uncompressed") from None


def iter_json_lines(path: str | os.PathLike, problems: Problems) -> Iterator[tuple[int, Any]]:
    """``(line number, decoded object)`` of a JSONL file; bad JSON lines become problems."""
    for lineno, text in iter_lines(path):
        if not text.strip():
            continue
        try:
            yield lineno, json.loads(text)
        except json.JSONDecodeError as exc:
            problems.error(path, lineno, "json", f"not valid JSON ({exc.msg} at column {exc.colno}); "
                           "each line must hold one complete JSON object")


def write_jsonl(records: Iterable[dict], path: str | os.PathLike) -> None:
    """One JSON object per line, written atomically."""
    with atomic_open(path) as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def write_lines(path: Path, lines: list[str], written: list[Path] | None = None) -> None:
    """A plain-text file of the other evaluations (one record a line, a final line break), written
    atomically; its path is added to ``written`` (the list an exporter returns)."""
    atomic_write_text(path, "\n".join(lines) + "\n")
    if written is not None:
        written.append(path)


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def cited(docids: Iterable[str]) -> tuple[str, ...]:
    """The distinct non-empty document ids in order, or the placeholder ``NO-DOCUMENT`` (our bullets
    and judged sources need one): what a converted bullet and its judgment both cite."""
    return tuple(dict.fromkeys(d for d in docids if d)) or (NO_DOCUMENT,)


def bullet(position: int, text: str, docids: Iterable[str]) -> Bullet:
    """A bullet citing whole documents: offset 0 of each (other tracks cite documents, not offsets)."""
    return Bullet(position=position, text=clean_text(text),
                  sources=tuple(Source(thread=d, offset=0) for d in cited(docids)))


def judgment(topic: str, run: str, position: int, assessor: str, text: str, facets: Iterable[str],
             docids: Iterable[str], extra: dict | None = None) -> Judgment:
    """A judgment of a converted bullet: every word responsive, each cited document supports it iff it
    matched a facet (other tracks judge answers, not citations; docs/formats.md says what follows)."""
    facets = tuple(dict.fromkeys(facets))
    words = count_words(text)
    return Judgment(topic_id=topic, run=run, bullet=position, assessor=assessor, facets=facets, words=words,
                    responsive_words=words, extra=dict(extra or {}),
                    sources=tuple(JudgedSource(post=d, offset=0, unit=None, supports=bool(facets))
                                  for d in cited(docids)))


def mark_lines(j: Judgment, docid: str, text: str) -> list[str]:
    """A judgment as the AQUAINT pilot's and TREC QA's mark lines ``QNUM RUN ITEM NUGGET DOCID text``: the
    marks the import kept in ``extra``, else one line per judged facet with the bullet's document and text."""
    marks = j.extra.get("marks") or [{"nugget": f, "docid": docid, "text": text} for f in j.facets]
    return [f"{j.topic_id} {j.run} {j.bullet} {m['nugget']} {m['docid']} {m['text']}".rstrip() for m in marks]


def check_duplicate_texts(file: str | os.PathLike, lines: dict[int, int] | int, texts: list[str], topic: str, run: str,
                          problems: Problems) -> None:
    """Our submission format refuses a repeated bullet text within a response: say where and what to do.

    ``lines`` maps item positions to file lines, or is the one line holding the whole response (JSONL).
    """
    if isinstance(lines, int):
        lines = dict.fromkeys(range(1, len(texts) + 1), lines)
    seen: dict[str, int] = {}
    for i, t in enumerate(texts, start=1):
        key = clean_text(t)
        if not key:
            problems.error(file, lines.get(i), "empty-answer", f"run {run}: item {i} has no text; "
                           "delete the line or give the answer text", topic)
        elif key in seen:
            problems.error(file, lines.get(i), "duplicate-answer",
                           f"run {run}: item {i} repeats the text of item {seen[key]}; a response may hold a text "
                           "once (bolt's submission rule duplicate-bullet): delete the repeat", topic)
        else:
            seen[key] = i


def one_folder(fmt: str, inputs: list, hint: str) -> str:
    """The single input folder of a folder-based format, or a ToolkitError saying what to give."""
    if len(inputs) != 1:
        raise ToolkitError(f"{fmt} reads one folder, got {len(inputs)} inputs", hint=hint)
    return inputs[0]


def one_topics_file(fmt: str, topics: dict[str, str], judgments: dict[str, str], runs: list, *,
                    judgments_required: bool = False, **unused: Any) -> tuple[str, str | None]:
    """(topics file, judgments file or None) of an export that has no assessors apart."""
    extra = [f"--{k}" for k, v in unused.items() if v]
    if (len(topics) != 1 or len(judgments) > 1 or not runs or extra
            or (judgments_required and not judgments)):
        raise ToolkitError(f"{fmt} export takes --runs, one --topics and {'one' if judgments_required else 'at most one'}"
                           f" --judgments file{'; leave out ' + ', '.join(extra) if extra else ''}",
                           hint="see 'bolt convert export --help'")
    return next(iter(topics.values())), next(iter(judgments.values()), None)


def export_with_one_topics_file(fmt: str, exporter: Callable[..., list[Path]], out: str, *, runs: list[str],
                                topics: dict[str, str], judgments: dict[str, str], holistic: str | None = None,
                                votes: str | None = None) -> list[Path]:
    """``bolt convert export`` of a format with one topics file and at most one judgments file (no
    assessors apart, no holistic or votes file): the arguments checked, then ``exporter`` called."""
    t, j = one_topics_file(fmt, topics, judgments, runs, holistic=holistic, votes=votes)
    return exporter(out, runs=runs, topics=t, judgments=j)


def cited_documents(b: Bullet) -> list[str]:
    """The documents a converted bullet cites (the NO-DOCUMENT placeholder left out)."""
    return [s.thread for s in b.sources if s.thread != NO_DOCUMENT]


# ARGUE's AND/OR aggregators, kept in a topic's <rules> (read by the importer and the ARGUE metrics)
RULES_PREFIX = "argue-aggregators:"


def format_aggregators(aggs: dict[str, str]) -> str | None:
    """``argue-aggregators: 2=AND; 5=AND`` (OR, the default, is left out); None when all are OR."""
    ands = [f"{k}=AND" for k, v in aggs.items() if v == "AND"]
    return f"{RULES_PREFIX} {'; '.join(ands)}" if ands else None


def parse_aggregators(rules: str | None) -> dict[str, str]:
    """The facet ids a topic's rules mark AND (everything else is OR)."""
    if not rules or RULES_PREFIX not in rules:
        return {}
    body = rules.split(RULES_PREFIX, 1)[1]
    return {m.group(1): m.group(2) for m in re.finditer(r"([^\s;=]+)=(AND|OR)", body)}
