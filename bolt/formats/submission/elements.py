"""Reading one ``<result>`` of a submission: its number, its response, bullets and sources.

The streaming parser (:mod:`bolt.formats.submission.parse`) hands over each ``<result>`` once it
is read whole; what is inside is checked here element by element, every problem recorded in the
file's :class:`~bolt.formats.submission.findings.Findings` with the line it stands on.
"""
from __future__ import annotations

import re

from bolt.formats.submission.checks import check_result
from bolt.formats.submission.findings import Findings
from bolt.formats.submission.records import Bullet, Result, Source, collapse
from bolt.formats.submission.rules import (BULLET_WITHOUT_SOURCE, DUPLICATE_RESULT, ELEMENTS, EMPTY_RESPONSE,
                                           MISSING_RESPONSE, MISSING_TOPIC_NUMBER, MULTIPLE_RESPONSES,
                                           SOURCE_BAD_OFFSET, SOURCE_HAS_CONTENT, SOURCE_MISSING_OFFSET,
                                           SOURCE_MISSING_POST, TOO_LARGE)

# Limits on what one bullet may hold (the stream's limits are in bolt.formats.submission.parse).
MAX_BULLET_CHARS = 100_000
MAX_OFFSET_DIGITS = 15

_OFFSET = re.compile(r"[0-9]+")
_NEG_OFFSET = re.compile(r"-[0-9]+")


class ResultReader:
    """Reads the results of one file; remembers each topic's first result to flag a second one."""

    def __init__(self, findings: Findings) -> None:
        self.findings = findings
        self.numbers: dict[str, int] = {}  # topic -> line of its first <result>

    def read(self, el) -> Result:
        """The ``<result>`` element ``el`` as a record; its problems go to the findings."""
        raw_number = el.get("number")
        number = (raw_number or "").strip()
        topic = number or None
        line = el.sourceline
        self.findings.check_attrs(el, topic)
        if not number:
            self.findings.add(MISSING_TOPIC_NUMBER, line, "the <result> has no number; write <result number=\"TOPIC\"> "
                              "with the topic's number from the topic file", None)
        elif raw_number != number:
            self.findings.add(MISSING_TOPIC_NUMBER, line, f"the number \"{raw_number}\" has white space around it; "
                              f"write number=\"{number}\"", topic)
        responses = []
        self.findings.stray(el.text, line, topic, " (inside <result>)")
        for child in el:
            if child.tag == "response":
                responses.append(child)
            else:
                self.findings.misplaced_or_unknown(child, "result", topic)
            if child.tail and not child.tail.isspace():
                self.findings.stray(child.tail, end_line(child), topic, " (inside <result>)")
        if not responses:
            self.findings.add(MISSING_RESPONSE, line, "the <result> has no <response>; write <response> with the "
                              "bullets inside (an empty <response/> when there are none)", topic)
        elif len(responses) > 1:
            self.findings.add(MULTIPLE_RESPONSES, responses[1].sourceline, f"a second <response> in this <result> "
                              f"(first at line {responses[0].sourceline}); put all bullets in one <response>", topic)
        bullets: list[Bullet] = []
        had_sources: set[int] = set()
        for resp in responses:
            self.findings.check_attrs(resp, topic)
            self.findings.stray(resp.text, resp.sourceline, topic, " (inside <response>)")
            for child in resp:
                if child.tag == "bullet":
                    b, n_src = self._bullet(child, len(bullets) + 1, topic)
                    if n_src:
                        had_sources.add(b.position)
                    bullets.append(b)
                else:
                    self.findings.misplaced_or_unknown(child, "response", topic)
                if child.tail and not child.tail.isspace():
                    self.findings.stray(child.tail, end_line(child), topic, " (inside <response>)")
        result = Result(number, tuple(bullets), line)
        for p in check_result(result, self.findings.file):
            if p.rule == BULLET_WITHOUT_SOURCE and p.bullet in had_sources:
                continue  # its <source> elements were reported as broken already
            if p.rule == EMPTY_RESPONSE and not responses:
                continue
            self.findings.problems.append(p)
        if number:
            if number in self.numbers:
                self.findings.add(DUPLICATE_RESULT, line, f"a second <result> for topic {number} (first at line "
                                  f"{self.numbers[number]}); merge the two responses into one <result>", topic)
            else:
                self.numbers[number] = line
        return result

    def _bullet(self, el, position: int, topic: str | None) -> tuple[Bullet, int]:
        self.findings.check_attrs(el, topic, position)
        parts = [el.text or ""]
        sources: list[Source] = []
        n_src = 0
        for child in el:
            if child.tag == "source":
                n_src += 1
                src = self._source(child, topic, position)
                if src is not None:
                    sources.append(src)
            else:
                self.findings.misplaced_or_unknown(child, "bullet", topic, position)
                if child.tag not in ELEMENTS:
                    parts.append("".join(child.itertext()))
            parts.append(child.tail or "")
        text = collapse("".join(parts))
        if len(text) > MAX_BULLET_CHARS:
            self.findings.add(TOO_LARGE, el.sourceline, f"the bullet has {len(text)} characters (limit "
                              f"{MAX_BULLET_CHARS}); a bullet is an extract: shorten it", topic, position)
        return Bullet(position, text, tuple(sources), el.sourceline), n_src

    def _source(self, el, topic: str | None, bullet: int) -> Source | None:
        self.findings.check_attrs(el, topic, bullet)
        line = el.sourceline
        if (el.text and el.text.strip()) or len(el):
            self.findings.add(SOURCE_HAS_CONTENT, line, "<source> must be empty: write <source post=\"...\" "
                              "offset=\"...\"/> and put the bullet's text outside it", topic, bullet)
        post = el.get("post")
        raw = el.get("offset")
        ok = True
        if post is None:
            self.findings.add(SOURCE_MISSING_POST, line, "the <source> has no post attribute; add post=\"THREAD-ID\" "
                              "(the <doc id> of the cited thread)", topic, bullet)
            ok = False
        if raw is None:
            self.findings.add(SOURCE_MISSING_OFFSET, line, "the <source> has no offset attribute; add "
                              "offset=\"N\", the code-point offset of the cited text in the thread's XML",
                              topic, bullet)
            return None
        if _NEG_OFFSET.fullmatch(raw) and len(raw) <= MAX_OFFSET_DIGITS + 1:
            offset = int(raw)  # negative-offset is reported by check_result
        elif not _OFFSET.fullmatch(raw) or len(raw) > MAX_OFFSET_DIGITS:
            shown = raw if len(raw) <= 30 else raw[:30] + "..."
            self.findings.add(SOURCE_BAD_OFFSET, line, f"offset=\"{shown}\" is not a decimal integer; write the "
                              "code-point offset as plain digits, e.g. offset=\"1207\"", topic, bullet)
            return None
        else:
            offset = int(raw)
        return Source(post, offset, line) if ok else None


def end_line(el) -> int:
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
