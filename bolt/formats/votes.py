"""The nugget-pyramid votes file (seed 002, Lin & Demner-Fushman 2006): a UTF-8 TSV
``topic<TAB>facet<TAB>assessor<TAB>vote`` with ``vote`` in ``vital|okay`` (docs/topics.md).

``read_votes`` and ``write_votes`` are re-exported from ``bolt.formats.topics``.
"""
from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Iterable

from indexing.problems import ERROR, Problem, ProblemsError, RuleCatalogue
from indexing.atomic import atomic_write_text

VOTES_HEADER = ("topic", "facet", "assessor", "vote")
VOTES = ("vital", "okay")

# The votes file's one rule catalogue (the file-level names are those of the other formats)
RULES = RuleCatalogue("votes files")
FILE_UNREADABLE = RULES.register("file-unreadable", ERROR, "the file cannot be opened or read")
INVALID_UTF8 = RULES.register("invalid-utf8", ERROR, "the file is not valid UTF-8")
VOTES_HEADER_RULE = RULES.register("votes-header", ERROR, "the first line is not the header")
VOTES_ROW = RULES.register("votes-row", ERROR, "a row without 4 non-empty tab-separated fields")
VOTES_VALUE = RULES.register("votes-value", ERROR, "a vote other than vital or okay")
VOTES_DUPLICATE = RULES.register("votes-duplicate", ERROR, "an assessor's second vote on one facet")


def read_votes(path: str | os.PathLike) -> dict[str, dict[str, dict[str, int]]]:
    """Read a nugget-pyramid votes file: ``{topic: {facet_id: {"vital": n, "okay": n}}}``.

    A UTF-8 TSV with the header ``topic<TAB>facet<TAB>assessor<TAB>vote``, one row per assessor
    and facet, ``vote`` in ``vital|okay``; blank lines and lines starting with ``#`` are skipped.
    An assessor who gave a facet neither vote has no row. Raises ProblemsError listing every bad row.
    """
    path = Path(path)
    file = str(path)
    problems: list[Problem] = []
    out: dict[str, dict[str, dict[str, int]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        rule = INVALID_UTF8 if isinstance(exc, UnicodeDecodeError) else FILE_UNREADABLE
        raise ProblemsError([RULES.problem(rule, file, None, f"cannot read the votes file ({exc}); "
                                           "give a UTF-8 TSV file")]) from exc
    rows = [(i, line) for i, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    if not rows or tuple(c.strip() for c in rows[0][1].split("\t")) != VOTES_HEADER:
        line = rows[0][0] if rows else 1
        raise ProblemsError([Problem(ERROR, file, line, VOTES_HEADER_RULE,
                                     "the first line must be the header topic<TAB>facet<TAB>assessor<TAB>vote")])
    for lineno, line in rows[1:]:
        cells = [c.strip() for c in next(csv.reader([line], delimiter="\t", quoting=csv.QUOTE_NONE))]
        if len(cells) != 4 or not all(cells):
            problems.append(Problem(ERROR, file, lineno, VOTES_ROW,
                                    f"expected 4 non-empty tab-separated fields, got {len(cells)}; "
                                    "write topic, facet, assessor, vote", cells[0] if cells else None))
            continue
        topic, facet, assessor, vote = cells
        if vote not in VOTES:
            problems.append(Problem(ERROR, file, lineno, VOTES_VALUE,
                                    f"vote \"{vote}\" must be vital or okay", topic))
            continue
        key = (topic, facet, assessor)
        if key in seen:
            problems.append(Problem(ERROR, file, lineno, VOTES_DUPLICATE,
                                    f"assessor {assessor} already voted on facet {facet} at line {seen[key]}; "
                                    "keep one vote per assessor and facet", topic))
            continue
        seen[key] = lineno
        counts = out.setdefault(topic, {}).setdefault(facet, {"vital": 0, "okay": 0})
        counts[vote] += 1
    if problems:
        raise ProblemsError(problems)
    return out


def write_votes(rows: Iterable[tuple[str, str, str, str]], path: str | os.PathLike) -> None:
    """Write a votes file (atomically) from ``(topic, facet, assessor, vote)`` rows."""
    lines = ["\t".join(VOTES_HEADER)] + ["\t".join(r) for r in rows]
    atomic_write_text(Path(path), "\n".join(lines) + "\n", newline="")
