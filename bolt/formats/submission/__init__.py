"""Submissions (SPEC §4): the one parser and writer of runs, used by the validator, scorer and tests.

Split by job; every name is re-exported here, so ``from bolt.formats.submission import ...`` is the
public way in:

- :mod:`~bolt.formats.submission.records`: ``Run``, ``Result``, ``Bullet``, ``Source`` and the bullet text rule;
- :mod:`~bolt.formats.submission.rules`: the format's one rule catalogue (``RULES``) and the format as data;
- :mod:`~bolt.formats.submission.checks`: checks that need only the records (``check_result``);
- :mod:`~bolt.formats.submission.stream`: the byte stream checked before the XML parser sees it (UTF-8, no DTD);
- :mod:`~bolt.formats.submission.parse`: the streaming parser (``SubmissionReader``, ``iter_results``, ``read_run``);
- :mod:`~bolt.formats.submission.elements`: reading one ``<result>``, its bullets and sources (``ResultReader``);
- :mod:`~bolt.formats.submission.findings`: the problems one file's reading records (``Findings``);
- :mod:`~bolt.formats.submission.write`: the writer (``write_run``, ``clean_text``);
- :mod:`~bolt.formats.submission.header`: what wrote a run (``RunHeader``, ``read_header``), in comments
  before the root.

Every finding is a :class:`indexing.problems.Problem` whose ``rule`` is one of :data:`RULES`.
"""
from __future__ import annotations

from bolt.formats.submission.records import BAD_XML_CHARS, Bullet, Result, Run, Source, collapse
from bolt.formats.submission.rules import (
    ATTRIBUTES, BAD_ENCODING_DECLARATION, BAD_RUN_ID, BULLET_WITHOUT_SOURCE, DOCTYPE_REFUSED, DUPLICATE_BULLET,
    DUPLICATE_RESULT, DUPLICATE_SOURCE, ELEMENTS, EMPTY_BULLET_TEXT, EMPTY_FILE, EMPTY_RESPONSE, ENTITY_REFUSED,
    FILE_UNREADABLE, INVALID_UTF8, MISPLACED_ELEMENT, MISSING_RESPONSE, MISSING_TOPIC_NUMBER, MIXED_ROOTS,
    MULTIPLE_RESPONSES, NEGATIVE_OFFSET, NO_RESULTS, NOT_WELL_FORMED, PARENT, RULES, SOURCE_BAD_OFFSET,
    SOURCE_HAS_CONTENT, SOURCE_MISSING_OFFSET, SOURCE_MISSING_POST, TEXT_OUTSIDE_BULLET, TOO_LARGE,
    UNKNOWN_ATTRIBUTE, UNKNOWN_ELEMENT, Rule, _problem, register_rule,
    UNKNOWN_TOPIC, MISSING_RESULT, DUPLICATE_RUN_ID, BAD_THREAD_ID, UNKNOWN_THREAD, OFFSET_OUTSIDE_THREAD,
    OFFSET_OUTSIDE_POST, TEXT_NOT_NEAR_OFFSET, CORPUS_RULES, TOPIC_RULES)
from bolt.formats.submission.checks import MAX_RUN_ID_CHARS, check_result, usable_run_id, usable_thread_id
from bolt.formats.submission.stream import CHUNK_BYTES, StreamFault, checked_chunks, wrapped_chunks
from bolt.formats.submission.elements import MAX_BULLET_CHARS, MAX_OFFSET_DIGITS
from bolt.formats.submission.parse import (MAX_BULLETS_PER_RESULT, MAX_ELEMENTS_PER_RESULT, SubmissionReader,
                                           iter_results, read_run, run_id_from_path)
from bolt.formats.submission.header import RunHeader, read_header
from bolt.formats.submission.write import clean_text, write_run

__all__ = [
    # records
    "Source", "Bullet", "Result", "Run", "collapse", "BAD_XML_CHARS",
    # rules
    "Rule", "RULES", "register_rule", "ELEMENTS", "ATTRIBUTES", "PARENT",
    "FILE_UNREADABLE", "EMPTY_FILE", "INVALID_UTF8", "BAD_ENCODING_DECLARATION", "DOCTYPE_REFUSED",
    "ENTITY_REFUSED", "NOT_WELL_FORMED", "TOO_LARGE", "UNKNOWN_ELEMENT", "UNKNOWN_ATTRIBUTE", "MISPLACED_ELEMENT",
    "MIXED_ROOTS", "BAD_RUN_ID", "TEXT_OUTSIDE_BULLET", "NO_RESULTS", "MISSING_TOPIC_NUMBER", "DUPLICATE_RESULT",
    "MISSING_RESPONSE", "MULTIPLE_RESPONSES", "EMPTY_RESPONSE", "EMPTY_BULLET_TEXT", "BULLET_WITHOUT_SOURCE",
    "DUPLICATE_BULLET", "SOURCE_MISSING_POST", "SOURCE_MISSING_OFFSET", "SOURCE_BAD_OFFSET", "NEGATIVE_OFFSET",
    "SOURCE_HAS_CONTENT", "DUPLICATE_SOURCE", "UNKNOWN_TOPIC", "MISSING_RESULT", "DUPLICATE_RUN_ID", "BAD_THREAD_ID",
    "UNKNOWN_THREAD", "OFFSET_OUTSIDE_THREAD", "OFFSET_OUTSIDE_POST", "TEXT_NOT_NEAR_OFFSET", "CORPUS_RULES",
    "TOPIC_RULES",
    # checks
    "check_result", "usable_run_id", "usable_thread_id", "MAX_RUN_ID_CHARS",
    # parse
    "SubmissionReader", "iter_results", "read_run", "run_id_from_path", "CHUNK_BYTES", "MAX_BULLETS_PER_RESULT",
    "MAX_ELEMENTS_PER_RESULT", "MAX_BULLET_CHARS", "MAX_OFFSET_DIGITS",
    # stream
    "StreamFault", "checked_chunks", "wrapped_chunks",
    # write
    "write_run", "clean_text",
    # header
    "RunHeader", "read_header",
]
