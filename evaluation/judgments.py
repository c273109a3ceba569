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

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from bolt.problems import ERROR, Problem, ProblemsError
from evaluation.metrics.holistic import holistic_score
from indexing.errors import ToolkitError

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


def _parse(obj: Any, line: int) -> Judgment:
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
    path = Path(path)
    name = str(path)
    header: dict | None = None
    out: list[Judgment] = []
    problems: list[Problem] = []
    seen: dict[tuple[str, str, int], int] = {}
    loads = json.loads
    for lineno, text in _iter_lines(path):
        if not text.strip():
            continue
        try:
            obj = loads(text)
        except json.JSONDecodeError as exc:
            problems.append(Problem(ERROR, name, lineno, "judgment-json",
                                    f"not valid JSON ({exc.msg} at column {exc.colno}); "
                                    "each line must hold one complete JSON object"))
        else:
            if isinstance(obj, dict) and META_KEY in obj:
                if out or header is not None or not isinstance(obj[META_KEY], dict):
                    problems.append(Problem(ERROR, name, lineno, "judgment-meta",
                                            "a {\"_meta\": {...}} header may appear only once, as the first line"))
                else:
                    header = obj[META_KEY]
                continue
            try:
                j = _parse(obj, lineno)
            except _LineError as exc:
                topic = obj.get("topic") if isinstance(obj, dict) else None
                bullet = obj.get("bullet") if isinstance(obj, dict) else None
                problems.append(Problem(ERROR, name, lineno, exc.rule, str(exc),
                                        topic if isinstance(topic, str) else None,
                                        bullet if _is_int(bullet) else None))
            else:
                first = seen.get(j.key)
                if first is not None:
                    problems.append(Problem(ERROR, name, lineno, "judgment-duplicate",
                                            f"run {j.run} bullet {j.bullet} of topic {j.topic} is judged again "
                                            f"(first at line {first}); keep one line per bullet", j.topic, j.bullet))
                else:
                    seen[j.key] = lineno
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
    ``{"_meta": header}``; the lines after it follow SPEC §5 exactly.
    """
    with atomic_open(path) as fh:
        if header is not None:
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
