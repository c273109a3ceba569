"""Checks that need only the records: run on parsed results and before a run is written."""
from __future__ import annotations

import re

from indexing.problems import Problem
from bolt.formats.submission.records import BAD_XML_CHARS, Result
from bolt.formats.submission.rules import (BULLET_WITHOUT_SOURCE, DUPLICATE_BULLET, DUPLICATE_SOURCE, EMPTY_BULLET_TEXT,
                                   EMPTY_RESPONSE, NEGATIVE_OFFSET, SOURCE_MISSING_POST, _problem)

MAX_RUN_ID_CHARS = 200
_WS = re.compile(r"\s+")


def usable_run_id(run_id: object) -> bool:
    """A run id the format accepts: a non-empty string without white space or forbidden characters."""
    return (isinstance(run_id, str) and bool(run_id.strip()) and not _WS.search(run_id)
            and len(run_id) <= MAX_RUN_ID_CHARS and not BAD_XML_CHARS.search(run_id))


def usable_thread_id(post: str) -> bool:
    """A thread id the writer accepts: no white space, no forbidden characters."""
    return not _WS.search(post) and not BAD_XML_CHARS.search(post)


def check_result(result: Result, file: str) -> list[Problem]:
    """Checks that need only the records: used on parsed results and before writing a run."""
    out: list[Problem] = []
    num = result.topic_id or None
    if not result.bullets:
        out.append(_problem(EMPTY_RESPONSE, file, result.line,
                            "the response has no bullets; add bullets, or leave it empty on purpose "
                            "(an empty response scores 0)", num))
    seen_text: dict[str, int] = {}
    for b in result.bullets:
        if not b.text:
            out.append(_problem(EMPTY_BULLET_TEXT, file, b.line,
                                "the bullet has no text; put the extracted text inside <bullet> "
                                "next to its <source/> elements, or delete the bullet", num, b.position))
        elif b.text in seen_text:
            out.append(_problem(DUPLICATE_BULLET, file, b.line,
                                f"same text as bullet {seen_text[b.text]}; delete the repeated bullet "
                                "or merge its sources into the first one", num, b.position))
        else:
            seen_text[b.text] = b.position
        if not b.sources:
            out.append(_problem(BULLET_WITHOUT_SOURCE, file, b.line,
                                "the bullet has no <source>; cite the thread and offset it came from "
                                'with <source post="THREAD-ID" offset="N"/>', num, b.position))
        seen_src: set[tuple[str, int]] = set()
        for s in b.sources:
            if not s.thread.strip():
                out.append(_problem(SOURCE_MISSING_POST, file, s.line or b.line,
                                    'the <source> has an empty post attribute; set post="THREAD-ID" '
                                    "(the <doc id> of the cited thread)", num, b.position))
            if s.offset < 0:
                out.append(_problem(NEGATIVE_OFFSET, file, s.line or b.line,
                                    f"offset {s.offset} is negative; offsets count code points from 0 "
                                    "at the start of the thread's XML", num, b.position))
            if (s.thread, s.offset) in seen_src:
                out.append(_problem(DUPLICATE_SOURCE, file, s.line or b.line,
                                    f"the citation {s.thread} at {s.offset} appears twice in this bullet; "
                                    "delete the repeated <source>", num, b.position))
            seen_src.add((s.thread, s.offset))
    return out
