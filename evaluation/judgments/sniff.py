"""Recognise the judgments files of other evaluations given where ours are expected.

People hold TREC qrels, TREC QA nugget judgments and nugget-assignment files; given to ``bolt score``
as ``--judgments``, such a file failed on its first line with a JSON parser's message ("Extra data
at column 7"). The reader asks :func:`other_format` about a file whose first line is not one of
ours, and names the format and what to do with it instead.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple


class OtherFormat(NamedTuple):
    """A recognised file: what it is, and what to do with it."""

    name: str
    hint: str


_IMPORT = "then score the judgments.jsonl it writes (docs/formats.md)"

QRELS = OtherFormat("a TREC qrels file (TOPIC ITER DOCNO REL: relevance per document)",
                    "bolt score needs per-bullet judgments of the runs' bullets, which qrels cannot give: judge the "
                    "runs with 'bolt judge' or 'bolt assess', or write the judgments by hand (docs/judgments.md)")
TREC_QA = OtherFormat("a TREC QA nugget judgments file (QID RUN ITEM NUGGET DOCID [text])",
                      "import it with its questions and nuggets: 'bolt convert import trec-qa FOLDER --out DIR', "
                      + _IMPORT)
ASSIGNMENTS = OtherFormat("an AutoNuggetizer nugget-assignment file (qid, run_id, nuggets with assignment)",
                          "import it with its answers and nuggets: 'bolt convert import trec-rag FILES... --out DIR', "
                          + _IMPORT)
ARGUE = OtherFormat("an ARGUE judged-report file (report with sentence judgments)",
                    "import it with its nugget banks: 'bolt convert import argue FILES... --out DIR', " + _IMPORT)


def _is_int(text: str) -> bool:
    return text.lstrip("-").isdigit()


def other_format(first_line: str) -> OtherFormat | None:
    """The other evaluation's format whose lines look like ``first_line``, or None."""
    text = first_line.strip()
    try:
        obj: Any = json.loads(text)
    except ValueError:
        cells = text.split()
        if len(cells) == 4 and _is_int(cells[1]) and _is_int(cells[3]):
            return QRELS
        if len(cells) >= 5 and _is_int(cells[2]):
            return TREC_QA
        return None
    if not isinstance(obj, dict):
        return None
    if "nuggets" in obj and ("qid" in obj or "run_id" in obj):
        return ASSIGNMENTS
    if "report" in obj or ("judgments" in obj and "topic" not in obj):
        return ARGUE
    return None
