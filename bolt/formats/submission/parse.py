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
from bolt.formats.submission.checks import check_result, usable_run_id
from bolt.formats.submission.header import read_header
from bolt.formats.submission.records import Bullet, Result, Run, Source, collapse
from bolt.formats.submission.rules import (ATTRIBUTES, BAD_RUN_ID, BULLET_WITHOUT_SOURCE, DUPLICATE_RESULT, ELEMENTS,
                                   EMPTY_RESPONSE, ENTITY_REFUSED, FILE_UNREADABLE, MISPLACED_ELEMENT,
                                   MISSING_RESPONSE, MISSING_TOPIC_NUMBER, MIXED_ROOTS, MULTIPLE_RESPONSES,
                                   NOT_WELL_FORMED, NO_RESULTS, PARENT, SOURCE_BAD_OFFSET, SOURCE_HAS_CONTENT,
                                   SOURCE_MISSING_OFFSET, SOURCE_MISSING_POST, TEXT_OUTSIDE_BULLET, TOO_LARGE,
                                   UNKNOWN_ATTRIBUTE, UNKNOWN_ELEMENT, _problem)
from bolt.formats.submission.stream import StreamFault, wrapped_chunks

# Limits that keep memory bounded; a run within them streams at one result at a time.
MAX_BULLETS_PER_RESULT = 10_000
MAX_ELEMENTS_PER_RESULT = 100_000
MAX_BULLET_CHARS = 100_000
MAX_OFFSET_DIGITS = 15

