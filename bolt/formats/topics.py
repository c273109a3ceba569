"""Topic files (SPEC §3): typed records, a safe reader that reports every problem, a writer.

A topic file holds ``<topic>`` elements, with or without a ``<topics>`` root (the BOLT guidelines
show bare, concatenated topics). The full form carries description, properties, facets with
nuggets and rules; the query-only ("summary") form carries ``number`` and ``query`` alone, and is
a valid topic file whose topics have no facets.

Nugget offsets follow SPEC §2: a raw code-point offset into the thread's escaped XML that points
at, or at most three words before, the nugget text inside a ``<post>``. ``check_topics`` checks
them against a corpus and suggests the nearest exact offset when one is wrong.

Jobs beside this module, re-exported from it: the nugget citation checks against a collection
(``bolt.formats.topic_corpus``) and the votes file for nugget pyramids (``bolt.formats.votes``, ``read_votes``;
documented in ``docs/topics.md``).
"""
from __future__ import annotations

from indexing.atomic import atomic_write_text

import dataclasses
import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from indexing.problems import ERROR, Problem, ProblemsError
from bolt.formats.topic_rules import DOCTYPE_REFUSED, INVALID_UTF8, NOT_WELL_FORMED, RULES, TOO_LARGE
from bolt.formats.topic_corpus import MAX_WORDS_BEFORE, check_nugget, find_nugget_offsets, nugget_resolves  # noqa: F401
from bolt.formats.votes import VOTES, VOTES_HEADER, read_votes, write_votes  # noqa: F401  (re-exported)
from indexing.textfacts import count_words

IMPORTANCES = ("vital", "okay")
LANG_ATTRS = {"eng": "eng", "arz": "arz", "cmn": "cmn", "cnm": "cmn"}  # guidelines spell Mandarin 'cnm'
PROPERTY_ELEMENTS = ("asks-about", "asks-for", "languages", "threads")
TOPIC_CHILDREN = ("query", "description", "properties", "facet", "rules")
FACET_CHILDREN = ("desc", "nugget")
ATTRIBUTES = {
    "topics": (),
    "topic": ("number",),
    "query": (),
    "description": (),
    "rules": (),
    "properties": (),
    "asks-about": ("target",),
    "asks-for": ("response",),
    "languages": tuple(LANG_ATTRS),
    "threads": ("multiple",),
    "facet": ("id", "importance"),
    "desc": (),
    "nugget": ("post", "offset"),
}
MAX_BYTES = 64 * 1024 * 1024  # a topic file larger than this is refused, not parsed

_WS = re.compile(r"\s+")
_FIRST_TAG = re.compile(r"<([A-Za-z_][\w.-]*)")
_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
_XML_DECL = re.compile(r"\A\ufeff?<\?xml[^>]*\?>")


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Nugget:
    """An extract of the collection that meets the assessor's idea of the facet.

    ``post`` is a thread id and ``offset`` a raw offset into that thread (both may be None:
    a nugget can be a description only). ``line`` is where it sits in the topic file.
    """

    text: str
    post: str | None = None
    offset: int | None = None
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Facet:
    """An aspect of the topic a response should cover; ``importance`` is ``vital`` or ``okay``."""

    id: str
    importance: str
    desc: str
    nuggets: tuple[Nugget, ...] = ()
    line: int = field(default=0, compare=False)

    @property
    def vital(self) -> bool:
        return self.importance == "vital"


