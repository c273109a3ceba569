"""The submission validator (SPEC §4): every check as a named rule, every finding actionable.

Structure checks come from the one parser, :mod:`bolt.formats.submission`, whose rule catalogue
(``bolt.formats.submission.RULES``) declares every rule of the format; this module runs the checks that
need the topic set (``unknown-topic``, ``missing-result``), the other runs validated with it (``duplicate-run-id``) and the corpus
(``unknown-thread``, ``offset-outside-thread``, ``offset-outside-post``, ``text-not-near-offset``).
Without a corpus the corpus checks are skipped and named in ``Report.skipped_checks``.

The three-word rule: a citation's offset points at, or at most three words before, the start of
the supporting text inside a ``<post>``. A bullet may be translated or trimmed, so when none of
its offsets is followed (within three words) by text the bullet contains, that is a warning.
"""
from __future__ import annotations

import dataclasses
import difflib
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from indexing.problems import ERROR, Problem, ProblemsError
from bolt.formats.submission import (BAD_THREAD_ID, CORPUS_RULES, DUPLICATE_RUN_ID, MISSING_RESULT, OFFSET_OUTSIDE_POST,
                             OFFSET_OUTSIDE_THREAD, RULES, TEXT_NOT_NEAR_OFFSET, TOPIC_RULES, UNKNOWN_THREAD,
                             UNKNOWN_TOPIC, Bullet, Result, SubmissionReader, _problem)
# bolt.formats.topics' checks that need a corpus (skipped without one when validating a topic file)
from bolt.formats.topic_rules import CORPUS_RULES as TOPIC_CORPUS_RULES
from bolt.formats.submission.header import RunHeader, read_header
from indexing.errors import ToolkitError
from indexing.textfacts import CITATION_WORDS_BEFORE, decode_entities, word_keys


MAX_WORDS_BEFORE = CITATION_WORDS_BEFORE   # the guidelines' "within three words"
MATCH_WORDS = 4        # words of the cited text that must appear, in order, in the bullet

