"""Holistic judgments (AQUAINT pilot): content and organisation scores per (topic, run, assessor)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from indexing.problems import ERROR, Problem, ProblemsError
from evaluation.judgments.read import iter_lines
from evaluation.judgments.records import META_KEY
from evaluation.judgments.rules import (HOLISTIC_DUPLICATE, HOLISTIC_FORMAT, HOLISTIC_HEADER, HOLISTIC_JSON,
                                        HOLISTIC_RANGE)
from evaluation.metrics.holistic import holistic_score

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
    for lineno, text in iter_lines(path):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if jsonl:
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(Problem(ERROR, name, lineno, HOLISTIC_JSON, f"not valid JSON ({exc.msg})"))
                continue
            if isinstance(obj, dict) and META_KEY in obj:
                continue
            row = obj if isinstance(obj, dict) else {}
        else:
            cells = [c.strip() for c in text.rstrip("\r\n").split("\t")]
            if columns is None:
                if [c.lower() for c in cells] != list(HOLISTIC_COLUMNS):
                    problems.append(Problem(ERROR, name, lineno, HOLISTIC_HEADER,
                                            f"the first line must be the header {chr(9).join(HOLISTIC_COLUMNS)!r} "
                                            "(tab-separated)"))
                    break
                columns = HOLISTIC_COLUMNS
                continue
            row = dict(zip(columns, cells)) if len(cells) == len(columns) else {}
        missing = [c for c in HOLISTIC_COLUMNS if c not in row]
        if missing:
            problems.append(Problem(ERROR, name, lineno, HOLISTIC_FORMAT,
                                    f"needs {', '.join(HOLISTIC_COLUMNS)}; missing {', '.join(missing)}"))
            continue
        try:
            content, organization = float(row["content"]), float(row["organization"])
        except (TypeError, ValueError):
            problems.append(Problem(ERROR, name, lineno, HOLISTIC_FORMAT,
                                    "content and organization must be numbers from 0 to 10"))
            continue
        if not (0 <= content <= 10 and 0 <= organization <= 10):
            problems.append(Problem(ERROR, name, lineno, HOLISTIC_RANGE,
                                    f"content {content:g} and organization {organization:g} must lie in 0..10"))
            continue
        key = (str(row["topic"]), str(row["run"]), str(row["assessor"]))
        if key in seen:
            problems.append(Problem(ERROR, name, lineno, HOLISTIC_DUPLICATE,
                                    f"assessor {key[2]} scored run {key[1]} on topic {key[0]} again "
                                    f"(first at line {seen[key]}); keep one line"))
            continue
        seen[key] = lineno
        out.append(HolisticJudgment(*key, content, organization))
    if problems:
        raise ProblemsError(problems)
    return out
