"""Per-bullet judgments (SPEC §5): the one reader and writer of the JSONL judgments file.

Human assessors and the automatic assessor write the same file, so the scorer can trust either.
One JSON object per line, keyed by (topic, run, bullet). An optional first line
``{"_meta": {...}}`` records who produced the file (assessor name and version, thresholds,
embedding model); readers that only know SPEC §5 can skip it, and ours keep it
(:func:`read_header`, :func:`load_judgments`). Unknown keys are kept verbatim in ``extra`` and
written back, so a round trip through this package loses nothing. See ``docs/judgments.md``.

Split by job, every name re-exported here: :mod:`~evaluation.judgments.records` (``Judgment``,
``JudgedSource``, ``JudgmentSet``), :mod:`~evaluation.judgments.read` (the one line parser
``parse_judgment`` and the readers), :mod:`~evaluation.judgments.write`,
:mod:`~evaluation.judgments.holistic` (the AQUAINT pilot's holistic scores) and
:mod:`~evaluation.judgments.rules` (the one rule catalogue of both files, ``RULES``) and
:mod:`~evaluation.judgments.coverage` (unfinished judgments, unknown facet ids, fully judged topics).
"""
from __future__ import annotations

from indexing.problems import ERROR, Problem, ProblemsError  # noqa: F401  (importable here before the split)
from evaluation.judgments.records import (META_KEY, REQUIRED_KEYS, SOURCE_KNOWN_KEYS, SOURCE_REQUIRED_KEYS,
                                          JudgedSource, Judgment, JudgmentSet)
from evaluation.judgments.read import (file_sha256, gc_paused, iter_judgments, iter_lines, load_judgments,
                                       parse_judgment, read_header, read_judgments)
from evaluation.judgments.write import dumps_judgment, write_judgments
from evaluation.judgments.holistic import HOLISTIC_COLUMNS, HolisticJudgment, read_holistic
from evaluation.judgments.rules import RULES
from evaluation.judgments.coverage import (COMPLETE_KEY, fully_judged_topics, is_unfinished, unknown_facets,
                                           unknown_facets_warning)

__all__ = ["META_KEY", "REQUIRED_KEYS", "SOURCE_REQUIRED_KEYS", "SOURCE_KNOWN_KEYS", "JudgedSource", "Judgment",
           "JudgmentSet", "parse_judgment", "iter_judgments", "read_judgments", "read_header", "load_judgments",
           "file_sha256", "gc_paused", "iter_lines", "dumps_judgment", "write_judgments", "HOLISTIC_COLUMNS",
           "HolisticJudgment", "read_holistic", "RULES", "COMPLETE_KEY", "is_unfinished", "unknown_facets",
           "unknown_facets_warning", "fully_judged_topics"]
