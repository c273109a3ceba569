"""Importers and exporters for other evaluations' files, one module per format family.

Each importer streams its input, checks it whole (every problem with file, line and fix) and writes
our topics, submissions and judgments through the project's own writers; each exporter writes them
back. ``FORMATS`` is the table ``bolt convert`` reads; docs/formats.md describes every format.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, NamedTuple


class FormatSpec(NamedTuple):
    """A format: where its importer and exporter live (imported only when used) and a summary."""

    module: str
    summary: str
    import_name: str | None = None
    export_name: str | None = None

    def _get(self, name: str | None) -> Callable[..., Any] | None:
        if name is None:
            return None
        return getattr(importlib.import_module(self.module), name)

    @property
    def importer(self) -> Callable[..., Any] | None:
        return self._get(self.import_name)

    @property
    def exporter(self) -> Callable[..., Any] | None:
        return self._get(self.export_name)


FORMATS: dict[str, FormatSpec] = {
    "aquaint-pilot": FormatSpec("evaluation.convert.aquaint", "AQUAINT definition pilot (seed 000): questions, "
                                "Q.<n>, holistic, <n>.<assessor>, sys.<n>.<assessor>", "import_cli", "export_cli"),
    "trec-qa": FormatSpec("evaluation.convert.trecqa", "TREC QA definition/other questions 2003-2006: questions, "
                          "nuggets (vital/okay), NIST RUN.otherjudged files or responses + judgments, pyramid votes",
                          "import_cli", "export_cli"),
    "trec-rag": FormatSpec("evaluation.convert.rag", "TREC RAG 2024/2025 answers, NeuCLIR/RAGTIME reports and "
                           "requests (JSONL), AutoNuggetizer nuggets and assignments", "import_rag", "export_cli"),
    "argue": FormatSpec("evaluation.convert.argue", "NeuCLIR/RAGTIME ARGUE nugget banks (v3 or RAGTIME 2026; "
                        "questions with AND/OR answers), sentence judgments, reports and requests", "import_argue",
                        "export_cli"),
}

#: Track metrics ``bolt convert score`` computes: name -> (module, scoring function).
TRACK_SCORERS: dict[str, tuple[str, str]] = {
    "autonuggetizer": ("evaluation.convert.track_metrics", "score_autonuggetizer"),
    "argue": ("evaluation.convert.track_metrics", "score_argue"),
}
