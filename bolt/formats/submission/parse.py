"""The one submission parser (SPEC §4): streams a run's results, recording every problem.

A run is ``<result number=...>`` elements, concatenated with no root (as in the BOLT guidelines)
or inside a ``<results run=...>`` root. Each result has one ``<response>`` of ``<bullet>``
elements; a bullet's text is its text content without its ``<source post=... offset=.../>``
elements, whitespace collapsed.

The parser streams: it reads bytes in chunks checked by :mod:`bolt.formats.submission.stream` (strict
UTF-8, no ``<!DOCTYPE``/``<!ENTITY`` reaches the XML parser, so no external entity is fetched
and no entity is expanded), feeds lxml's pull parser with ``resolve_entities=False,
no_network=True, load_dtd=False``, and frees every ``<result>`` once it is read. A multi-gigabyte run needs memory for one result at a time.
Line numbers are the lines of the user's file: the synthetic root that lets a root-less file
parse is inserted without a newline.
"""
from __future__ import annotations

import gzip
import os
import re
from pathlib import Path
from typing import IO, Iterator

from indexing.problems import ERROR, Problem, ProblemsError
from bolt.formats.submission.checks import usable_run_id
from bolt.formats.submission.header import read_header
from bolt.formats.submission.elements import ResultReader, end_line
from bolt.formats.submission.findings import Findings, tagname
from bolt.formats.submission.records import Result, Run
from bolt.formats.submission.rules import (BAD_RUN_ID, ELEMENTS, ENTITY_REFUSED, FILE_UNREADABLE, MISPLACED_ELEMENT,
                                   MIXED_ROOTS, NO_RESULTS, NOT_WELL_FORMED, PARENT, TOO_LARGE, UNKNOWN_ELEMENT)
from bolt.formats.submission.stream import StreamFault, wrapped_chunks

# Limits that keep memory bounded; a run within them streams at one result at a time (a bullet's
# own limits are in bolt.formats.submission.elements).
MAX_BULLETS_PER_RESULT = 10_000
MAX_ELEMENTS_PER_RESULT = 100_000

_WRAPPER = "bolt-submission-wrapper"


