"""Per-bullet judgments (SPEC §5): the one reader and writer of the JSONL judgments file.

Human assessors and the automatic assessor write the same file, so the scorer can trust either.
One JSON object per line, keyed by (topic, run, bullet). An optional first line
``{"_meta": {...}}`` records who produced the file (assessor name and version, thresholds,
embedding model); readers that only know SPEC §5 can skip it, and ours keep it
(:func:`read_header`, :func:`load_judgments`). Unknown keys are kept verbatim in ``extra`` and
written back, so a round trip through this module loses nothing. See ``docs/judgments.md``.
"""
from __future__ import annotations

from indexing.atomic import atomic_open

import gc
import hashlib
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from bolt.problems import ERROR, Problem, ProblemsError
from evaluation.metrics.holistic import holistic_score
from indexing.errors import ToolkitError
from indexing.textfacts import WORDS_VERSION

try:  # orjson decodes a line ~2.5x faster than json; json stays the reference (see _decode)
    from orjson import loads as _fast_loads
except ImportError:  # pragma: no cover - orjson is a declared dependency
    _fast_loads = None

META_KEY = "_meta"
REQUIRED_KEYS = ("topic", "run", "bullet", "assessor", "facets", "words", "responsive_words", "sources")
SOURCE_REQUIRED_KEYS = ("post", "offset", "supports")
_SOURCE_KNOWN = ("post", "offset", "unit", "supports", "facets")
_SOURCE_KNOWN_SET = frozenset(_SOURCE_KNOWN)
_REQUIRED_SET = frozenset(REQUIRED_KEYS)
_MAX_PROBLEMS = 50  # stop collecting after this many problems: one pass is enough to see the pattern


@dataclass(frozen=True, slots=True)
class JudgedSource:
    """One citation of a bullet and whether the cited post supports the bullet.

    ``unit`` is the id of the post element holding ``offset`` (``"p4"``), or None when unknown;
    ``facets`` narrows which of the bullet's facets this source supports (None: all of them).
    """

    post: str
    offset: int
    unit: str | None
    supports: bool
    facets: tuple[str, ...] | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict:
        d: dict[str, Any] = {"post": self.post, "offset": self.offset, "unit": self.unit,
                             "supports": self.supports}
        if self.facets is not None:
            d["facets"] = list(self.facets)
        d.update(self.extra)
        return d


@dataclass(frozen=True, slots=True)
class Judgment:
    """The assessment of one bullet: facets it addresses (``M_k``), its words, struck words, sources.

    ``bullet`` is the 1-based position in submission order. ``extra`` keeps every other key
    (``chars``, ``responsive_chars``, ``evidence``, ``notes``, ...) verbatim; metrics ignore it.
    """

    topic: str
    run: str
    bullet: int
    assessor: str
    facets: tuple[str, ...]
    words: int
    responsive_words: int
    sources: tuple[JudgedSource, ...]
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    line: int = field(default=0, compare=False)

    @property
    def key(self) -> tuple[str, str, int]:
        """(topic, run, bullet): at most one judgment per key in a judgment set."""
        return (self.topic, self.run, self.bullet)

    def to_json(self) -> dict:
        d: dict[str, Any] = {
            "topic": self.topic, "run": self.run, "bullet": self.bullet, "assessor": self.assessor,
            "facets": list(self.facets), "words": self.words, "responsive_words": self.responsive_words,
            "sources": [s.to_json() for s in self.sources],
        }
        d.update(self.extra)
        return d


@dataclass(frozen=True, slots=True)
class JudgmentSet:
    """A judgments file as read: its header (or None), its judgments, and its SHA-256 for signatures."""

    path: str
    header: dict | None
    judgments: tuple[Judgment, ...]
    sha256: str

    @property
    def assessors(self) -> tuple[str, ...]:
        """Distinct assessor names in file order."""
        return tuple(dict.fromkeys(j.assessor for j in self.judgments))


# ---------------------------------------------------------------------------------- reading

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
    def __init__(self, message: str, rule: str = "judgment-format") -> None:
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


