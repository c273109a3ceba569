"""The one writer of judgments files: JSONL, atomic, header stamped with the word definition."""
from __future__ import annotations

import json
import os
from typing import Iterable

from evaluation.judgments.records import META_KEY, Judgment
from indexing.atomic import atomic_open
from indexing.textfacts import WORDS_VERSION


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