_WRAPPER = "bolt-submission-wrapper"
_OFFSET = re.compile(r"[0-9]+")
_NEG_OFFSET = re.compile(r"-[0-9]+")


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
        self._numbers: dict[str, int] = {}
        self._roots = 0
        self._bare = 0
        self._last_end_line = 1

    # -- helpers
    def _add(self, rule: str, line: int | None, message: str, topic: str | None = None,
             bullet: int | None = None) -> None:
        self.problems.append(_problem(rule, self.file, line, message, topic, bullet))

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
                            self._last_end_line = _end_line(el)
                            result = self._read_result(el)
                            _free(el)
                            if result is not None:
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
                self._stray(parent.text, parent.sourceline if parent.tag != _WRAPPER else 1, None)
            else:
                self._stray(prev.tail, self._last_end_line, None)
            while el.getprevious() is not None:  # free what was already read
                del parent[0]
        tag = el.tag
        if tag == "results" and parent.tag == _WRAPPER:
            self._roots += 1
            if self._roots > 1 or self._bare:
                self._add(MIXED_ROOTS, el.sourceline, "a second run in one file; keep one <results> root per "
                          "file (or none), and put every <result> inside it")
            self._check_attrs(el, None)
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
            self._add(UNKNOWN_ELEMENT, el.sourceline, f"unknown element <{_tagname(el)}>; a run holds only "
                      "<results>, <result>, <response>, <bullet> and <source>: remove it")

    def _top_end(self, el) -> None:
        if el.tag == "results" or el.tag == _WRAPPER:
            last = el[-1] if len(el) else None
            if last is None:
                self._stray(el.text, el.sourceline if el.tag != _WRAPPER else 1, None)
            else:
                self._stray(last.tail, self._last_end_line, None)
        if el.tag != _WRAPPER and el.tag != "results":
            self._last_end_line = _end_line(el)
            el.clear(keep_tail=True)
            parent = el.getparent()
            if parent is not None and not self._container(parent):
                while el.getprevious() is not None:  # free the insides of an unknown element
                    del parent[0]

    def _stray(self, text: str | None, line: int, topic: str | None, where: str = "") -> None:
        if text and text.strip():
            lead = len(text) - len(text.lstrip())
            at = line + text[:lead].count("\n")
            snippet = collapse(text)[:40]
            self._add(TEXT_OUTSIDE_BULLET, at, f"text \"{snippet}\" is outside every <bullet>{where}; move it "
                      "into a <bullet> or delete it", topic)

    def _check_attrs(self, el, topic: str | None, bullet: int | None = None) -> None:
        allowed = ATTRIBUTES.get(el.tag, ())
        for name in el.attrib:
            if name not in allowed:
                hint = f"<{el.tag}> takes {', '.join(allowed)}" if allowed else f"<{el.tag}> takes no attributes"
                self._add(UNKNOWN_ATTRIBUTE, el.sourceline, f"unknown attribute {_qname(name)} on <{el.tag}>; "
                          f"{hint}: remove it", topic, bullet)

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

    # -- one result
    def _read_result(self, el) -> Result | None:
        self.results_seen += 1
        raw_number = el.get("number")
        number = (raw_number or "").strip()
        topic = number or None
        line = el.sourceline
        self._check_attrs(el, topic)
        if not number:
            self._add(MISSING_TOPIC_NUMBER, line, "the <result> has no number; write <result number=\"TOPIC\"> "
                      "with the topic's number from the topic file", None)
        elif raw_number != number:
            self._add(MISSING_TOPIC_NUMBER, line, f"the number \"{raw_number}\" has white space around it; "
                      f"write number=\"{number}\"", topic)
        responses = []
        self._stray(el.text, line, topic, " (inside <result>)")
        for child in el:
            if child.tag == "response":
                responses.append(child)
            else:
                self._misplaced_or_unknown(child, "result", topic)
            if child.tail and not child.tail.isspace():
                self._stray(child.tail, _end_line(child), topic, " (inside <result>)")
        if not responses:
            self._add(MISSING_RESPONSE, line, "the <result> has no <response>; write <response> with the "
                      "bullets inside (an empty <response/> when there are none)", topic)
        elif len(responses) > 1:
            self._add(MULTIPLE_RESPONSES, responses[1].sourceline, f"a second <response> in this <result> "
                      f"(first at line {responses[0].sourceline}); put all bullets in one <response>", topic)
        bullets: list[Bullet] = []
        had_sources: set[int] = set()
        for resp in responses:
            self._check_attrs(resp, topic)
            self._stray(resp.text, resp.sourceline, topic, " (inside <response>)")
            for child in resp:
                if child.tag == "bullet":
                    b, n_src = self._read_bullet(child, len(bullets) + 1, topic)
                    if n_src:
                        had_sources.add(b.position)
                    bullets.append(b)
                else:
                    self._misplaced_or_unknown(child, "response", topic)
                if child.tail and not child.tail.isspace():
                    self._stray(child.tail, _end_line(child), topic, " (inside <response>)")
        result = Result(number, tuple(bullets), line)
        for p in check_result(result, self.file):
            if p.rule == BULLET_WITHOUT_SOURCE and p.bullet in had_sources:
                continue  # its <source> elements were reported as broken already
            if p.rule == EMPTY_RESPONSE and not responses:
                continue
            self.problems.append(p)
        if number:
            if number in self._numbers:
                self._add(DUPLICATE_RESULT, line, f"a second <result> for topic {number} (first at line "
                          f"{self._numbers[number]}); merge the two responses into one <result>", topic)
            else:
                self._numbers[number] = line
        return result

    def _misplaced_or_unknown(self, el, parent: str, topic: str | None, bullet: int | None = None) -> None:
        if el.tag in ELEMENTS:
            self._add(MISPLACED_ELEMENT, el.sourceline, f"<{el.tag}> is not allowed in <{parent}>; it belongs "
                      f"in {PARENT[el.tag]}", topic, bullet)
        else:
            self._add(UNKNOWN_ELEMENT, el.sourceline, f"unknown element <{_tagname(el)}> in <{parent}>; a run "
                      "holds only <results>, <result>, <response>, <bullet> and <source>: remove it",
                      topic, bullet)

    def _read_bullet(self, el, position: int, topic: str | None) -> tuple[Bullet, int]:
        self._check_attrs(el, topic, position)
        parts = [el.text or ""]
        sources: list[Source] = []
        n_src = 0
        for child in el:
            if child.tag == "source":
                n_src += 1
                src = self._read_source(child, topic, position)
                if src is not None:
                    sources.append(src)
            else:
                self._misplaced_or_unknown(child, "bullet", topic, position)
                if child.tag not in ELEMENTS:
                    parts.append("".join(child.itertext()))
            parts.append(child.tail or "")
        text = collapse("".join(parts))
        if len(text) > MAX_BULLET_CHARS:
            self._add(TOO_LARGE, el.sourceline, f"the bullet has {len(text)} characters (limit "
                      f"{MAX_BULLET_CHARS}); a bullet is an extract: shorten it", topic, position)
        return Bullet(position, text, tuple(sources), el.sourceline), n_src

    def _read_source(self, el, topic: str | None, bullet: int) -> Source | None:
        self._check_attrs(el, topic, bullet)
        line = el.sourceline
        if (el.text and el.text.strip()) or len(el):
            self._add(SOURCE_HAS_CONTENT, line, "<source> must be empty: write <source post=\"...\" "
                      "offset=\"...\"/> and put the bullet's text outside it", topic, bullet)
        post = el.get("post")
        raw = el.get("offset")
        ok = True
        if post is None:
            self._add(SOURCE_MISSING_POST, line, "the <source> has no post attribute; add post=\"THREAD-ID\" "
                      "(the <doc id> of the cited thread)", topic, bullet)
            ok = False
        if raw is None:
            self._add(SOURCE_MISSING_OFFSET, line, "the <source> has no offset attribute; add offset=\"N\", the "
                      "code-point offset of the cited text in the thread's XML", topic, bullet)
            return None
        if _NEG_OFFSET.fullmatch(raw) and len(raw) <= MAX_OFFSET_DIGITS + 1:
            offset = int(raw)  # negative-offset is reported by check_result
        elif not _OFFSET.fullmatch(raw) or len(raw) > MAX_OFFSET_DIGITS:
            shown = raw if len(raw) <= 30 else raw[:30] + "..."
            self._add(SOURCE_BAD_OFFSET, line, f"offset=\"{shown}\" is not a decimal integer; write the "
                      "code-point offset as plain digits, e.g. offset=\"1207\"", topic, bullet)
            return None
        else:
            offset = int(raw)
        return Source(post, offset, line) if ok else None


def _tagname(el) -> str:
    return _qname(el.tag) if isinstance(el.tag, str) else str(el.tag)


def _qname(name: str) -> str:
    """``{uri}local`` (lxml's namespaced name) shown as ``local`` with the namespace noted."""
    if name.startswith("{"):
        uri, _, local = name[1:].partition("}")
        return f"{local} (namespace {uri})"
    return name


def _name(tag: str) -> str:
    return tag if tag == "the top level" else f"<{tag}>"


def _end_line(el) -> int:
    """The line where ``el``'s content ends (its last start tag plus the newlines of later text)."""
    last = el
    for last in el.iter():
        pass
    line = (last.sourceline or 1) + (last.text or "").count("\n")
    node = last
    while node is not el and node is not None:
        line += (node.tail or "").count("\n")
        node = node.getparent()
    return line


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