def _source(obj: Any, i: int) -> JudgedSource:
    # Fast path for the common, well-formed case; anything unusual goes through the checks below.
    if type(obj) is dict and len(obj) == 4:
        post, offset, unit, supports = obj.get("post"), obj.get("offset"), obj.get("unit", 0), obj.get("supports")
        if (type(post) is str and post and type(offset) is int and offset >= 0 and type(supports) is bool
                and (unit is None or (type(unit) is str and unit))):
            return JudgedSource(post, offset, unit, supports, None, {})
    where = f"sources[{i}]"
    if not isinstance(obj, dict):
        raise _LineError(f"{where} must be an object with post, offset, supports")
    missing = [k for k in SOURCE_REQUIRED_KEYS if k not in obj]
    if missing:
        raise _LineError(f"{where} lacks {', '.join(missing)}; every source needs post, offset and supports")
    post, offset, unit, supports = obj["post"], obj["offset"], obj.get("unit"), obj["supports"]
    if not isinstance(post, str) or not post:
        raise _LineError(f"{where}.post must be a thread id string")
    if not _is_int(offset) or offset < 0:
        raise _LineError(f"{where}.offset must be a non-negative integer, got {offset!r}")
    if unit is not None and not isinstance(unit, str):
        raise _LineError(f"{where}.unit must be a post id string such as \"p4\" or null, got {unit!r}")
    if not isinstance(supports, bool):
        raise _LineError(f"{where}.supports must be true or false, got {supports!r}")
    facets = _facet_ids(obj["facets"], f"{where}.facets") if obj.get("facets") is not None else None
    unknown = obj.keys() - _SOURCE_KNOWN_SET
    extra = {k: obj[k] for k in obj if k in unknown} if unknown else {}
    return JudgedSource(post, offset, unit or None, supports, facets, extra)


def parse_judgment(obj: Any, line: int = 0) -> Judgment:
    """Build a :class:`Judgment` from one decoded JSON object; ValueError says what to fix."""
    try:
        return _parse(obj, line)
    except _LineError as exc:
        raise ValueError(str(exc)) from None


# An integer outside the 64-bit range: orjson reads it as a float where json keeps an int.
_LONG_NUMBER = re.compile(r"[0-9]{19}")


def _clean_ids(value: Any) -> bool:
    """A list of non-empty facet id strings without surrounding white space (the written form)."""
    if type(value) is not list:
        return False
    for f in value:
        if type(f) is not str or not f or f != f.strip():
            return False
    return True


def _parse_fast(obj: Any, line: int) -> tuple[Judgment, bool] | None:
    """The common, well-formed line with few operations: (judgment, whether it has extra keys).

    None sends the object through :func:`_parse_checked`, which says what is wrong. Accepts only
    values that need no conversion, so the judgment equals :func:`_parse_checked`'s. Without extra
    keys every value is a string, int, bool or null, which orjson and json decode alike.
    """
    if type(obj) is not dict:
        return None
    try:
        topic, run, bullet, assessor = obj["topic"], obj["run"], obj["bullet"], obj["assessor"]
        facets, words, responsive, raw_sources = obj["facets"], obj["words"], obj["responsive_words"], obj["sources"]
    except KeyError:
        return None
    if not (type(topic) is str and topic and type(run) is str and run and type(bullet) is int and bullet >= 1
            and type(assessor) is str and type(words) is int and type(responsive) is int
            and 0 <= responsive <= words and type(raw_sources) is list and type(facets) is list):
        return None
    for f in facets:
        if type(f) is not str or not f or f != f.strip():
            return None
    has_extra = len(obj) != 8
    sources = []
    for src in raw_sources:
        if type(src) is not dict:
            return None
        try:
            post, offset, supports = src["post"], src["offset"], src["supports"]
            unit = src["unit"]
        except KeyError:
            return None
        if not (type(post) is str and post and type(offset) is int and offset >= 0 and type(supports) is bool
                and (unit is None or (type(unit) is str and unit))):
            return None
        if len(src) == 4:
            sources.append(JudgedSource(post, offset, unit, supports, None, {}))
            continue
        sfacets = src.get("facets")
        if sfacets is not None and not _clean_ids(sfacets):
            return None
        unknown = src.keys() - _SOURCE_KNOWN_SET
        if unknown:
            has_extra = True
        sources.append(JudgedSource(post, offset, unit, supports, tuple(sfacets) if sfacets is not None else None,
                                    {k: src[k] for k in src if k in unknown} if unknown else {}))
    if len(obj) == 8:
        extra = {}
    else:
        unknown = obj.keys() - _REQUIRED_SET
        if META_KEY in unknown:
            return None
        extra = {k: obj[k] for k in obj if k in unknown}
    return Judgment(topic, run, bullet, assessor, tuple(facets), words, responsive, tuple(sources), extra,
                    line), has_extra


def _decode(text: str, line: int) -> tuple[Any, Judgment | None]:
    """One line -> (decoded object, its judgment when the fast path took it).

    orjson decodes first; its result is used only when the fast path accepts it and, if the line has
    extra keys, holds no integer beyond 64 bits (which orjson turns into a float). Every other line
    is decoded again by json, so odd lines (NaN, lone surrogates, huge numbers, errors) behave and
    read exactly as before. Raises json.JSONDecodeError with json's message.
    """
    if _fast_loads is not None:
        try:
            obj = _fast_loads(text)
        except ValueError:
            pass
        else:
            fast = _parse_fast(obj, line)
            if fast is not None and (not fast[1] or _LONG_NUMBER.search(text) is None):
                return obj, fast[0]
    return json.loads(text), None