def run_id_from_path(path: str | os.PathLike) -> str:
    """The run id of a file without ``results/@run``: its name without ``.xml``/``.xml.gz``."""
    name = Path(path).name
    for suffix in (".xml.gz", ".gz", ".xml"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return Path(name).stem


class _Fatal(Exception):
    """Stop reading: the problem was recorded and nothing after it can be trusted."""


class SubmissionReader:
    """Stream the results of one submission file, recording every problem met on the way.

    Iterate to get :class:`Result` records in file order. ``problems`` receives every finding
    (errors and warnings); after iteration ``run_id``, ``results_seen`` and ``complete`` (False
    when a fatal error stopped reading early) describe the file.
    """

    def __init__(self, path: str | os.PathLike, problems: list[Problem] | None = None, *,
                 max_bytes: int | None = None) -> None:
        self.path = Path(path)
        self.file = str(path)
        self.problems: list[Problem] = [] if problems is None else problems
        self.max_bytes = max_bytes
        self.run_id = run_id_from_path(path)
        self.run_attr: str | None = None
        self.run_line: int | None = None  # line of the <results> root that named the run
        self.results_seen = 0
        self.complete = False
        self.findings = Findings(self.file, self.problems)
        self._results = ResultReader(self.findings)
        self._roots = 0
        self._bare = 0
        self._last_end_line = 1

    # -- helpers
    def _add(self, rule: str, line: int | None, message: str, topic: str | None = None,
             bullet: int | None = None) -> None:
        self.findings.add(rule, line, message, topic, bullet)

    def _fatal(self, rule: str, line: int | None, message: str) -> _Fatal:
        self._add(rule, line, message)
        return _Fatal()

    def __iter__(self) -> Iterator[Result]:
        try:
            fh = self._open()
        except OSError as exc:
            self._add(FILE_UNREADABLE, None, f"cannot read the file ({exc.strerror or exc}); check the path "
                      "and permissions")
            return
        try:
            with fh:
                yield from self._parse(fh)
            self.complete = True
        except _Fatal:
            return
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            self._add(FILE_UNREADABLE, None, f"reading stopped ({exc}); the file may be truncated, copy it again")

    def _open(self) -> IO[bytes]:
        if self.path.is_dir():
            raise IsADirectoryError(21, "is a folder, not a file")
        if self.path.name.lower().endswith(".gz"):
            return gzip.open(self.path, "rb")
        return open(self.path, "rb")

    # -- the byte stream (checked by bolt.formats.submission.stream)
    def _feed_chunks(self, fh: IO[bytes]) -> Iterator[bytes]:
        try:
            yield from wrapped_chunks(fh, _WRAPPER, self.max_bytes)
        except StreamFault as fault:
            raise self._fatal(fault.rule, fault.line, fault.message) from None

    # -- the XML events
    def _parse(self, fh: IO[bytes]) -> Iterator[Result]:
        from lxml import etree

        parser = etree.XMLPullParser(events=("start", "end"), resolve_entities=False, no_network=True,
                                     load_dtd=False, dtd_validation=False, huge_tree=False,
                                     remove_comments=True, remove_pis=True, collect_ids=False)
        depth = 0
        in_result = None
        result_depth = 0
        count_bullets = count_elements = 0
        try:
            for data in self._feed_chunks(fh):
                etree.clear_error_log()  # the log is per thread: keep only this feed's errors
                parser.feed(data)
                for event, el in parser.read_events():
                    if event == "start":
                        depth += 1
                        if in_result is not None:
                            count_elements += 1
                            count_bullets += el.tag == "bullet"
                            if count_bullets > MAX_BULLETS_PER_RESULT or count_elements > MAX_ELEMENTS_PER_RESULT:
                                raise self._fatal(TOO_LARGE, el.sourceline,
                                                  f"the <result> at line {in_result.sourceline} holds over "
                                                  f"{MAX_BULLETS_PER_RESULT} bullets or {MAX_ELEMENTS_PER_RESULT} "
                                                  "elements; keep responses short (bullets are extracts)")
                            continue
                        if depth == 1:
                            continue  # the wrapper
                        self._top_start(el, depth)
                        if el.tag == "result" and self._container(el.getparent()):
                            in_result, result_depth, count_bullets, count_elements = el, depth, 0, 0
                    else:
                        depth -= 1
                        if in_result is not None and depth == result_depth - 1:
                            in_result = None
                            self._last_end_line = end_line(el)
                            self.results_seen += 1
                            result = self._results.read(el)
                            _free(el)
                            yield result
                        elif in_result is None:
                            self._top_end(el)
            etree.clear_error_log()
            parser.close()
        except etree.XMLSyntaxError as exc:
            raise self._syntax_error(exc, parser)
        if not self.results_seen:
            raise self._fatal(NO_RESULTS, None, "the file holds no <result>; add one <result number=\"TOPIC\">"
                              "<response>...</response></result> per topic")

    def _container(self, el) -> bool:
        return el is not None and (el.tag == _WRAPPER or (el.tag == "results" and el.getparent() is not None
                                                          and el.getparent().tag == _WRAPPER))

    def _top_start(self, el, depth: int) -> None:
        """An element outside every result: check where it is, and any text before it."""
        parent = el.getparent()
        if self._container(parent):
            prev = el.getprevious()
            if prev is None:
                self.findings.stray(parent.text, parent.sourceline if parent.tag != _WRAPPER else 1, None)
            else:
                self.findings.stray(prev.tail, self._last_end_line, None)
            while el.getprevious() is not None:  # free what was already read
                del parent[0]
        tag = el.tag
        if tag == "results" and parent.tag == _WRAPPER:
            self._roots += 1
            if self._roots > 1 or self._bare:
                self._add(MIXED_ROOTS, el.sourceline, "a second run in one file; keep one <results> root per "
                          "file (or none), and put every <result> inside it")
            self.findings.check_attrs(el, None)
            run = el.get("run")
            if run is not None:
                if not usable_run_id(run):
                    self._add(BAD_RUN_ID, el.sourceline, f"run=\"{run[:40]}\" is not a usable run id; use a "
                              "short name without spaces, e.g. run=\"myteam-run1\"")
                elif self._roots == 1:
                    self.run_id = self.run_attr = run
                    self.run_line = el.sourceline
        elif tag == "result" and self._container(parent):
            if parent.tag == _WRAPPER:
                self._bare += 1
                if self._roots and self._bare == 1:
                    self._add(MIXED_ROOTS, el.sourceline, "a <result> outside the <results> root; move it "
                              "inside <results>")
        elif tag in ELEMENTS:
            where = parent.tag if parent.tag != _WRAPPER else "the top level"
            self._add(MISPLACED_ELEMENT, el.sourceline, f"<{tag}> is not allowed in {_name(where)}; it belongs "
                      f"in {PARENT[tag]}")
        elif self._container(parent) or parent.tag == _WRAPPER:
            self._add(UNKNOWN_ELEMENT, el.sourceline, f"unknown element <{tagname(el)}>; a run holds only "
                      "<results>, <result>, <response>, <bullet> and <source>: remove it")

    def _top_end(self, el) -> None:
        if el.tag == "results" or el.tag == _WRAPPER:
            last = el[-1] if len(el) else None
            if last is None:
                self.findings.stray(el.text, el.sourceline if el.tag != _WRAPPER else 1, None)
            else:
                self.findings.stray(last.tail, self._last_end_line, None)
        if el.tag != _WRAPPER and el.tag != "results":
            self._last_end_line = end_line(el)
            el.clear(keep_tail=True)
            parent = el.getparent()
            if parent is not None and not self._container(parent):
                while el.getprevious() is not None:  # free the insides of an unknown element
                    del parent[0]

    def _syntax_error(self, exc, parser) -> _Fatal:
        entry = None
        for e in list(parser.error_log) + list(getattr(exc, "error_log", None) or []):
            if e.level_name in ("ERROR", "FATAL"):
                entry = e
                break
        msg = entry.message if entry is not None else (exc.msg or str(exc))
        line = entry.line if entry is not None and entry.line else (exc.lineno or None)
        type_name = entry.type_name if entry is not None else ""
        msg = re.sub(r", line \d+, column \d+$", "", msg).replace(_WRAPPER, "end of file")
        if "UNDECLARED_ENTITY" in type_name or "not defined" in msg and "Entity" in msg:
            return self._fatal(ENTITY_REFUSED, line, f"{msg}: only &amp; &lt; &gt; &quot; &apos; and numeric "
                               "references (&#233;) are allowed; write the character itself")
        if "HUGE" in type_name.upper() or "XML_PARSE_HUGE" in msg or "huge" in msg.lower():
            return self._fatal(TOO_LARGE, line, f"{msg}; a text or nesting depth is beyond the parser's "
                               "limits: keep bullets short and elements shallow")
        return self._fatal(NOT_WELL_FORMED, line, f"not well-formed XML: {msg}; fix the markup (escape & as "
                           "&amp; and < as &lt;, close every element, write <source .../> self-closed)")


def _name(tag: str) -> str:
    return tag if tag == "the top level" else f"<{tag}>"


def _free(el) -> None:
    """Drop a read result's subtree so memory holds one result at a time."""
    el.clear(keep_tail=True)


def iter_results(path: str | os.PathLike, problems: list[Problem] | None = None, *,
                 max_bytes: int | None = None) -> Iterator[Result]:
    """Stream a run's results in file order.

    With a ``problems`` list, every finding is appended to it and reading goes on as far as it
    can. Without one, a :class:`ProblemsError` listing every error is raised after the last result
    (or at the first fatal error), so a consumer never finishes silently on a broken file.
    """
    own = problems is None
    found: list[Problem] = [] if own else problems
    reader = SubmissionReader(path, found, max_bytes=max_bytes)
    yield from reader
    if own and any(p.severity == ERROR for p in found):
        raise ProblemsError(found)


def read_run(path: str | os.PathLike, problems: list[Problem] | None = None) -> Run:
    """Read a whole run; raise :class:`ProblemsError` listing every error unless ``problems`` is given.

    The run id is ``results/@run`` when present, else the file name's stem. A topic answered twice
    keeps its first result (the second is a ``duplicate-result`` error).
    """
    found: list[Problem] = [] if problems is None else problems
    reader = SubmissionReader(path, found)
    results: dict[str, Result] = {}
    for r in reader:
        results.setdefault(r.topic_id, r)
    if problems is None and any(p.severity == ERROR for p in found):
        raise ProblemsError(found)
    return Run(reader.run_id, str(path), results, read_header(path))
