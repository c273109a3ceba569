"""Where the submission parser records what it finds: one place builds every problem's message.

The parser's stream level (:mod:`bolt.formats.submission.parse`) and its reading of one result
(:mod:`bolt.formats.submission.elements`) report the same kinds of finding (stray text, unknown
attributes, misplaced elements) the same way, so both write through one :class:`Findings`.
"""
from __future__ import annotations

from bolt.formats.submission.records import collapse
from bolt.formats.submission.rules import (ATTRIBUTES, ELEMENTS, MISPLACED_ELEMENT, PARENT, TEXT_OUTSIDE_BULLET,
                                           UNKNOWN_ATTRIBUTE, UNKNOWN_ELEMENT, _problem)
from indexing.problems import Problem


class Findings:
    """The problems of one file, in the order they were met (errors and warnings alike)."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        self.file = file
        self.problems = problems

    def add(self, rule: str, line: int | None, message: str, topic: str | None = None,
            bullet: int | None = None) -> None:
        self.problems.append(_problem(rule, self.file, line, message, topic, bullet))

    def stray(self, text: str | None, line: int, topic: str | None, where: str = "") -> None:
        """Text that is not white space where only elements may stand."""
        if text and text.strip():
            lead = len(text) - len(text.lstrip())
            at = line + text[:lead].count("\n")
            snippet = collapse(text)[:40]
            self.add(TEXT_OUTSIDE_BULLET, at, f"text \"{snippet}\" is outside every <bullet>{where}; move it "
                     "into a <bullet> or delete it", topic)

    def check_attrs(self, el, topic: str | None, bullet: int | None = None) -> None:
        """Every attribute of ``el`` that its element does not take (``rules.ATTRIBUTES``)."""
        allowed = ATTRIBUTES.get(el.tag, ())
        for name in el.attrib:
            if name not in allowed:
                hint = f"<{el.tag}> takes {', '.join(allowed)}" if allowed else f"<{el.tag}> takes no attributes"
                self.add(UNKNOWN_ATTRIBUTE, el.sourceline, f"unknown attribute {qname(name)} on <{el.tag}>; "
                         f"{hint}: remove it", topic, bullet)

    def misplaced_or_unknown(self, el, parent: str, topic: str | None, bullet: int | None = None) -> None:
        """A child ``<parent>`` may not hold: a run's element in the wrong place, or a foreign one."""
        if el.tag in ELEMENTS:
            self.add(MISPLACED_ELEMENT, el.sourceline, f"<{el.tag}> is not allowed in <{parent}>; it belongs "
                     f"in {PARENT[el.tag]}", topic, bullet)
        else:
            self.add(UNKNOWN_ELEMENT, el.sourceline, f"unknown element <{tagname(el)}> in <{parent}>; a run "
                     "holds only <results>, <result>, <response>, <bullet> and <source>: remove it",
                     topic, bullet)


def tagname(el) -> str:
    return qname(el.tag) if isinstance(el.tag, str) else str(el.tag)


def qname(name: str) -> str:
    """``{uri}local`` (lxml's namespaced name) shown as ``local`` with the namespace noted."""
    if name.startswith("{"):
        uri, _, local = name[1:].partition("}")
        return f"{local} (namespace {uri})"
    return name
