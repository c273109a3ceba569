"""The one submission writer: a run written atomically, refused when it would not validate."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from indexing.problems import ERROR, Problem, ProblemsError
from bolt.formats.signature import Signature
from bolt.formats.submission.checks import check_result, usable_run_id, usable_thread_id
from bolt.formats.submission.header import header_comments
from bolt.formats.submission.records import BAD_XML_CHARS, Bullet, Result, Source, collapse
from bolt.formats.submission.rules import BAD_RUN_ID, DUPLICATE_RESULT, MISSING_TOPIC_NUMBER, SOURCE_MISSING_POST, _problem
from indexing.atomic import atomic_write_text


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: str) -> str:
    return _esc(text).replace('"', "&quot;")


def _comment(text: str) -> str:
    text = BAD_XML_CHARS.sub(" ", collapse(text))
    while "--" in text:
        text = text.replace("--", "- -")
    return text.rstrip("-")


def clean_text(text: str) -> str:
    """Bullet text as written: characters XML 1.0 forbids become spaces, white space collapsed."""
    return collapse(BAD_XML_CHARS.sub(" ", text))


def write_run(run_id: str, results: Iterable[Result] | dict[str, Result], path: str | os.PathLike,
              system: str | None = None, settings: str | None = None,
              signature: Signature | str | None = None) -> None:
    """Write a run atomically, refusing (with :class:`ProblemsError`) anything that would not validate.

    ``system``, ``settings`` and ``signature`` go into the header's XML comments (not attributes,
    which the format does not have; :mod:`~bolt.formats.submission.header` reads them back).
    Bullet text is written as :func:`clean_text` gives it; bullets are renumbered 1..n.
    """
    file = str(path)
    items = list(results.values()) if isinstance(results, dict) else list(results)
    problems: list[Problem] = []
    if not usable_run_id(run_id):
        problems.append(_problem(BAD_RUN_ID, file, None, f"run id {run_id!r} is not usable; use a short name "
                                 "without spaces"))
    seen: set[str] = set()
    cleaned: list[Result] = []
    for r in items:
        number = r.topic_id.strip() if isinstance(r.topic_id, str) else ""
        if not number or BAD_XML_CHARS.search(number):
            problems.append(_problem(MISSING_TOPIC_NUMBER, file, None, f"result number {r.topic_id!r} is not "
                                     "usable; give every result its topic number"))
        elif number in seen:
            problems.append(_problem(DUPLICATE_RESULT, file, None, f"two results for topic {number}; merge "
                                     "them", number))
        seen.add(number)
        bullets = tuple(Bullet(i, clean_text(b.text), tuple(Source(s.thread, int(s.offset)) for s in b.sources))
                        for i, b in enumerate(r.bullets, 1))
        res = Result(number, bullets)
        for p in check_result(res, file):
            if p.severity == ERROR:
                problems.append(p)
        for b in bullets:
            for s in b.sources:
                if not usable_thread_id(s.thread):
                    problems.append(_problem(SOURCE_MISSING_POST, file, None, f"thread id {s.thread!r} is not "
                                             "usable", number, b.position))
        cleaned.append(res)
    if problems:
        raise ProblemsError(problems)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.extend(f"<!-- {_comment(c)} -->" for c in header_comments(system, settings, signature))
    lines.append(f'<results run="{_attr(run_id)}">')
    for r in cleaned:
        lines.append(f'<result number="{_attr(r.topic_id)}">')
        if not r.bullets:
            lines.append("<response/>")
        else:
            lines.append("<response>")
            for b in r.bullets:
                srcs = "".join(f'<source post="{_attr(s.thread)}" offset="{s.offset}"/>' for s in b.sources)
                lines.append(f"<bullet>{_esc(b.text)}{srcs}</bullet>")
            lines.append("</response>")
        lines.append("</result>")
    lines.append("</results>")
    atomic_write_text(Path(path), "\n".join(lines) + "\n")