def _parse(obj: Any, line: int) -> Judgment:
    fast = _parse_fast(obj, line)
    if fast is not None:
        return fast[0]
    return _parse_checked(obj, line)


def _parse_checked(obj: Any, line: int) -> Judgment:
    if not isinstance(obj, dict):
        raise _LineError("each line must be a JSON object")
    if not _REQUIRED_SET <= obj.keys():
        missing = [k for k in REQUIRED_KEYS if k not in obj]
        raise _LineError(f"missing required key{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                         f"each line needs {', '.join(REQUIRED_KEYS)}", "judgment-missing-key")
    topic, run, bullet, assessor = obj["topic"], obj["run"], obj["bullet"], obj["assessor"]
    if not isinstance(topic, str) or not topic:
        hint = f"; quote it: \"{topic}\"" if isinstance(topic, (int, float)) else ""
        raise _LineError(f"topic must be a string such as \"1.001\", got {topic!r}{hint}")
    if not isinstance(run, str) or not run:
        raise _LineError(f"run must be a non-empty string, got {run!r}")
    if not _is_int(bullet) or bullet < 1:
        raise _LineError(f"bullet must be the 1-based position of the bullet, got {bullet!r}")
    if not isinstance(assessor, str):
        raise _LineError(f"assessor must be a string, got {assessor!r}")
    raw_facets = obj["facets"]
    if type(raw_facets) is list and all(type(f) is str and f and f == f.strip() for f in raw_facets):
        facets = tuple(raw_facets)
    else:
        facets = _facet_ids(raw_facets, "facets")
    words, responsive = obj["words"], obj["responsive_words"]
    if not _is_int(words) or words < 0:
        raise _LineError(f"words must be a non-negative integer, got {words!r}")
    if not _is_int(responsive) or not 0 <= responsive <= words:
        raise _LineError(f"responsive_words must be an integer between 0 and words ({words}), got {responsive!r}")
    raw_sources = obj["sources"]
    if not isinstance(raw_sources, list):
        raise _LineError("sources must be a list of {post, offset, unit, supports} objects")
    sources = tuple(_source(s, i) for i, s in enumerate(raw_sources))
    unknown = obj.keys() - _REQUIRED_SET
    extra = {k: obj[k] for k in obj if k in unknown} if unknown else {}
    return Judgment(topic, run, bullet, assessor, facets, words, responsive, sources, extra, line)


def _iter_lines(path: Path) -> Iterator[tuple[int, str]]:
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
    for lineno, text in _iter_lines(path):
        try:
            obj, j = _decode(text, lineno)
        except json.JSONDecodeError as exc:
            if not text.strip():  # blank lines are skipped (checked only here: they never decode)
                continue
            problems.append(Problem(ERROR, name, lineno, "judgment-json",
                                    f"not valid JSON ({exc.msg} at column {exc.colno}); "
                                    "each line must hold one complete JSON object"))
        else:
            if j is not None:  # the fast path took it
                key = (j.topic, j.run, j.bullet)
                first = seen.get(key)
                if first is None:
                    seen[key] = lineno
                    out.append(j)
                    continue
            elif isinstance(obj, dict) and META_KEY in obj:
                if out or header is not None or not isinstance(obj[META_KEY], dict):
                    problems.append(Problem(ERROR, name, lineno, "judgment-meta",
                                            "a {\"_meta\": {...}} header may appear only once, as the first line"))
                else:
                    header = obj[META_KEY]
                continue
            try:
                j = j or _parse_checked(obj, lineno)
            except _LineError as exc:
                topic = obj.get("topic") if isinstance(obj, dict) else None
                bullet = obj.get("bullet") if isinstance(obj, dict) else None
                problems.append(Problem(ERROR, name, lineno, exc.rule, str(exc),
                                        topic if isinstance(topic, str) else None,
                                        bullet if _is_int(bullet) else None))
            else:
                key = (j.topic, j.run, j.bullet)
                first = seen.get(key)
                if first is not None:
                    problems.append(Problem(ERROR, name, lineno, "judgment-duplicate",
                                            f"run {j.run} bullet {j.bullet} of topic {j.topic} is judged again "
                                            f"(first at line {first}); keep one line per bullet", j.topic, j.bullet))
                else:
                    seen[key] = lineno
                    out.append(j)
        if len(problems) >= _MAX_PROBLEMS:
            break
    if problems:
        raise ProblemsError(problems)
    return header, out


def iter_judgments(path: str | os.PathLike) -> Iterator[Judgment]:
    """Stream the judgments of a file (the header line is skipped); fails on the first bad line."""
    path = Path(path)
    header_seen = False
    for lineno, text in _iter_lines(path):
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
            yield _parse(obj, lineno)
        except _LineError as exc:
            raise ToolkitError(str(exc), file=str(path), line=lineno) from None


def read_judgments(path: str | os.PathLike) -> list[Judgment]:
    """All judgments of a file; raises :class:`ProblemsError` listing every bad line (file, line, fix)."""
    return _scan(path)[1]


def read_header(path: str | os.PathLike) -> dict | None:
    """The ``_meta`` header of a judgments file, or None when it has none."""
    for _, text in _iter_lines(Path(path)):
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


# ---------------------------------------------------------------------------------- writing

def dumps_judgment(j: Judgment) -> str:
    """One JSONL line (no newline), keys in SPEC order then extras, non-ASCII kept readable."""
    return json.dumps(j.to_json(), ensure_ascii=False)


def write_judgments(judgments: Iterable[Judgment], path: str | os.PathLike, header: dict | None = None) -> None:
    """Write judgments as JSONL atomically (temp file beside the target, then ``os.replace``).

    ``header`` (assessor name/version, thresholds, model id...) becomes a first line
    ``{"_meta": header}``, stamped with the word definition its word counts follow
    (``words``: ``indexing.textfacts.WORDS_VERSION``); the lines after it follow SPEC §5 exactly.
    """
    with atomic_open(path) as fh:
        if header is not None:
            header = {**header, "words": header.get("words", WORDS_VERSION)}
            fh.write(json.dumps({META_KEY: header}, ensure_ascii=False, sort_keys=True) + "\n")
        for j in judgments:
            fh.write(dumps_judgment(j) + "\n")


# ---------------------------------------------------------------------------------- holistic judgments

HOLISTIC_COLUMNS = ("topic", "run", "assessor", "content", "organization")


@dataclass(frozen=True, slots=True)
class HolisticJudgment:
    """One assessor's holistic scores of a response: content and organisation on 0..10."""

    topic: str
    run: str
    assessor: str
    content: float
    organization: float

    @property
    def score(self) -> float:
        return holistic_score(self.content, self.organization)



def read_holistic(path: str | os.PathLike) -> list[HolisticJudgment]:
    """Holistic scores (AQUAINT pilot): content and organisation on 0..10 per (topic, run, assessor).

    ``.jsonl``/``.json`` files hold one object per line with the keys of ``HOLISTIC_COLUMNS``; any other
    file is UTF-8 TSV with that header line. Blank lines and ``#`` lines are skipped. Every bad line
    is reported at once (file, line, what to fix).
    """
    path = Path(path)
    name = str(path)
    jsonl = path.suffix.lower() in (".jsonl", ".json")
    problems: list[Problem] = []
    out: list[HolisticJudgment] = []
    columns: tuple[str, ...] | None = None if not jsonl else HOLISTIC_COLUMNS
    seen: dict[tuple[str, str, str], int] = {}
    for lineno, text in _iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if jsonl:
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(Problem(ERROR, name, lineno, "holistic-json", f"not valid JSON ({exc.msg})"))
                continue
            if isinstance(obj, dict) and META_KEY in obj:
                continue
            row = obj if isinstance(obj, dict) else {}
        else:
            cells = [c.strip() for c in text.rstrip("\r\n").split("\t")]
            if columns is None:
                if [c.lower() for c in cells] != list(HOLISTIC_COLUMNS):
                    problems.append(Problem(ERROR, name, lineno, "holistic-header",
                                            f"the first line must be the header {chr(9).join(HOLISTIC_COLUMNS)!r} "
                                            "(tab-separated)"))
                    break
                columns = HOLISTIC_COLUMNS
                continue
            row = dict(zip(columns, cells)) if len(cells) == len(columns) else {}
        missing = [c for c in HOLISTIC_COLUMNS if c not in row]
        if missing:
            problems.append(Problem(ERROR, name, lineno, "holistic-format",
                                    f"needs {', '.join(HOLISTIC_COLUMNS)}; missing {', '.join(missing)}"))
            continue
        try:
            content, organization = float(row["content"]), float(row["organization"])
        except (TypeError, ValueError):
            problems.append(Problem(ERROR, name, lineno, "holistic-format",
                                    "content and organization must be numbers from 0 to 10"))
            continue
        if not (0 <= content <= 10 and 0 <= organization <= 10):
            problems.append(Problem(ERROR, name, lineno, "holistic-range",
                                    f"content {content:g} and organization {organization:g} must lie in 0..10"))
            continue
        key = (str(row["topic"]), str(row["run"]), str(row["assessor"]))
        if key in seen:
            problems.append(Problem(ERROR, name, lineno, "holistic-duplicate",
                                    f"assessor {key[2]} scored run {key[1]} on topic {key[0]} again "
                                    f"(first at line {seen[key]}); keep one line"))
            continue
        seen[key] = lineno
        out.append(HolisticJudgment(*key, content, organization))
    if problems:
        raise ProblemsError(problems)
    return out