_THREAD_ID = re.compile(r"bolt-[a-z]{3}-(?:DF|NG)-[\w.-]+|[A-Z]{3}_(?:DF|NG)_\w+", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>?")
_LOOKAHEAD_CHARS = 600  # decoded characters after an offset that the rule needs at most


@dataclass
class Report:
    """What validation found: errors, warnings, the checks it skipped, and what it read."""

    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    skipped_checks: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    results: int = 0
    bullets: int = 0
    headers: dict[str, RunHeader] = field(default_factory=dict)  # per run file: what says it wrote it

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def problems(self) -> list[Problem]:
        return self.errors + self.warnings

    def add(self, problem: Problem) -> None:
        (self.errors if problem.severity == ERROR else self.warnings).append(problem)

    def extend(self, problems: Iterable[Problem]) -> None:
        for p in problems:
            self.add(p)

    def skip(self, *rules: str) -> None:
        for r in rules:
            if r not in self.skipped_checks:
                self.skipped_checks.append(r)

    def counts(self, file: str | None = None, severity: str | None = None) -> Counter:
        """Findings per rule, optionally for one file and one severity."""
        return Counter(p.rule for p in self.problems
                       if (file is None or p.file == file) and (severity is None or p.severity == severity))

    def to_json(self) -> dict:
        """The ``bolt validate --json`` document (SPEC §8)."""
        doc = {"valid": self.valid,
               "errors": [p.to_json() for p in self.errors],
               "warnings": [p.to_json() for p in self.warnings],
               "skipped_checks": list(self.skipped_checks)}
        if self.headers:
            doc["runs"] = {f: h.to_json() for f, h in self.headers.items()}
        return doc


def _sorted(problems: list[Problem], files: list[str]) -> list[Problem]:
    order = {f: i for i, f in enumerate(files)}
    return sorted(problems, key=lambda p: (order.get(p.file, -1), p.line or 0))


def validate_runs(paths: Iterable[str | os.PathLike], topics_path: str | os.PathLike | None,
                  corpus=None, *, max_bytes: int | None = None) -> Report:
    """Validate submissions against a topic file and, when given, a corpus.

    ``corpus`` is anything with ``.get(thread_id) -> Thread | None``
    (:func:`indexing.corpus.open_corpus`). Never raises on bad input: every finding is in the report.
    """
    report = Report()
    topics: dict[str, int] | None = None
    if topics_path is None:
        report.skip(*TOPIC_RULES)
    else:
        topics = _topic_numbers(topics_path, report)
        if topics is None:
            report.skip(*TOPIC_RULES)
    if corpus is None:
        report.skip(*CORPUS_RULES)
    run_ids: dict[str, str] = {}
    checker = _CorpusChecker(corpus) if corpus is not None else None
    for path in paths:
        file = str(path)
        report.files.append(file)
        report.headers[file] = read_header(path)
        found: list[Problem] = []
        reader = SubmissionReader(path, found, max_bytes=max_bytes)
        answered: set[str] = set()
        shapes: list[Problem] = []  # bad-thread-id findings, said once per file (_thread_id_summary)
        for result in reader:
            report.results += 1
            report.bullets += len(result.bullets)
            if result.topic_id:
                answered.add(result.topic_id)
                if topics is not None and result.topic_id not in topics:
                    found.append(_unknown_topic(file, result, topics))
            for bullet in result.bullets:
                if checker is not None:
                    found.extend(checker.check(file, result.topic_id or None, bullet))
                else:
                    shapes.extend(_thread_id_shape(file, result.topic_id or None, bullet))
        found.extend(_thread_id_summary(shapes))
        if reader.complete:
            if topics is not None:
                for number in topics:
                    if number not in answered:
                        found.append(_problem(MISSING_RESULT, file, None,
                                              f"no <result> for topic {number}; add <result number=\"{number}\">"
                                              "<response/></result> if the system found nothing", number))
            rid = reader.run_id
            if rid in run_ids:
                found.append(_problem(DUPLICATE_RUN_ID, file, reader.run_line,
                                      f"run id \"{rid}\" is also the id of {run_ids[rid]}; give each run its "
                                      "own id (results/@run, or the file name when there is none)"))
            else:
                run_ids[rid] = file
        report.extend(found)
    report.errors = _sorted(report.errors, report.files)
    report.warnings = _sorted(report.warnings, report.files)
    return report


def validate_topics(path: str | os.PathLike, corpus=None) -> Report:
    """Validate a topic file (full or query-only) with :func:`bolt.formats.topics.check_topics`."""
    from bolt.formats.topics import check_topics

    report = Report(files=[str(path)])
    try:
        report.extend(check_topics(path, corpus))
    except ToolkitError as exc:  # e.g. a corpus thread that cannot be read
        report.add(Problem(ERROR, exc.file or str(path), exc.line, "file-unreadable",
                           f"{exc.message}; {exc.hint or 'check the file'}"))
    if corpus is None:
        report.skip(*TOPIC_CORPUS_RULES)
    return report


def _topic_numbers(topics_path, report: Report) -> dict[str, int] | None:
    from bolt.formats.topics import read_topics

    try:
        topics = read_topics(topics_path)
    except ProblemsError as exc:
        report.extend(exc.problems)
        return None
    except ToolkitError as exc:
        report.add(Problem(ERROR, str(topics_path), exc.line, "file-unreadable",
                           f"cannot read the topic file: {exc.message}; check the --topics path"))
        return None
    return {t.topic_id: t.line for t in topics}


def _unknown_topic(file: str, result: Result, topics: dict[str, int]) -> Problem:
    close = difflib.get_close_matches(result.topic_id, list(topics), n=1) if len(topics) < 20_000 else []
    hint = f" (did you mean {close[0]}?)" if close else ""
    return _problem(UNKNOWN_TOPIC, file, result.line,
                    f"topic {result.topic_id} is not in the topic file{hint}; use a number from the topic file "
                    "or delete this <result>", result.topic_id)


def _thread_id_shape(file: str, topic: str | None, bullet: Bullet) -> list[Problem]:
    out = []
    for s in bullet.sources:
        if s.thread.strip() and not _THREAD_ID.fullmatch(s.thread):
            out.append(_problem(BAD_THREAD_ID, file, s.line or bullet.line,
                                f"post=\"{s.thread[:60]}\" does not look like a thread id (bolt-eng-DF-... or "
                                "ENG_DF_...); post holds the <doc id> of the cited thread, not a post id "
                                "(validate with --corpus to check it)", topic, bullet.position))
    return out


def _thread_id_summary(shapes: list[Problem]) -> list[Problem]:
    """A run's bad-thread-id findings said once: the first, counting the others. A run converted from
    another evaluation (``bolt convert``) cites that evaluation's document ids (MS MARCO segments,
    NeuCLIR documents) in every bullet; one warning per run says so where thousands would drown the rest."""
    if len(shapes) <= 1:
        return shapes
    first = shapes[0]
    return [dataclasses.replace(first, message=f"{first.message}; and {len(shapes) - 1} more citation(s) in this run whose "
                                   "post is not an LDC thread id (a run converted with 'bolt convert' cites "
                                   "its own evaluation's document ids: those are not checked here)")]


def words(text: str) -> list[str]:
    """The words of ``text`` as compared: ``indexing.textfacts.word_keys`` (case-folded, punctuation dropped)."""
    return word_keys(text)


def text_follows(cited: str, bullet_words: list[str], max_words: int = MAX_WORDS_BEFORE,
                 match_words: int = MATCH_WORDS) -> bool:
    """True when, skipping at most ``max_words`` words of ``cited`` (the decoded text from an
    offset), the next ``match_words`` words appear in order, adjacent, in the bullet.

    At the end of a post fewer words suffice (all that remain).
    """
    k = min(match_words, len(bullet_words))
    if k == 0:
        return False
    toks = words(cited)[: max_words + k]
    hay = "\x00" + "\x00".join(bullet_words) + "\x00"
    for j in range(0, max_words + 1):
        window = toks[j:j + k]
        if not window:
            break
        if len(window) < k and j + len(window) != len(toks):
            continue
        if "\x00" + "\x00".join(window) + "\x00" in hay:
            return True
    return False


class _CorpusChecker:
    """Checks a bullet's citations against the corpus (thread, offset, post, three-word rule)."""

    def __init__(self, corpus) -> None:
        self.corpus = corpus
        self._missing: set[str] = set()

    def _thread(self, thread_id: str):
        if thread_id in self._missing:
            return None
        thread = self.corpus.get(thread_id)
        if thread is None:
            self._missing.add(thread_id)
        return thread

    def check(self, file: str, topic: str | None, bullet: Bullet) -> list[Problem]:
        out: list[Problem] = []
        in_post = []
        for s in bullet.sources:
            line = s.line or bullet.line
            if not s.thread.strip() or s.offset < 0:
                continue  # reported by the parser
            thread = self._thread(s.thread)
            if thread is None:
                out.append(_problem(UNKNOWN_THREAD, file, line,
                                    f"thread {s.thread[:80]} is not in the corpus; check the id (post holds the "
                                    "<doc id> of the thread) and that --corpus/--index is the collection the "
                                    "topics use", topic, bullet.position))
                continue
            n = len(thread.raw)
            if s.offset >= n:
                out.append(_problem(OFFSET_OUTSIDE_THREAD, file, line,
                                    f"offset {s.offset} is past the end of thread {s.thread} ({n} code points, "
                                    f"offsets 0..{n - 1}); offsets count code points of the raw XML, not bytes",
                                    topic, bullet.position))
                continue
            post = thread.post_at(s.offset)
            if post is None:
                out.append(_problem(OFFSET_OUTSIDE_POST, file, line,
                                    f"offset {s.offset} in thread {s.thread} is not inside a <post> "
                                    f"({_nearest_post(thread, s.offset)}); point at the cited text inside "
                                    "its post", topic, bullet.position))
                continue
            in_post.append((thread, post, s))
        if in_post and bullet.text:
            bw = words(bullet.text)
            if bw and not any(text_follows(_raw_text_after(t, p, s.offset), bw) for t, p, s in in_post) \
                    and not any(text_follows(t.text_at(s.offset)[:_LOOKAHEAD_CHARS], bw) for t, _, s in in_post):
                first = in_post[0][2]
                out.append(_problem(TEXT_NOT_NEAR_OFFSET, file, bullet.line,
                                    "the bullet's text is not found at, or within three words after, any of its "
                                    f"offsets (first: {first.thread} at {first.offset}); if it is a translation "
                                    "or a paraphrase this is expected, else point each offset at the start of "
                                    "the text it cites", topic, bullet.position))
        return out


def _raw_text_after(thread, post, offset: int) -> str:
    """A cheap approximation of ``thread.text_at(offset)``: the raw text up to the post's end with
    tags dropped and entities decoded. Only used to accept; a miss falls back to ``text_at``."""
    raw = thread.raw[offset:min(post.end, offset + _LOOKAHEAD_CHARS)]
    close, open_ = raw.find(">"), raw.find("<")
    if close >= 0 and (open_ < 0 or close < open_):  # the offset is inside a tag
        raw = raw[close + 1:]
    return decode_entities(_TAG.sub(" ", raw))


def _nearest_post(thread, offset: int) -> str:
    posts = getattr(thread, "posts", ())
    if not posts:
        return "the thread has no posts"
    after = [p for p in posts if p.start > offset]
    if after:
        return f"the next post, {after[0].id}, starts at {after[0].start}"
    last = posts[-1]
    return f"the last post, {last.id}, ends at {last.end}"


__all__ = ["Report", "validate_runs", "validate_topics", "RULES", "CORPUS_RULES", "words", "text_follows"]