@dataclass(frozen=True, slots=True)
class TopicProperties:
    """The conditions scores are averaged over: target, response type, languages, threads."""

    asks_about: str | None = None
    asks_for: str | None = None
    languages: frozenset[str] = frozenset()
    multiple_threads: bool | None = None

    @property
    def is_empty(self) -> bool:
        return (self.asks_about is None and self.asks_for is None and not self.languages
                and self.multiple_threads is None)


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic: what systems see (its id, ``query``) and what assessors keep.

    ``topic_id`` is the file's ``<topic number=...>`` (the key stays, SPEC).
    """

    topic_id: str
    query: str
    description: str | None = None
    properties: TopicProperties = TopicProperties()
    facets: tuple[Facet, ...] = ()
    rules: str | None = None
    line: int = field(default=0, compare=False)

    @property
    def vital_facets(self) -> tuple[Facet, ...]:
        return tuple(f for f in self.facets if f.importance == "vital")

    def facet(self, facet_id: str) -> Facet | None:
        for f in self.facets:
            if f.id == facet_id:
                return f
        return None

    def summary(self) -> "Topic":
        """The query-only form systems see at run time."""
        return Topic(self.topic_id, self.query, line=self.line)


# --------------------------------------------------------------------------- reading


def read_topics(path: str | os.PathLike) -> list[Topic]:
    """Read a topic file (full or query-only); raise ProblemsError listing every error in it."""
    topics, problems = _parse(Path(path))
    if any(p.severity == ERROR for p in problems):
        raise ProblemsError(problems)
    return topics


def check_topics(path: str | os.PathLike, corpus=None) -> list[Problem]:
    """Every problem of a topic file; with a corpus, also check each nugget's thread and offset.

    ``corpus`` is anything with ``.get(thread_id) -> Thread | None`` (``indexing.corpus.Corpus``).
    """
    path = Path(path)
    topics, problems = _parse(path)
    if corpus is not None:
        for topic in topics:
            for facet in topic.facets:
                for nugget in facet.nuggets:
                    problems.extend(check_nugget(str(path), topic, facet, nugget, corpus))
    return problems


def _parse(path: Path) -> tuple[list[Topic], list[Problem]]:
    file = str(path)
    problems: list[Problem] = []

    def err(line, rule, message, topic=None):
        problems.append(Problem(RULES[rule].severity, file, line, rule, message, topic))

    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            err(None, TOO_LARGE, f"topic file is {size} bytes (limit {MAX_BYTES}); split it")
            return [], problems
        data = path.read_bytes()
    except OSError as exc:
        err(None, "file-unreadable", f"cannot read the topic file ({exc.strerror or exc}); check the path")
        return [], problems
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        err(line, INVALID_UTF8, f"not UTF-8 at byte {exc.start}; save the file as UTF-8")
        return [], problems
    dtd = _DTD.search(text)
    if dtd:
        line = text[: dtd.start()].count("\n") + 1
        err(line, DOCTYPE_REFUSED, "DOCTYPE and ENTITY declarations are not allowed in topic files; remove them")
        return [], problems
    root = _parse_xml(text, file, problems)
    if root is None:
        return [], problems
    _check_attrs_err(root, err, None)
    topics: list[Topic] = []
    seen: dict[str, int] = {}
    for el in _children(root):
        if el.tag != "topic":
            err(el.sourceline, "unknown-element", f"unexpected <{el.tag}> at top level; only <topic> is allowed"
                f"{_suggest(el.tag, ('topic',))}")
            continue
        topic = _read_topic(el, err)
        if topic is None:
            continue
        if topic.topic_id in seen:
            err(el.sourceline, "duplicate-topic", f"topic number {topic.topic_id} already used at line "
                f"{seen[topic.topic_id]}; give each topic a unique number", topic.topic_id)
            continue
        seen[topic.topic_id] = el.sourceline
        topics.append(topic)
    if not topics and not any(p.severity == ERROR for p in problems):
        err(None, "no-topics", "the file holds no <topic> element; add at least one")
    return topics, problems


def _parse_xml(text: str, file: str, problems: list[Problem]):
    """Parse safely (no DTD, no entities, no network), wrapping bare topics in a root element.

    The declaration is blanked out (same length, so line numbers stay) and the wrapper is put on
    the first line, so every ``sourceline`` is the line in the user's file.
    """
    from lxml import etree

    m = _XML_DECL.match(text)
    body = (" " * len(m.group(0)) + text[m.end():]) if m else text.lstrip("\ufeff")
    first = _FIRST_TAG.search(re.sub(r"<!--.*?-->", "", body, flags=re.S))
    if first is None or first.group(1) != "topics":
        body = "<topics>" + body + "</topics>"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, huge_tree=False, remove_comments=True,
                             remove_pis=True)
    try:
        root = etree.fromstring(body.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        line = exc.position[0] if exc.position else None
        msg = exc.msg or str(exc)
        problems.append(Problem(ERROR, file, line, NOT_WELL_FORMED,
                                f"not well-formed XML: {msg}; fix the markup (escape & as &amp; and < as &lt;)"))
        return None
    if root.tag != "topics":
        problems.append(Problem(ERROR, file, root.sourceline, "unknown-element",
                                f"root element <{root.tag}> is not <topics> or <topic>; use <topics>"))
        return None
    return root


def _children(el) -> Iterator:
    """Element children only (comments and processing instructions were dropped by the parser)."""
    for child in el:
        if isinstance(child.tag, str):
            yield child


def _read_topic(el, err) -> Topic | None:
    number = (el.get("number") or "").strip()
    _check_attrs_err(el, err, number or None)
    if not number:
        err(el.sourceline, "topic-number-missing", "<topic> has no number attribute; add number=\"1.001\"")
        number = f"<line {el.sourceline}>"
    query = description = rules = None
    properties = TopicProperties()
    facets: list[Facet] = []
    facet_ids: dict[str, int] = {}
    seen_single: dict[str, int] = {}
    for child in _children(el):
        tag = child.tag
        if tag not in TOPIC_CHILDREN:
            err(child.sourceline, "unknown-element", f"unknown element <{tag}> in <topic>"
                f"{_suggest(tag, TOPIC_CHILDREN)}; allowed: {', '.join(TOPIC_CHILDREN)}", number)
            continue
        _check_attrs_err(child, err, number)
        if tag != "facet":
            if tag in seen_single:
                err(child.sourceline, f"duplicate-{tag}", f"<{tag}> appears twice (first at line "
                    f"{seen_single[tag]}); keep one", number)
                continue
            seen_single[tag] = child.sourceline
        if tag == "query":
            query = _text(child)
            _no_children(child, err, number)
        elif tag == "description":
            description = _text(child) or None
            _no_children(child, err, number)
        elif tag == "rules":
            rules = _text(child) or None
            _no_children(child, err, number)
        elif tag == "properties":
            properties = _read_properties(child, err, number)
        else:
            facet = _read_facet(child, len(facets) + 1, err, number)
            if facet is None:
                continue
            if facet.id in facet_ids:
                err(child.sourceline, "duplicate-facet", f"facet id {facet.id} already used at line "
                    f"{facet_ids[facet.id]}; give each facet of a topic a unique id", number)
                continue
            facet_ids[facet.id] = child.sourceline
            facets.append(facet)
    if not query:
        err(el.sourceline, "query-missing", "topic has no <query> text; add the user's one-sentence query",
            number)
        query = ""
    if not facets and (description or not properties.is_empty):
        err(el.sourceline, "no-facets", "topic has a description or properties but no <facet>; "
            "add facets or use the query-only form", number)
    return Topic(number, query, description, properties, tuple(facets), rules, el.sourceline)


def _read_properties(el, err, number: str) -> TopicProperties:
    asks_about = asks_for = None
    languages: set[str] = set()
    multiple = None
    _no_text(el, err, number)
    for child in _children(el):
        tag = child.tag
        if tag not in PROPERTY_ELEMENTS:
            err(child.sourceline, "unknown-property", f"unknown property <{tag}>"
                f"{_suggest(tag, PROPERTY_ELEMENTS)}; allowed: {', '.join(PROPERTY_ELEMENTS)}", number)
            continue
        _check_attrs_err(child, err, number)
        if tag == "asks-about":
            asks_about = _required_attr(child, "target", err, number)
        elif tag == "asks-for":
            asks_for = _required_attr(child, "response", err, number)
        elif tag == "languages":
            for attr, value in child.attrib.items():
                if attr not in LANG_ATTRS:
                    continue  # reported by the attribute check
                flag = _flag(value)
                if flag is None:
                    err(child.sourceline, "bad-flag", f"languages {attr}=\"{value}\" must be T or F", number)
                elif flag:
                    languages.add(LANG_ATTRS[attr])
        else:
            value = child.get("multiple")
            if value is None:
                err(child.sourceline, "attribute-missing", "<threads> needs multiple=\"T\" or \"F\"", number)
            else:
                multiple = _flag(value)
                if multiple is None:
                    err(child.sourceline, "bad-flag", f"threads multiple=\"{value}\" must be T or F", number)
    return TopicProperties(asks_about, asks_for, frozenset(languages), multiple)


def _read_facet(el, position: int, err, number: str) -> Facet | None:
    fid = (el.get("id") or "").strip() or str(position)
    importance = (el.get("importance") or "vital").strip()
    if importance not in IMPORTANCES:
        err(el.sourceline, "bad-importance", f"facet {fid} importance=\"{importance}\" must be vital or okay",
            number)
        importance = "vital"
    _no_text(el, err, number)
    desc = None
    nuggets: list[Nugget] = []
    for child in _children(el):
        tag = child.tag
        if tag not in FACET_CHILDREN:
            err(child.sourceline, "unknown-element", f"unknown element <{tag}> in facet {fid}"
                f"{_suggest(tag, FACET_CHILDREN)}; allowed: desc, nugget", number)
            continue
        _check_attrs_err(child, err, number)
        _no_children(child, err, number)
        if tag == "desc":
            if desc is not None:
                err(child.sourceline, "duplicate-desc", f"facet {fid} has two <desc>; keep one", number)
            desc = _text(child)
        else:
            nuggets.append(_read_nugget(child, fid, err, number))
    if not desc:
        err(el.sourceline, "facet-desc-missing", f"facet {fid} has no <desc>; add a short description "
            "of what a response should say", number)
        desc = ""
    return Facet(fid, importance, desc, tuple(nuggets), el.sourceline)


def _read_nugget(el, fid: str, err, number: str) -> Nugget:
    text = _text(el)
    post = (el.get("post") or "").strip() or None
    raw_offset = el.get("offset")
    offset = None
    if not text:
        err(el.sourceline, "nugget-empty", f"a nugget of facet {fid} has no text; paste the extract", number)
    if raw_offset is not None:
        try:
            offset = int(raw_offset.strip())
            if offset < 0:
                raise ValueError
        except ValueError:
            err(el.sourceline, "bad-offset", f"nugget offset \"{raw_offset}\" of facet {fid} is not a "
                "non-negative integer; give the raw code-point offset into the thread", number)
            offset = None
    if (post is None) != (raw_offset is None):
        err(el.sourceline, "nugget-citation-incomplete", f"a nugget of facet {fid} has "
            f"{'post' if post else 'offset'} without {'offset' if post else 'post'}; give both or neither",
            number)
    return Nugget(text, post, offset, el.sourceline)


def _check_attrs_err(el, err, topic: str | None) -> None:
    allowed = ATTRIBUTES.get(el.tag, ())
    for attr in el.attrib:
        if attr not in allowed:
            hint = _suggest(attr, allowed) if allowed else ""
            err(el.sourceline, "unknown-attribute", f"unknown attribute {attr} on <{el.tag}>{hint}; remove it",
                topic)


def _required_attr(el, name: str, err, number: str) -> str | None:
    value = (el.get(name) or "").strip()
    if not value:
        err(el.sourceline, "attribute-missing", f"<{el.tag}> needs a {name} attribute", number)
        return None
    return value


def _no_children(el, err, number: str) -> None:
    for child in _children(el):
        err(child.sourceline, "unknown-element", f"<{el.tag}> holds text only, not <{child.tag}>; "
            "escape < as &lt;", number)


def _no_text(el, err, number: str) -> None:
    stray = " ".join(s.strip() for s in [el.text or "", *(c.tail or "" for c in el)] if s.strip())
    if stray:
        err(el.sourceline, "stray-text", f"text \"{stray[:40]}\" directly inside <{el.tag}>; move it into "
            "an element", number)


def _flag(value: str) -> bool | None:
    v = value.strip().upper()
    return True if v == "T" else False if v == "F" else None


def _text(el) -> str:
    return _WS.sub(" ", "".join(el.itertext())).strip()


def _suggest(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


# --------------------------------------------------------------------------- writing


def write_topics(topics: Iterable[Topic], path: str | os.PathLike, queries_only: bool = False) -> None:
    """Write a topic file (atomically); ``queries_only`` writes the form systems see at run time."""
    path = Path(path)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<topics>"]
    for t in topics:
        lines.append(f'<topic number="{_attr(t.topic_id)}">')
        lines.append(f"  <query>{_esc(t.query)}</query>")
        if not queries_only:
            if t.description is not None:
                lines.append(f"  <description>{_esc(t.description)}</description>")
            if not t.properties.is_empty:
                lines.extend(_properties_lines(t.properties))
            for f in t.facets:
                lines.extend(_facet_lines(f))
            if t.rules is not None:
                lines.append(f"  <rules>{_esc(t.rules)}</rules>")
        lines.append("</topic>")
    lines.append("</topics>")
    _atomic_write(path, "\n".join(lines) + "\n")


def _facet_lines(f: Facet) -> list[str]:
    lines = [f'  <facet id="{_attr(f.id)}" importance="{_attr(f.importance)}">', f"    <desc>{_esc(f.desc)}</desc>"]
    for n in f.nuggets:
        cite = ""
        if n.post is not None:
            cite += f' post="{_attr(n.post)}"'
        if n.offset is not None:
            cite += f' offset="{n.offset}"'
        lines.append(f"    <nugget{cite}>{_esc(n.text)}</nugget>")
    lines.append("  </facet>")
    return lines


def add_facets(source: str | os.PathLike, added: dict[str, list[Facet]], path: str | os.PathLike) -> None:
    """Write ``source``'s topics file to ``path`` with facets added, keeping every byte of the original
    (comments, layout) around them: each topic's new facets go after its last facet (or before
    ``</topic>``). The result is read back; when it does not hold exactly the facets expected (an
    unusual layout), the file is written from the records instead (comments then lost).
    """
    text = Path(source).read_text(encoding="utf-8")
    order = {t.topic_id: i for i, t in enumerate(read_topics(source))}
    out, pos = [], 0
    for number, facets in sorted(added.items(), key=lambda kv: order.get(kv[0], len(order))):
        start = re.search(rf'<topic\s[^>]*number="{re.escape(_attr(number))}"', text[pos:])
        end = text.find("</topic>", pos + start.end()) if start else -1
        if start is None or end < 0:
            break
        block = text[pos + start.start():end]
        last = block.rfind("</facet>")
        at = pos + start.start() + (last + len("</facet>") if last >= 0 else len(block.rstrip(" ")))
        out.append(text[pos:at] + ("\n" if last >= 0 else "") + "\n".join(sum((_facet_lines(f) for f in facets), []))
                   + ("" if last >= 0 else "\n"))
        pos = at
    candidate = "".join(out) + text[pos:]
    _atomic_write(Path(path), candidate)
    want = {t.topic_id: [f.id for f in t.facets] for t in read_topics(source)}
    for number, facets in added.items():
        want[number] = want.get(number, []) + [f.id for f in facets]
    try:
        got = {t.topic_id: [f.id for f in t.facets] for t in read_topics(path)}
    except Exception:  # noqa: BLE001 - any parse failure: fall back to writing the records
        got = None
    if got != want:
        merged = [dataclasses.replace(t, facets=t.facets + tuple(added.get(t.topic_id, ()))) for t in read_topics(source)]
        write_topics(merged, path)


def _properties_lines(p: TopicProperties) -> list[str]:
    out = ["  <properties>"]
    if p.asks_about is not None:
        out.append(f'    <asks-about target="{_attr(p.asks_about)}"/>')
    if p.asks_for is not None:
        out.append(f'    <asks-for response="{_attr(p.asks_for)}"/>')
    if p.languages:
        flags = " ".join(f'{attr}="{"T" if lang in p.languages else "F"}"'
                         for attr, lang in (("eng", "eng"), ("arz", "arz"), ("cnm", "cmn")))
        out.append(f"    <languages {flags}/>")
    if p.multiple_threads is not None:
        out.append(f'    <threads multiple="{"T" if p.multiple_threads else "F"}"/>')
    out.append("  </properties>")
    return out


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: str) -> str:
    return _esc(text).replace('"', "&quot;")


def _atomic_write(path: Path, text: str) -> None:
    atomic_write_text(path, text, newline="")


# --------------------------------------------------------------------------- helpers for metrics


def average_nugget_words(topics: Iterable[Topic]) -> float:
    """Mean words per nugget text over all nuggets of the set (0.0 when there is none).

    The denominator of facet precision's estimate of incorrect nuggets (SPEC §6, P_n).
    Words are ``indexing.textfacts`` words (a Chinese character counts as one word), the same count
    the validator, the assessor and the scorer use.
    """
    counts = [count_words(n.text) for t in topics for f in t.facets for n in f.nuggets]
    return sum(counts) / len(counts) if counts else 0.0
