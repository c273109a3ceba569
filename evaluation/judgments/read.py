"""The one reader of judgments files (SPEC §5): one parser of a line, whole-file and streaming reads.

:func:`parse_judgment` is the only definition of a valid line. Each check tests the common,
well-formed value first with a few type tests and only then looks closer, to convert what
hand-edited files hold (facet ids as numbers, padded ids) or to say what to fix; so the
180k-line files the scorer reads go at the speed of a fast path without a second parser.
"""
from __future__ import annotations

import gc
import hashlib
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from indexing.problems import ERROR, Problem, ProblemsError
from evaluation.judgments.records import (DEFAULT_ASSESSOR, KNOWN_KEYS, META_KEY, REQUIRED_KEYS, SOURCE_KNOWN_KEYS,
                                          SOURCE_REQUIRED_KEYS, JudgedSource, Judgment, JudgmentSet)
from evaluation.judgments.rules import (JUDGMENT_DUPLICATE, JUDGMENT_FORMAT, JUDGMENT_JSON, JUDGMENT_META,
                                        JUDGMENT_MISSING_KEY)
from indexing.errors import ToolkitError

try:  # orjson decodes a line ~2.5x faster than json; json stays the reference (see _read_line)
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - orjson is a declared dependency
    _fast_loads = None

_SOURCE_KNOWN_SET = frozenset(SOURCE_KNOWN_KEYS)
_KNOWN_SET = frozenset(KNOWN_KEYS)
_MAX_PROBLEMS = 50  # stop collecting after this many problems: one pass is enough to see the pattern
# An integer outside the 64-bit range: orjson reads it as a float where json keeps an int.
_LONG_NUMBER = re.compile(r"[0-9]{19}")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Keep the cyclic garbage collector off while building many objects that all stay alive.

    Every container a judgment line allocates counts towards the collector's thresholds, so with the
    collector on it rescans the growing, all-live heap again and again (over half the reading time
    on 180k lines); merely re-enabling it afterwards still makes it scan the new objects generation
    by generation and then the whole heap. On the way out the new objects are therefore placed
    straight in the oldest generation (``gc.freeze()`` then ``gc.unfreeze()``, which the docs define
    as putting every object back into the oldest generation): they stay collectable, and are
    scanned only by full collections that happen anyway. Skipped when the collector was off or the
    application froze objects itself (unfreezing would undo that).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


class _LineError(Exception):
    def __init__(self, message: str, rule: str = JUDGMENT_FORMAT) -> None:
        super().__init__(message)
        self.rule = rule


def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


def _facet_ids(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _LineError(f"{where} must be a list of facet ids, got {type(value).__name__}; write e.g. [\"1\", \"3\"]")
    out = []
    for v in value:
        if isinstance(v, str) and v.strip():
            out.append(v.strip())
        elif _is_int(v):  # hand-edited files often write facet ids as numbers
            out.append(str(v))
        else:
            raise _LineError(f"{where} holds {v!r}; facet ids are non-empty strings such as \"1\"")
    return tuple(out)


def _clean_ids(value: Any) -> bool:
    """A list of non-empty facet id strings without surrounding white space (the written form)."""
    if type(value) is not list:
        return False
    for f in value:
        if type(f) is not str or not f or f != f.strip():
            return False
    return True


def _check_counts(words: Any, responsive: Any) -> None:
    """``words`` and ``responsive_words`` when not both plain integers: each may be left out (None)."""
    if words is not None and (not _is_int(words) or words < 0):
        raise _LineError(f"words must be a non-negative integer, got {words!r}; or leave it out: "
                         "the scorer counts the bullet's words itself")
    if responsive is None:
        return
    if words is None:
        if not _is_int(responsive) or responsive < 0:
            raise _LineError(f"responsive_words must be a non-negative integer, got {responsive!r}")
    elif not _is_int(responsive) or not 0 <= responsive <= words:
        raise _LineError(f"responsive_words must be an integer between 0 and words ({words}), got {responsive!r}")


def _source(obj: Any, i: int) -> JudgedSource:
    """One element of ``sources`` that is not in the four-key written form :func:`_parse` takes in line."""
    where = f"sources[{i}]"
    if not isinstance(obj, dict):
        raise _LineError(f"{where} must be an object with post, offset, supports")
    missing = [k for k in SOURCE_REQUIRED_KEYS if k not in obj]
    if missing:
        raise _LineError(f"{where} lacks {', '.join(missing)}; every source needs post, offset and supports")
    # The JSON keys are the SPEC's: "post" holds the thread id, "unit" the post id.
    thread, offset, post_id, supports = obj["post"], obj["offset"], obj.get("unit"), obj["supports"]
    if not isinstance(thread, str) or not thread:
        raise _LineError(f"{where}.post must be a thread id string")
    if not _is_int(offset) or offset < 0:
        raise _LineError(f"{where}.offset must be a non-negative integer, got {offset!r}")
    if post_id is not None and not isinstance(post_id, str):
        raise _LineError(f"{where}.unit must be a post id string such as \"p4\" or null, got {post_id!r}")
    if not isinstance(supports, bool):
        raise _LineError(f"{where}.supports must be true or false, got {supports!r}")
    raw_facets = obj.get("facets")
    facets = None if raw_facets is None else (tuple(raw_facets) if _clean_ids(raw_facets)
                                              else _facet_ids(raw_facets, f"{where}.facets"))
    unknown = obj.keys() - _SOURCE_KNOWN_SET
    extra = {k: obj[k] for k in obj if k in unknown} if unknown else {}
    return JudgedSource(thread, offset, post_id or None, supports, facets, extra)


def _parse(obj: Any, line: int) -> tuple[Judgment, bool]:
    """The one parser: (judgment, whether it kept unknown keys); :class:`_LineError` says what to fix."""
    if not isinstance(obj, dict):
        raise _LineError("each line must be a JSON object")
    try:
        topic, run, bullet = obj["topic"], obj["run"], obj["bullet"]
        raw_facets, raw_sources = obj["facets"], obj["sources"]
    except KeyError:
        missing = [k for k in REQUIRED_KEYS if k not in obj]
        raise _LineError(f"missing required key{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                         f"each line needs {', '.join(REQUIRED_KEYS)}", JUDGMENT_MISSING_KEY) from None
    assessor = obj.get("assessor", DEFAULT_ASSESSOR)
    words, responsive = obj.get("words"), obj.get("responsive_words")
    if not (type(topic) is str and topic):
        if not isinstance(topic, str) or not topic:
            hint = f"; quote it: \"{topic}\"" if isinstance(topic, (int, float)) else ""
            raise _LineError(f"topic must be a string such as \"1.001\", got {topic!r}{hint}")
    if not (type(run) is str and run) and (not isinstance(run, str) or not run):
        raise _LineError(f"run must be a non-empty string, got {run!r}")
    if not (type(bullet) is int and bullet >= 1) and (not _is_int(bullet) or bullet < 1):
        raise _LineError(f"bullet must be the 1-based position of the bullet, got {bullet!r}")
    if type(assessor) is not str and not isinstance(assessor, str):
        raise _LineError(f"assessor must be a string, got {assessor!r}")
    if type(raw_facets) is list:
        for f in raw_facets:
            if type(f) is not str or not f or f != f.strip():
                facets = _facet_ids(raw_facets, "facets")
                break
        else:
            facets = tuple(raw_facets)
    else:
        facets = _facet_ids(raw_facets, "facets")
    if not (type(words) is int and type(responsive) is int and 0 <= responsive <= words):
        _check_counts(words, responsive)
    if type(raw_sources) is not list and not isinstance(raw_sources, list):
        raise _LineError("sources must be a list of {post, offset, unit, supports} objects")
    has_extra = False
    sources = []
    for src in raw_sources:
        if type(src) is dict and len(src) == 4:  # the written form, checked in line (most lines)
            thread, offset, post_id = src.get("post"), src.get("offset"), src.get("unit", 0)  # SPEC keys
            supports = src.get("supports")
            if (type(thread) is str and thread and type(offset) is int and offset >= 0 and type(supports) is bool
                    and (post_id is None or (type(post_id) is str and post_id))):
                sources.append(JudgedSource(thread, offset, post_id, supports, None, {}))
                continue
        s = _source(src, len(sources))
        if s.extra:
            has_extra = True
        sources.append(s)
    if len(obj) == 8 and "assessor" in obj and "words" in obj and "responsive_words" in obj:  # the written form
        extra = {}
    else:
        unknown = obj.keys() - _KNOWN_SET
        extra = {k: obj[k] for k in obj if k in unknown} if unknown else {}
        has_extra = has_extra or bool(unknown)
    return Judgment(topic, run, bullet, assessor, facets, words, responsive, tuple(sources), extra, line), has_extra


def parse_judgment(obj: Any, line: int = 0) -> Judgment:
    """Build a :class:`Judgment` from one decoded JSON object; ValueError says what to fix."""
    try:
        return _parse(obj, line)[0]
    except _LineError as exc:
        raise ValueError(str(exc)) from None


def _read_line(text: str, line: int) -> tuple[Any, Judgment | None, _LineError | None]:
    """One line -> (decoded object, its judgment or what is wrong with it); a header gives neither.

    orjson decodes first; its result is kept only when it parses and, if the line has unknown keys,
    holds no integer beyond 64 bits (which orjson turns into a float, json into an int) and no
    header key. Every other line is decoded again by json, so odd lines (NaN, lone surrogates, huge
    numbers, errors) read exactly as json reads them. Raises json.JSONDecodeError with json's message.
    """
    if _fast_loads is not None:
        try:
            obj = _fast_loads(text)
            j, has_extra = _parse(obj, line)
        except (ValueError, _LineError):
            pass  # json decides (its message, or its reading of a huge integer)
        else:
            if not has_extra or (_LONG_NUMBER.search(text) is None and META_KEY not in obj):
                return obj, j, None
    obj = json.loads(text)
    if isinstance(obj, dict) and META_KEY in obj:
        return obj, None, None
    try:
        return obj, _parse(obj, line)[0], None
    except _LineError as exc:
        return obj, None, exc


def iter_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of a UTF-8 file; a missing or non-UTF-8 file is a ToolkitError saying what to do."""
    try:
        with open(path, "r", encoding="utf-8", newline="") as fh:
            yield from enumerate(fh, start=1)
    except FileNotFoundError:
        raise ToolkitError("judgments file not found", file=str(path),
                           hint="give the JSONL file written by 'bolt assess' or by an assessor") from None
    except UnicodeDecodeError as exc:
        raise ToolkitError(f"not UTF-8 ({exc.reason} at byte {exc.start})", file=str(path),
                           hint="save the judgments file as UTF-8") from None


def _scan(path: str | os.PathLike) -> tuple[dict | None, list[Judgment]]:
    """Read a whole file, collecting every problem (up to a limit) before failing."""
    with gc_paused():
        return _scan_lines(path)


def _scan_lines(path: str | os.PathLike) -> tuple[dict | None, list[Judgment]]:
    path = Path(path)
    name = str(path)
    header: dict | None = None
    out: list[Judgment] = []
    problems: list[Problem] = []
    seen: dict[tuple[str, str, int], int] = {}
    for lineno, text in iter_lines(path):
        try:
            obj, j, error = _read_line(text, lineno)
        except json.JSONDecodeError as exc:
            if not text.strip():  # blank lines are skipped (checked only here: they never decode)
                continue
            if not (out or problems or header):
                _refuse_other_format(name, lineno, text)
            problems.append(Problem(ERROR, name, lineno, JUDGMENT_JSON,
                                    f"not valid JSON ({exc.msg} at column {exc.colno}); "
                                    "each line must hold one complete JSON object"))
        else:
            if j is not None:
                key = (j.topic_id, j.run, j.bullet)
                first = seen.get(key)
                if first is None:
                    seen[key] = lineno
                    out.append(j)
                else:
                    problems.append(Problem(ERROR, name, lineno, JUDGMENT_DUPLICATE,
                                            f"run {j.run} bullet {j.bullet} of topic {j.topic_id} is judged again "
                                            f"(first at line {first}); keep one line per bullet", j.topic_id, j.bullet))
            elif error is not None:
                if not (out or problems or header):
                    _refuse_other_format(name, lineno, text)
                topic = obj.get("topic") if isinstance(obj, dict) else None
                bullet = obj.get("bullet") if isinstance(obj, dict) else None
                problems.append(Problem(ERROR, name, lineno, error.rule, str(error),
                                        topic if isinstance(topic, str) else None,
                                        bullet if _is_int(bullet) else None))
            elif out or header is not None or not isinstance(obj[META_KEY], dict):
                problems.append(Problem(ERROR, name, lineno, JUDGMENT_META,
                                        "a {\"_meta\": {...}} header may appear only once, as the first line"))
            else:
                header = obj[META_KEY]
        if len(problems) >= _MAX_PROBLEMS:
            break
    if problems:
        raise ProblemsError(problems)
    return header, out


def _refuse_other_format(name: str, lineno: int, text: str) -> None:
    """Stop at a first line that is another evaluation's judgments, naming the format and the fix."""
    from evaluation.judgments.sniff import other_format

    fmt = other_format(text)
    if fmt is not None:
        raise ToolkitError(f"this is {fmt.name}, not a judgments file of per-bullet JSON lines", file=name,
                           line=lineno, hint=fmt.hint)


def iter_judgments(path: str | os.PathLike) -> Iterator[Judgment]:
    """Stream the judgments of a file (the header line is skipped); fails on the first bad line."""
    path = Path(path)
    header_seen = False
    for lineno, text in iter_lines(path):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ToolkitError(f"not valid JSON ({exc.msg} at column {exc.colno})", file=str(path), line=lineno,
                               hint="each line must hold one complete JSON object") from None
        if isinstance(obj, dict) and META_KEY in obj and not header_seen:
            header_seen = True
            continue
        header_seen = True
        try:
            yield _parse(obj, lineno)[0]
        except _LineError as exc:
            raise ToolkitError(str(exc), file=str(path), line=lineno) from None


def read_judgments(path: str | os.PathLike) -> list[Judgment]:
    """All judgments of a file; raises :class:`ProblemsError` listing every bad line (file, line, fix)."""
    return _scan(path)[1]


def read_header(path: str | os.PathLike) -> dict | None:
    """The ``_meta`` header of a judgments file, or None when it has none."""
    for _, text in iter_lines(Path(path)):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError:
            return None
        if isinstance(obj, dict) and isinstance(obj.get(META_KEY), dict):
            return obj[META_KEY]
        return None
    return None


def load_judgments(path: str | os.PathLike) -> JudgmentSet:
    """Header, judgments and file hash together: what the scorer needs for numbers and signature."""
    header, items = _scan(path)
    return JudgmentSet(str(path), header, tuple(items), file_sha256(path))


def file_sha256(path: str | os.PathLike) -> str:
    """Hex SHA-256 of a file's bytes, for the score signature (any change to the file shows)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()

